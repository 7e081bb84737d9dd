import type { ActorRefFrom, Subscription } from 'xstate'
import type { ClientActor } from '../../machines/client/client.facade'
import type { OperationOutcome } from '../../machines/client/client.types'
import type { PairingHandle } from '../../machines/pairing/pairing.facade'
import { toAppError } from '../../machines/shared/error-data'
import type { TransactionMachine } from '../../machines/transaction/transaction.machine'
import type { WalletConnection } from '../connectors/types'
import { AppError } from '../errors/app-error'
import type { SettledTransaction, TransactionStore } from '../transaction/store'
import type {
  SendTransactionParameters,
  TransactionHandle,
  TransactionReceiptSummary,
} from '../transaction/types'
import type { ClientLoaders } from './environment'
import { childOf, type RootHost } from './host'

type TransactionPart = typeof import('./lazy/transaction')

type TransactionActor = ActorRefFrom<TransactionMachine>

/** The root's `transaction` child (spawned by `SEND_TRANSACTION` / `WATCH_TRANSACTION`), if any. */
function transactionChild(root: ClientActor): TransactionActor | undefined {
  return childOf(root, 'transaction') as TransactionActor | undefined
}

/** Solana tools emit standard base64; a universal link carries base64url. */
export function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * The Client's transactions: `sendTransaction` over the route the connection takes, the handles
 * whose `wait()` follows the root's `transaction` child, and the transaction store that keeps the
 * one waiting for its receipt across a reload (`resumeTransaction`).
 */
export class ClientTransactions {
  readonly #host: RootHost
  readonly #loaders: ClientLoaders
  /** The paired session's flow while the root is in its relay flow, else null. */
  readonly #paired: () => PairingHandle | null
  #store: TransactionStore | null | undefined
  /** The hash last written to the transaction store (saved once per transaction). */
  #storedTransaction: string | null = null
  /** The root's `transaction` child this client follows (its changes reach the view's listeners). */
  #child: TransactionActor | null = null
  #follow: Subscription | null = null

  constructor(host: RootHost, loaders: ClientLoaders, paired: () => PairingHandle | null) {
    this.#host = host
    this.#loaders = loaders
    this.#paired = paired
  }

  /** Loads the transaction part once (a dynamic import): its machine, then the store. */
  async load(): Promise<TransactionPart> {
    const part = await this.#loaders.loadTransaction()
    if (this.#store === undefined) {
      const option = this.#loaders.options.transactions?.store
      this.#store = option === undefined ? part.createBrowserTransactionStore() : option
    }
    return part
  }

  /** `Client.sendTransaction` once the parameters are checked and a connection is there. */
  async send(
    params: SendTransactionParameters,
    connection: WalletConnection,
  ): Promise<TransactionHandle> {
    const part = await this.load()
    const request = part.toTransactionRequestData(params, connection)
    const { options } = this.#loaders
    const settings = options.transactions
    const confirmations = params.confirmations ?? settings?.confirmations ?? 1
    const paired = this.#paired()
    if (paired) {
      if (request.transaction !== null || request.calls.length !== 1) {
        throw new AppError('INVALID_CONFIG', 'Over the relay: one EVM call per transaction.')
      }
      // The paired session's own flow asks the wallet (cancel() → ABORTED); then it is watched.
      const hash = await paired.request<string>({
        method: 'eth_sendTransaction',
        params: [part.evmTransactionObject(request)],
        chainId: request.chainId,
      })
      return this.watchSent(part, request.chainId, hash, confirmations)
    }
    part.requireConnectionChain(request, connection)
    if (this.#host.actor.getSnapshot().matches('link')) {
      if (request.transaction === null) {
        throw new AppError(
          'INVALID_CONFIG',
          'Over a universal link: a serialized Solana transaction.',
        )
      }
      // The link flow opens the wallet (intent `transaction`, cancel() → ABORTED); the wallet
      // sends it and answers `/callback/transaction` with its signature, which is then watched.
      const hash = await this.#host.sign({
        request: {
          method: 'solana_signAndSendTransaction',
          params: { transaction: request.transaction },
        },
        link: { method: 'signTransaction', payload: toBase64Url(request.transaction) },
      })
      return this.watchSent(part, request.chainId, hash, confirmations)
    }
    // The wallet's answer is bounded by `timeouts.walletAnswerMs` unless `transactions.timeouts` sets it.
    const walletAnswerMs = options.timeouts?.walletAnswerMs
    const timeouts =
      walletAnswerMs === undefined ? settings?.timeouts : { walletAnswerMs, ...settings?.timeouts }
    const outcome: OperationOutcome = await this.#host.run({
      type: 'SEND_TRANSACTION',
      input: { request, confirmations, ...(timeouts ? { timeouts } : {}) },
    })
    return this.handle(request.chainId, outcome.signature ?? '')
  }

  /** Watches a transaction a flow sent (relay, universal link, Phantom link) until its receipt. */
  async watch(chainId: string, hash: string): Promise<TransactionHandle> {
    const confirmations = this.#loaders.options.transactions?.confirmations ?? 1
    return this.watchSent(await this.load(), chainId, hash, confirmations)
  }

  /** Watches a transaction a flow of the root sent (relay or universal link) until its receipt. */
  watchSent(
    part: TransactionPart,
    chainId: string,
    hash: string,
    confirmations: number,
  ): TransactionHandle {
    this.#host.live().send({
      type: 'WATCH_TRANSACTION',
      input: part.watchInput(
        { chainId, hash },
        confirmations,
        this.#loaders.options.transactions?.timeouts,
        this.#loaders.now(),
      ),
    })
    return this.handle(chainId, hash)
  }

  /** `Client.resumeTransaction`: the stored transaction, watched again; null when none. */
  async resume(): Promise<TransactionHandle | null> {
    const part = await this.load()
    // What a custom store answers is checked too: a record with a garbage hash is not watched.
    const record = part.parseTransactionRecord(this.#store?.load() ?? null)
    if (!record) {
      this.#store?.clear()
      return null
    }
    if (record.deadlines.receipt !== null && record.deadlines.receipt <= Date.now()) {
      this.#store?.clear()
      return null
    }
    this.#storedTransaction = record.hash
    this.#host.live().send({
      type: 'WATCH_TRANSACTION',
      input: part.watchInput(
        record,
        record.confirmations,
        this.#loaders.options.transactions?.timeouts,
        this.#loaders.now(),
        record.deadlines,
      ),
    })
    return this.handle(record.chainId, record.hash)
  }

  /** `Client.recentTransactions`: the store's history, newest first. */
  async recent(): Promise<SettledTransaction[]> {
    const part = await this.load()
    return part.readTransactionHistory(this.#store ?? null)
  }

  /** The handle of the transaction `hash`: `wait()` follows the root's `transaction` child. */
  handle(chainId: string, hash: string): TransactionHandle {
    let settled: Promise<TransactionReceiptSummary> | undefined
    return {
      chainId,
      hash,
      wait: () => {
        settled ??= this.#wait(hash)
        return settled
      },
    }
  }

  #wait(hash: string): Promise<TransactionReceiptSummary> {
    return new Promise((resolve, reject) => {
      let subscription: { unsubscribe(): void } | undefined
      const check = (): boolean => {
        const snapshot = transactionChild(this.#host.actor)?.getSnapshot()
        if (!snapshot || snapshot.context.hash !== hash) {
          reject(new AppError('ABORTED', 'Another transaction replaced this one.'))
          return true
        }
        if (snapshot.status !== 'done' || !snapshot.output) return false
        const summary = snapshot.output
        if (summary.outcome === 'confirmed') {
          resolve({
            status: 'confirmed',
            chainId: summary.chainId,
            hash,
            blockNumber: BigInt(summary.blockNumber ?? '0'),
            confirmations: summary.confirmations,
          })
        } else {
          const error = summary.error ?? {
            code: 'TRANSACTION_DROPPED' as const,
            message: `The transaction ended ${summary.outcome}.`,
          }
          reject(
            summary.replacedBy
              ? new AppError(error.code, error.message, {
                  details: [{ field: 'replacedBy', reason: summary.replacedBy }],
                })
              : toAppError(error),
          )
        }
        return true
      }
      if (check()) return
      const actor = this.#host.actor
      subscription = actor.subscribe({
        next: () => {
          if (check()) subscription?.unsubscribe()
        },
        error: () => {
          reject(new AppError('ABORTED', 'The client stopped.'))
        },
      })
      // Child snapshots do not always change the root's: follow the child itself too.
      const own = transactionChild(actor)?.subscribe({
        next: () => {
          if (check()) {
            own?.unsubscribe()
            subscription?.unsubscribe()
          }
        },
        complete: () => {
          check()
          subscription?.unsubscribe()
        },
        error: () => {
          reject(new AppError('ABORTED', 'The transaction watcher stopped.'))
        },
      })
    })
  }

  /**
   * Follows the root's `transaction` child (a spawned child's changes do not change the root's
   * snapshot): the view's listeners hear each of them, and the store keeps the transaction while
   * it waits for its receipt, forgets it once settled and keeps it in its history.
   */
  keep(): void {
    const child = transactionChild(this.#host.actor)
    if ((child ?? null) !== this.#child) {
      this.#follow?.unsubscribe()
      this.#child = child ?? null
      const changed = () => {
        this.#host.notify()
        this.keep()
      }
      this.#follow = child?.subscribe({ next: changed, complete: changed, error: () => {} }) ?? null
    }
    const store = this.#store
    if (!store) return
    const snapshot = child?.getSnapshot()
    const waiting = snapshot?.status === 'active' && snapshot.hasTag('resumable')
    if (waiting && snapshot.context.hash !== null) {
      if (this.#storedTransaction === snapshot.context.hash) return
      const part = this.#loaders.transactionPart
      if (!part) return
      store.save({
        format: part.TRANSACTION_RECORD_FORMAT,
        formatVersion: part.TRANSACTION_RECORD_VERSION,
        chainId: snapshot.context.chainId,
        hash: snapshot.context.hash,
        confirmations: snapshot.context.confirmationsWanted,
        deadlines: { ...snapshot.context.deadlines },
        savedAt: Date.now(),
      })
      this.#storedTransaction = snapshot.context.hash
    } else if (snapshot?.status === 'done') {
      if (this.#storedTransaction === snapshot.context.hash) {
        store.clear()
        this.#storedTransaction = null
      }
      this.#loaders.transactionPart?.rememberSettledTransaction(store, snapshot.output, Date.now())
    }
  }
}
