import type { ClientActor } from '../../machines/client/client.facade'
import type { ConnectConfig } from '../config'
import { AppError } from '../errors/app-error'
import { childOf, type RootEvent, type RootHost } from './host'

/**
 * The Client's reads (config, balances), each a `read.<slot>` child of the root, and the project's
 * chains the root needs for the view's `chainSupported` (from the config, read once per Client).
 */
export class ClientReads {
  readonly #host: RootHost
  /** The slots of the reads in flight: a read's id is the lowest free one (see `read`). */
  readonly #slots = new Set<number>()
  /** The project's chains once its config was read (read once: `followProjectChains`). */
  #projectChains: string[] | null = null
  /** The root and flow the last read of them started in: a failed read is tried again in a later flow. */
  #projectChainsReadIn: { actor: ClientActor; flow: number } | null = null

  constructor(host: RootHost) {
    this.#host = host
  }

  /** `Client.loadConfig`: a `READ_CONFIG` read; its networks give the root the project's chains. */
  loadConfig(): Promise<ConnectConfig> {
    return this.read<ConnectConfig>((id) => ({ type: 'READ_CONFIG', id })).then((config) => {
      // A read whose root was replaced meanwhile (`resume()`) completes without a config.
      if (config) {
        this.#projectChains = config.networks.map((network) => network.networkId)
        this.followProjectChains(this.#host.actor)
      }
      return config
    })
  }

  /**
   * Runs a read as a child `read.<slot>` of the root. Slots are reused once a read settles: XState
   * caches the transitions it finds per event type for good, so ever-new ids (and with them ever-new
   * `xstate.done.actor.read.<id>` types) would grow that cache with every read.
   */
  read<T>(event: (id: string) => RootEvent): Promise<T> {
    let slot = 0
    while (this.#slots.has(slot)) slot++
    const id = `read.${slot}`
    this.#host.live().send(event(id))
    const ref = childOf(this.#host.actor, id)
    if (!ref) return Promise.reject(new AppError('RPC_ERROR', 'The read did not start.'))
    this.#slots.add(slot)
    return new Promise<T>((resolve, reject) => {
      ref.subscribe({
        complete: () => {
          this.#slots.delete(slot)
          // A read stopped with its root (replaced by `resume()`, or stopped) has no output.
          const snapshot = ref.getSnapshot()
          if (snapshot.status === 'done') resolve(snapshot.output as T)
          else reject(new AppError('ABORTED', 'The read was stopped with its root.'))
        },
        error: (error) => {
          this.#slots.delete(slot)
          reject(error)
        },
      })
    })
  }

  /**
   * Once connected, gives the root the project's chains: from the config read before, else read
   * now (once; a failed read leaves `chainSupported` unknown and is tried again in the next flow).
   */
  followProjectChains(actor: ClientActor): void {
    const snapshot = actor.getSnapshot()
    if (snapshot.status !== 'active' || snapshot.context.projectChains !== null) return
    const chainIds = this.#projectChains
    if (chainIds) {
      // Not from inside the root's own update: on the next microtask.
      queueMicrotask(() => {
        if (actor.getSnapshot().context.projectChains === null)
          actor.send({ type: 'PROJECT.CHAINS', chainIds })
      })
      return
    }
    const tried = this.#projectChainsReadIn
    if (!snapshot.hasTag('connected') || actor !== this.#host.actor) return
    if (tried?.actor === actor && tried.flow === snapshot.context.flow) return
    this.#projectChainsReadIn = { actor, flow: snapshot.context.flow }
    // A read sent from inside the root's update would start after this call returns.
    queueMicrotask(() => {
      if (actor === this.#host.actor) this.loadConfig().catch(() => undefined)
    })
  }
}
