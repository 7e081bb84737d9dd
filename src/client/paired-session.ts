import type { ClientActor } from '../../machines/client/client.facade'
import type { PairingHandle } from '../../machines/pairing/pairing.facade'
import type { PairingStore } from '../../machines/pairing/pairing.persistence'
import type { ClientLoaders } from './environment'
import type { RootHost } from './host'
import type { ClientPairingPart } from './lazy/pairing'
import type { ClientPairOptions } from './pairing'

/** What a paired session asks of the `Client`. */
export interface PairedSessionHost {
  disconnect(): Promise<void>
  cancel(): void
}

/**
 * The Client's relay pairing: the `PairingHandle` of the root's `pairing` child (from `pair()`, or
 * restored by `resume()`), and the pairing store that keeps the settled session for a reload.
 */
export class PairedSession {
  readonly #host: RootHost
  readonly #loaders: ClientLoaders
  readonly #client: PairedSessionHost
  /** The flow of the root's current `pairing` child. */
  #pairing: PairingHandle | null = null
  #store: PairingStore | null = null
  #stopPersisting: (() => void) | null = null

  constructor(host: RootHost, loaders: ClientLoaders, client: PairedSessionHost) {
    this.#host = host
    this.#loaders = loaders
    this.#client = client
  }

  /** The paired session's flow, while the root is in its relay flow. */
  current(): PairingHandle | null {
    return this.#host.actor.getSnapshot().matches('relay') ? this.#pairing : null
  }

  /**
   * `Client.pair()` once its options are checked: the root's `PAIR` flow, its session kept in
   * `store` (null: nowhere). The proposal, the metadata and their checks are in the pairing chunk.
   */
  async pair(options: ClientPairOptions, store: PairingStore | null): Promise<PairingHandle> {
    const { beginClientPairing } = await import('./lazy/pairing')
    const begun = beginClientPairing(await this.#loaders.loadPairing(), options)
    this.#replaceStore(store)
    this.persist(this.#host.live())
    this.#host.actor.send({ type: 'PAIR', input: begun.input, uri: begun.uri })
    const flow = this.#host.actor.getSnapshot().context.flow
    return this.open(begun.input.pairingId, begun.uri, flow)
  }

  /**
   * A new pairing persists in `store` (null: nowhere): the old store and the new one are cleared,
   * so that no stale session comes back at the next `resume()` should this pairing fail.
   */
  #replaceStore(store: PairingStore | null): void {
    this.#store?.clear()
    this.#store = store
    store?.clear()
  }

  /** A restored session goes on persisting in the store it came from. */
  keepStore(store: PairingStore): void {
    this.#store = store
  }

  /**
   * The `PairingHandle` of the root's `pairing` child (built by the pairing part, loaded before
   * any pairing): its requests are `RELAY.REQUEST` events of the root, its approval the root's
   * `pair` flow `flow`.
   */
  open(pairingId: string, uri: string | null, flow: number): PairingHandle {
    const part = this.#loaders.pairingPart as ClientPairingPart
    this.#pairing = part.open(this.#host, this.#client, { pairingId, uri, flow })
    return this.#pairing
  }

  /** Keeps the root's paired session in the pairing store (when there is one). */
  persist(actor: ClientActor): void {
    this.stopPersisting()
    const part = this.#loaders.pairingPart
    if (part && this.#store) this.#stopPersisting = part.persist(actor, this.#store)
  }

  /** Stops keeping the current root's session (it is being replaced). */
  stopPersisting(): void {
    this.#stopPersisting?.()
    this.#stopPersisting = null
  }
}
