import type { AnyActorRef, Subscription } from 'xstate'
import type { ClientActor } from '../../machines/client/client.facade'
import type { ClientSignRequest, OperationOutcome } from '../../machines/client/client.types'
import { type ClientView, clientView } from '../../machines/client/client.view'
import { toAppError } from '../../machines/shared/error-data'
import { type GuardReport, guarded } from '../../machines/shared/guard'
import type { WalletConnection } from '../connectors/types'
import { AppError } from '../errors/app-error'
import type { Caip2ChainId } from '../registry/types'

/** An event of the root chart. */
export type RootEvent = Parameters<ClientActor['send']>[0]

/** A child actor of `parent` by id (the snapshot's `children`). */
export function childOf(parent: AnyActorRef | undefined, id: string): AnyActorRef | undefined {
  const snapshot = parent?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> }
  return snapshot?.children?.[id]
}

/** What follows the root actor beside the view's listeners (persistence, transactions). */
export interface RootHostHooks {
  /** A change of a root actor (also while it starts, before it is the host's `actor`). */
  changed(actor: ClientActor): void
  /** A root actor started (the first one, or a replacement). */
  started(actor: ClientActor): void
  /** The current root is about to be stopped and replaced. */
  replacing(): void
  /** A replacement is the current root (before its `RESUMED`). */
  replaced(actor: ClientActor): void
}

/**
 * The root-actor host of a `Client`: builds and starts the root actor, replaces it (`resume()`, or a
 * root that stopped), tells the view's listeners of each change, and runs a root flow to its outcome.
 */
export class RootHost {
  #actor: ClientActor | undefined
  #subscription: Subscription | null = null
  readonly #listeners = new Set<(view: ClientView) => void>()
  readonly #replaceHooks = new Set<() => void>()
  readonly #create: (snapshot: unknown) => ClientActor
  readonly #report: GuardReport
  readonly #hooks: RootHostHooks
  /** How many reads this host has asked for: each read's system id is new (`read`). */
  #reads = 0

  /** `create` builds an unstarted root actor (from a restored `snapshot` when one is given). */
  constructor(
    create: (snapshot: unknown) => ClientActor,
    report: GuardReport,
    hooks: RootHostHooks,
  ) {
    this.#create = create
    this.#report = report
    this.#hooks = hooks
  }

  /** Starts the first root actor. */
  start(): void {
    this.#actor = this.#start(undefined)
  }

  /** The current root actor. */
  get actor(): ClientActor {
    return this.#actor as ClientActor
  }

  /** The current view of the root. */
  view(): ClientView {
    return clientView(this.actor.getSnapshot())
  }

  /** The current connection (a connector's, else a settled pairing's), or null. */
  connection(): WalletConnection | null {
    const snapshot = this.actor.getSnapshot()
    const connection = snapshot.context.connection
    if (!connection || snapshot.status !== 'active' || !snapshot.hasTag('connected')) return null
    return {
      ...connection,
      walletId: connection.walletId ?? undefined,
      chainId: connection.chainId as Caip2ChainId,
    }
  }

  /** The connection a wallet call goes through: one wallet request at a time (`WALLET_BUSY`). */
  walletConnection(): WalletConnection {
    const connection = this.connection()
    if (!connection) throw new AppError('NOT_CONNECTED', 'Connect a wallet first.')
    if (!this.view().canSign)
      throw new AppError(
        'WALLET_BUSY',
        'The wallet is answering another request (a signature, a chain switch or a transaction): one at a time.',
      )
    return connection
  }

  /** A `SIGN` flow of the root: the wallet's answer (a signature, or a sent transaction's hash). */
  async sign(request: ClientSignRequest): Promise<string> {
    const outcome = await this.run({ type: 'SIGN', ...request })
    return outcome.signature ?? ''
  }

  /**
   * A `SIGN` flow over the universal link for a Solana transaction (`solana_signTransaction`, or
   * `solana_signAndSendTransaction`): the link carries it as base64url, Solana tools emit base64.
   */
  signOverLink(
    method: 'solana_signTransaction' | 'solana_signAndSendTransaction',
    transaction: string,
  ): Promise<string> {
    return this.sign({
      request: { method, params: { transaction } },
      link: {
        method: 'signTransaction',
        payload: transaction.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
      },
    })
  }

  /** Calls `listener` with the view now and on every change, across root replacements. */
  subscribe(listener: (view: ClientView) => void): () => void {
    this.#listeners.add(listener)
    guarded(this.#report, 'a subscribe() listener', () => listener(this.view()), undefined)
    return () => this.#listeners.delete(listener)
  }

  /** Tells every listener the current view. */
  notify(): void {
    if (this.#listeners.size === 0) return
    const view = this.view()
    for (const listener of this.#listeners)
      guarded(this.#report, 'a subscribe() listener', () => listener(view), undefined)
  }

  /**
   * The root actor, replaced by a fresh one if it stopped (`actor.stop()`, or a fault no chart
   * handled): a stopped root never wedges the Client; its view said `stopped` meanwhile.
   */
  live(): ClientActor {
    if (this.actor.getSnapshot().status !== 'active') this.replace(undefined)
    return this.actor
  }

  /** Replaces the root by one from `snapshot` (a restored flow), or a fresh one (undefined). */
  replace(snapshot: unknown): void {
    this.#subscription?.unsubscribe()
    this.#hooks.replacing()
    this.actor.stop()
    this.#actor = this.#start(snapshot)
    this.#hooks.replaced(this.actor)
    // A restored waiting state schedules its deadline again (pending timers are not restored).
    this.actor.send({ type: 'RESUMED' })
    for (const hook of [...this.#replaceHooks]) hook()
    this.notify()
  }

  /**
   * A read (`READ_*`): the root spawns it, this finds it by its system id and settles with its
   * output. @throws `ABORTED` when the root stops meanwhile (`resume()` restoring a flow).
   */
  read<T>(event: (id: string) => RootEvent): Promise<T> {
    const id = `read:${++this.#reads}`
    const actor = this.live()
    actor.send(event(id))
    const ref = actor.system.get(id) as AnyActorRef | undefined
    if (!ref) return Promise.reject(new AppError('RPC_ERROR', 'The read did not start.'))
    return new Promise<T>((resolve, reject) => {
      ref.subscribe({
        complete: () => {
          const snapshot = ref.getSnapshot()
          if (snapshot.status === 'done') resolve(snapshot.output as T)
          else reject(new AppError('ABORTED', 'The read was stopped with its root.'))
        },
        error: reject,
      })
    })
  }

  /** Sends the event that starts a flow and settles with that flow's outcome. */
  async run(event: RootEvent): Promise<OperationOutcome> {
    const before = this.live().getSnapshot().context.flow
    this.actor.send(event)
    const flow = this.actor.getSnapshot().context.flow
    if (flow === before) throw new AppError('NOT_CONNECTED', `${event.type} is not possible now.`)
    return this.wait(flow)
  }

  /** The outcome of the current flow (see `wait`). */
  waitCurrent(): Promise<OperationOutcome> {
    return this.wait(this.actor.getSnapshot().context.flow)
  }

  /**
   * The outcome of flow `flow`: the root settles every flow (success, error, `TIMEOUT`, `ABORTED`),
   * so this always ends; a flow replaced without an outcome (root replaced) is `ABORTED`.
   */
  wait(flow: number): Promise<OperationOutcome> {
    return new Promise((resolve, reject) => {
      const actor = this.actor
      const check = (): boolean => {
        const snapshot = actor.getSnapshot()
        const { outcome, flow: current } = snapshot.context
        if (outcome?.flow === flow) {
          if (outcome.error) reject(toAppError(outcome.error))
          else resolve(outcome)
          return true
        }
        if (current !== flow || snapshot.status !== 'active' || actor !== this.#actor) {
          reject(new AppError('ABORTED', 'The flow was replaced.'))
          return true
        }
        return false
      }
      if (check()) return
      // Both listeners go once the flow settles: a long-lived Client keeps none per flow.
      const done = () => {
        subscription.unsubscribe()
        unregister()
      }
      const subscription = actor.subscribe({
        next: () => {
          if (check()) done()
        },
        error: (error) => {
          reject(toAppError({ code: 'WALLET_ERROR', message: String(error) }))
          done()
        },
        complete: () => {
          check()
          done()
        },
      })
      const unregister = this.#onReplace(() => {
        if (!check()) reject(new AppError('ABORTED', 'The flow was replaced.'))
        done()
      })
    })
  }

  #onReplace(hook: () => void): () => void {
    this.#replaceHooks.add(hook)
    return () => this.#replaceHooks.delete(hook)
  }

  #start(snapshot: unknown): ClientActor {
    const actor = this.#create(snapshot)
    // `actor` is not `this.actor` yet while it starts (the first start, `replace`).
    this.#subscription = actor.subscribe({
      next: () => this.#hooks.changed(actor),
      error: () => {},
    })
    actor.start()
    this.#hooks.started(actor)
    return actor
  }
}
