import { parsePersistedState, type UniversalLinkPersistedState } from './persisted-state'
import type { UniversalLinkStore } from './store'

/**
 * A `UniversalLinkStore` in memory, for tests, server-side rendering (one per request) and
 * environments without `localStorage` (React Native, a worker, Node scripts). It keeps what
 * `createBrowserUniversalLinkStore` would keep: the state serialised to JSON, so a saved state is a
 * copy (later changes to the object do not reach the store, and `load()` returns a fresh copy),
 * and a value that is not JSON-safe or fails `parsePersistedState` is not kept. Nothing throws.
 * `initial` seeds it, e.g. with a state loaded from your own storage. The state holds the session
 * token: do not log what `load()` returns.
 */
export function createMemoryUniversalLinkStore(
  initial: UniversalLinkPersistedState | null = null,
): UniversalLinkStore<UniversalLinkPersistedState> {
  let stored: string | null = null
  let discarded: string | null = null
  const store: UniversalLinkStore<UniversalLinkPersistedState> = {
    save(state) {
      try {
        stored = parsePersistedState(state) === null ? null : JSON.stringify(state)
      } catch {
        stored = null // a bigint or a cycle: not JSON-safe, so not kept (as localStorage would)
      }
    },
    load() {
      if (stored === null) return null
      const state = parsePersistedState(JSON.parse(stored))
      if (state === null) {
        stored = null
        discarded = 'the stored record is not a valid universal-link state'
      }
      return state
    },
    clear() {
      stored = null
    },
    discarded() {
      const reason = discarded
      discarded = null
      return reason
    },
  }
  if (initial !== null) store.save(initial)
  return store
}
