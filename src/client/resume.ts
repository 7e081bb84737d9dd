import type { ClientActor } from '../../machines/client/client.facade'
import type { RestoreCheck } from '../../machines/client/client.persistence'
import type { FlowOutcome } from '../../machines/client/client.types'
import { clientView } from '../../machines/client/client.view'
import type { PairingRestoreCheck } from '../../machines/pairing/pairing.persistence'
import {
  CONNECTION_STORE_FORMAT,
  CONNECTION_STORE_FORMAT_VERSION,
  type ConnectionStore,
  parseStoredConnection,
  type StoredConnection,
} from '../connection/store'
import { isAppError } from '../errors/app-error'
import type { Caip2ChainId } from '../registry/types'
import type { TransactionHandle } from '../transaction/types'
import type { UniversalLinkStore } from '../universal-link/store'
import { type ClientLoaders, isMobile } from './environment'
import type { RootHost } from './host'
import type { PhantomLinkHost } from './lazy/phantom-link'
import type { ResumeResult } from './options'
import type { PairedSession } from './paired-session'
import type { ClientTransactions } from './transactions'

const none = async () => null

/**
 * The Client's resume and persistence wiring: the stored universal-link flow (persisted while the
 * root is in it), the last desktop connection (for a silent reconnect), the paired session and
 * Phantom's deeplinks, and `resume()`, which restores whichever of them is stored.
 */
export class ClientResume {
  readonly #host: RootHost
  readonly #loaders: ClientLoaders
  readonly #transactions: ClientTransactions
  readonly #paired: PairedSession
  #stopPersisting: (() => void) | null = null
  /** The connection store (loaded on first use when the default one); what it last saved. */
  #connections: Promise<ConnectionStore | null> | null = null
  #savedConnection: string | null = null

  constructor(
    host: RootHost,
    loaders: ClientLoaders,
    transactions: ClientTransactions,
    paired: PairedSession,
  ) {
    this.#host = host
    this.#loaders = loaders
    this.#transactions = transactions
    this.#paired = paired
  }

  /** `Client.resume`: see its documentation. */
  async resume(url: string | undefined): Promise<ResumeResult> {
    const linked = await this.#resumePhantomLink(url)
    if (linked) return linked
    const paired = await this.#resumePairing()
    if (paired?.status === 'connected') return paired
    const store = await this.linkStore()
    const stored = store.load()
    if (stored === null) {
      // A record the store could not read (not JSON, not an envelope) is discarded with its reason.
      const reason = store.discarded?.() ?? null
      const nothing: ResumeResult =
        reason === null
          ? { status: 'none', wait: none }
          : { status: 'discarded', reason, wait: none }
      return (await this.#reconnect()) ?? paired ?? nothing
    }
    let check: RestoreCheck
    try {
      check = (await this.#loaders.loadLink()).check(stored)
    } catch (error) {
      check = { ok: false, reason: `the flow could not be loaded: ${String(error)}` }
    }
    if (!check.ok) {
      store.clear()
      return { status: 'discarded', reason: check.reason, wait: none }
    }
    const host = this.#host
    host.replace(check.snapshot)
    this.#loaders.linkPart?.pollNow(host.actor)
    const view = host.view()
    const flow = host.actor.getSnapshot().context.flow
    const pending = host.actor.getSnapshot().context.pending !== null
    // One wait for the restored flow, shared by wait() and signature() (created on first use).
    let outcome: Promise<FlowOutcome | null> | undefined
    const settled = () => {
      outcome ??= pending ? host.wait(flow) : Promise.resolve(null)
      return outcome
    }
    const wait = async () => {
      await settled()
      return host.connection()
    }
    const connection = host.connection()
    if (view.status === 'awaitingSignature' || view.status === 'signing') {
      const signature = async () => (await settled())?.signature ?? ''
      const sign = host.actor.getSnapshot().context.sign
      if (sign?.request.method !== 'solana_signAndSendTransaction') {
        return { status: 'awaitingSignature', connection, wait, signature }
      }
      // The wallet is answering a sendTransaction: once it does, watch it as that call would have.
      let sent: Promise<TransactionHandle> | undefined
      const transaction = () => {
        sent ??= signature().then((hash) =>
          this.#transactions.watch(connection?.chainId ?? '', hash),
        )
        return sent
      }
      void transaction().catch(() => {}) // the view follows it without the app asking
      return { status: 'awaitingSignature', connection, wait, signature, transaction }
    }
    return { status: view.isConnected ? 'connected' : 'awaitingWallet', connection, wait }
  }

  /**
   * Restores the stored desktop connection without a prompt (a root `reconnect` flow): `connected`;
   * `none` when the wallet no longer authorizes this site (locked, revoked); `discarded` when the
   * reconnect failed otherwise; null when nothing is stored. The record goes unless `connected`.
   */
  async #reconnect(): Promise<ResumeResult | null> {
    const store = await this.#connectionStore()
    // What a custom store answers is checked as the package's stores check it.
    const stored = parseStoredConnection(store?.load() ?? null)
    if (!store || stored === null) return null
    if (!this.#host.view().isConnected) {
      try {
        await this.#host.run({
          type: 'RECONNECT',
          walletId: stored.walletId,
          namespace: stored.namespace,
          connectorId: stored.connectorId,
        })
      } catch (error) {
        await this.forgetConnection()
        if (isAppError(error, 'NOT_CONNECTED')) return { status: 'none', wait: none }
        const reason = isAppError(error) ? `${error.code}: ${error.shortMessage}` : String(error)
        return {
          status: 'discarded',
          reason: `the wallet did not reconnect (${reason})`,
          wait: none,
        }
      }
    }
    const connection = this.#host.connection()
    return { status: 'connected', connection, wait: async () => this.#host.connection() }
  }

  /** Restores the paired session of the pairing store, if any: `connected`, `discarded` or null (none). */
  async #resumePairing(): Promise<ResumeResult | null> {
    const store = this.#loaders.options.pairing?.store
    const stored = store?.load() ?? null
    if (!store || stored === null) return null
    let check: PairingRestoreCheck
    try {
      check = (await this.#loaders.loadPairing()).check(stored)
    } catch (error) {
      check = { ok: false, reason: `the pairing could not be loaded: ${String(error)}` }
    }
    if (!check.ok) {
      store.clear()
      return { status: 'discarded', reason: check.reason, wait: none }
    }
    this.#paired.keepStore(store)
    this.#host.replace(check.snapshot)
    this.#paired.open(check.pairingId, null, this.#host.actor.getSnapshot().context.flow)
    const connection = this.#host.connection()
    return { status: 'connected', connection, wait: async () => this.#host.connection() }
  }

  /** Phantom's deeplinks after the wallet's redirect: null (nothing loads) when there is no such flow. */
  async #resumePhantomLink(url: string | undefined): Promise<ResumeResult | null> {
    const href = url ?? (typeof location === 'undefined' ? undefined : String(location.href))
    let stored = this.#loaders.options.phantomLink?.store !== undefined
    try {
      stored ||= globalThis.localStorage?.getItem('scope-connect:phantom-link') != null
    } catch {}
    const own = (this.#loaders.options.connectors ?? []).some(
      (c) => (c as { kind?: unknown }).kind === 'phantom-link',
    )
    if (!href?.includes('scPhantomFlow=') && !stored && !own) return null
    return (await import('./lazy/phantom-link')).resumePhantomLink(this.phantomHost(), href)
  }

  /** What the Phantom-link chunk borrows of the client. */
  phantomHost(): PhantomLinkHost {
    const host = this.#host
    return {
      options: this.#loaders.options,
      kept: this.#loaders.phantomLinks,
      secrets: this.#loaders.secrets,
      connector: () => this.#loaders.connector,
      pending: () => host.view().pending !== null,
      waitFlow: () => host.waitCurrent().then(() => {}),
      connection: () => host.connection(),
      reconnect: (walletId, connectorId) =>
        host.run({ type: 'RECONNECT', walletId, namespace: 'solana', connectorId }).then(() => {}),
      watchSent: (chainId, hash) => this.#transactions.watch(chainId, hash),
    }
  }

  /** Keeps the root's universal-link flow in its store while resumable (once that part loaded). */
  persistLink(actor: ClientActor): void {
    const part = this.#loaders.linkPart
    const store = this.#loaders.options.universalLink?.store
    if (!part || this.#stopPersisting) return
    if (store) this.#stopPersisting = part.persist(actor, store)
    else
      void this.linkStore().then((s) => {
        if (this.#host.actor === actor && !this.#stopPersisting)
          this.#stopPersisting = part.persist(actor, s)
      })
  }

  /** Stops persisting the current root's flows (it is being replaced). */
  stopPersisting(): void {
    this.#stopPersisting?.()
    this.#stopPersisting = null
    this.#paired.stopPersisting()
  }

  /** The universal-link store: the option, else the browser one (loaded on first use). */
  async linkStore(): Promise<UniversalLinkStore> {
    const store = this.#loaders.options.universalLink?.store
    return (
      store ?? (await import('../universal-link/browser-store')).createBrowserUniversalLinkStore()
    )
  }

  /** The connection store: the option, else the browser one (loaded on first use); null: none. */
  #connectionStore(): Promise<ConnectionStore | null> {
    const option = this.#loaders.options.connectionStore
    this.#connections ??=
      option !== undefined
        ? Promise.resolve(option)
        : import('../connection/browser-store').then((m) => m.createBrowserConnectionStore())
    return this.#connections
  }

  /** Keeps the current desktop connection in the connection store (when it changed). */
  rememberConnection(actor: ClientActor): void {
    const view = clientView(actor.getSnapshot())
    const connection = actor.getSnapshot().context.connection
    if (!view.isConnected || !connection || view.connectorKind !== 'wallet') return
    // On a phone only a WalletConnect session comes back (sign-client keeps it); the other mobile
    // paths resume their own way (universal links, Phantom's deeplinks, the relay pairing).
    if (isMobile(this.#loaders.options) && connection.connectorId !== 'walletconnect') return
    const record: StoredConnection = {
      format: CONNECTION_STORE_FORMAT,
      formatVersion: CONNECTION_STORE_FORMAT_VERSION,
      connectorId: connection.connectorId,
      // A connector that serves many wallets (WalletConnect) names none: the one selected.
      walletId: connection.walletId ?? view.walletId,
      namespace: connection.namespace,
      chainId: connection.chainId as Caip2ChainId,
      account: connection.accounts[0] ?? '',
    }
    const saved = JSON.stringify(record)
    if (saved === this.#savedConnection) return
    this.#savedConnection = saved
    void this.#connectionStore().then((store) => store?.save(record))
  }

  /** Forgets the stored desktop connection (`disconnect()`, a failed reconnect). */
  async forgetConnection(): Promise<void> {
    this.#savedConnection = null
    ;(await this.#connectionStore())?.clear()
  }
}
