import type { ActorRefFrom } from 'xstate'
import type { PairingHandle } from '../../machines/pairing/pairing.facade'
import type { TransactionMachine } from '../../machines/transaction/transaction.machine'
import type { WalletConnection } from '../connectors/types'
import type { SettledTransaction, TransactionStore } from '../transaction/store'
import type { SendTransactionParameters, TransactionHandle } from '../transaction/types'
import type { ClientLoaders } from './environment'
import { childOf, type RootHost } from './host'

type TransactionPart = typeof import('./lazy/transaction')

type TransactionActor = ActorRefFrom<TransactionMachine>

/**
 * The Client's transactions: `sendTransaction` over the route the connection takes, the handles
 * whose `wait()` follows the root's `transaction` child, and the transaction store that keeps the
 * one waiting for its receipt across a reload (`resumeTransaction`). What each call does is in the
 * transaction chunk (src/client/lazy/transaction.ts), loaded first.
 */
export class ClientTransactions {
  readonly host: RootHost
  readonly loaders: ClientLoaders
  /** The paired session's flow while the root is in its relay flow, else null. */
  readonly paired: () => PairingHandle | null
  /** The transaction store, once the part loaded (null: none). */
  store: TransactionStore | null | undefined
  /** The hash last written to the transaction store (saved once per transaction). */
  storedTransaction: string | null = null

  constructor(host: RootHost, loaders: ClientLoaders, paired: () => PairingHandle | null) {
    this.host = host
    this.loaders = loaders
    this.paired = paired
  }

  /** Loads the transaction part once (a dynamic import): its machine, then the store. */
  async load(): Promise<TransactionPart> {
    const part = await this.loaders.loadTransaction()
    if (this.store === undefined) {
      const option = this.loaders.options.transactions?.store
      this.store = option === undefined ? part.createBrowserTransactionStore() : option
    }
    return part
  }

  /** `Client.sendTransaction` once the parameters are checked and a connection is there. */
  async send(
    params: SendTransactionParameters,
    connection: WalletConnection,
  ): Promise<TransactionHandle> {
    return (await this.load()).sendTransaction(this, params, connection)
  }

  /** Watches a transaction a flow sent (relay, universal link, Phantom link) until its receipt. */
  async watch(chainId: string, hash: string): Promise<TransactionHandle> {
    return (await this.load()).watchTransaction(this, chainId, hash)
  }

  /** `Client.resumeTransaction`: the stored transaction, watched again; null when none. */
  async resume(): Promise<TransactionHandle | null> {
    return (await this.load()).resumeTransaction(this)
  }

  /** `Client.recentTransactions`: the store's history, newest first. */
  async recent(): Promise<SettledTransaction[]> {
    return (await this.load()).recentTransactions(this)
  }

  /** The root's `transaction` child (spawned by `SEND_TRANSACTION` / `WATCH_TRANSACTION`), if any. */
  child(): TransactionActor | undefined {
    return childOf(this.host.actor, 'transaction') as TransactionActor | undefined
  }

  /**
   * At each change of the root: the store keeps the transaction while it waits for its receipt
   * and forgets it once settled (once the part loaded). The child's changes reach the root (it
   * reports by snapshot), so the view's listeners hear them with the root's.
   */
  keep(): void {
    this.loaders.transactionPart?.keepStored(this, this.child())
  }
}
