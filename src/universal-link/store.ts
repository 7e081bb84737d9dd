import type { UniversalLinkPersistedState } from './persisted-state'

/** Where the universal-link flow keeps its state across the page reload that follows the wallet. */
export interface UniversalLinkStore<TState = UniversalLinkPersistedState> {
  /** Replaces the stored state. Must not throw. */
  save(state: TState): void
  /** The stored state, or `null` when there is none (or it is unusable). Must not throw. */
  load(): TState | null
  /** Forgets the stored state. Must not throw. */
  clear(): void
  /**
   * Optional: why the last `load()` found nothing usable although something was stored (not JSON,
   * not a record of this format), once; null otherwise. `Client.resume()` answers `discarded` with
   * this reason. The stores of this package have it.
   */
  discarded?(): string | null
}
