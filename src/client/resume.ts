import type { ClientActor } from '../../machines/client/client.facade'
import { clientView } from '../../machines/client/client.view'
import type { ConnectionStore, StoredConnection } from '../connection/store'
import type { Caip2ChainId } from '../registry/types'
import type { UniversalLinkStore } from '../universal-link/store'
import type { ClientLoaders } from './environment'
import type { RootHost } from './host'
import type { ResumeResult } from './options'
import type { PairedSession } from './paired-session'
import type { ClientTransactions } from './transactions'

const _none = async () => null

/**
 * The Client's resume and persistence wiring: the stored universal-link flow (persisted while the
 * root is in it), the last desktop connection (for a silent reconnect), the paired session and
 * Phantom's deeplinks, and `resume()`, which restores whichever of them is stored.
 */
export class ClientResume {
  readonly host: RootHost
  readonly loaders: ClientLoaders
  readonly transactions: ClientTransactions
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
    this.host = host
    this.loaders = loaders
    this.transactions = transactions
    this.#paired = paired
  }

  /** `Client.resume`: see its documentation (the restoring code loads then: a dynamic import). */
  async resume(url: string | undefined): Promise<ResumeResult> {
    const { resumeClient } = await import('./lazy/resume')
    return resumeClient(
      {
        host: this.host,
        loaders: this.loaders,
        transactions: this.transactions,
        paired: this.#paired,
        resume: this,
      },
      url,
    )
  }

  /** Keeps the root's universal-link flow in its store while resumable (once that part loaded). */
  persistLink(actor: ClientActor): void {
    const part = this.loaders.linkPart
    const store = this.loaders.options.universalLink?.store
    if (!part || this.#stopPersisting) return
    if (store) this.#stopPersisting = part.persist(actor, store)
    else
      void this.linkStore().then((s) => {
        if (this.host.actor === actor && !this.#stopPersisting)
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
    const store = this.loaders.options.universalLink?.store
    return (
      store ?? (await import('../universal-link/browser-store')).createBrowserUniversalLinkStore()
    )
  }

  /** The connection store: the option, else the browser one (loaded on first use); null: none. */
  connectionStore(): Promise<ConnectionStore | null> {
    const option = this.loaders.options.connectionStore
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
    if (!view.isConnected || !connection || view.connectionKind !== 'wallet') return
    // On a phone only a WalletConnect session comes back (sign-client keeps it); the other mobile
    // paths resume their own way (universal links, Phantom's deeplinks, the relay pairing).
    if (this.loaders.isMobile() && connection.connectorId !== 'walletconnect') return
    // The format and its version as literals (`StoredConnection` types them): the constants'
    // module holds the record's parser, which loads with `resume()`.
    const record: StoredConnection = {
      format: 'scope-connect/connection',
      formatVersion: 1,
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
    void this.connectionStore().then((store) => store?.save(record))
  }

  /** Forgets the stored desktop connection (`disconnect()`, a failed reconnect). */
  async forgetConnection(): Promise<void> {
    this.#savedConnection = null
    ;(await this.connectionStore())?.clear()
  }
}
