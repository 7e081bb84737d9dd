// The chunk the client loads with the first transaction, by dynamic import: the transaction
// machine, the wallet side and the backend's status reader stay out of the `Client` entry.

import type { OperationOutcome } from '../../../machines/client/client.types'
import { toAppError } from '../../../machines/shared/error-data'
import { provideTransaction } from '../../../machines/transaction/transaction.actors'
import {
  DEFAULT_TRANSACTION_TIMEOUTS,
  type TransactionDeadlines,
  type TransactionInput,
  type TransactionTimeouts,
} from '../../../machines/transaction/transaction.types'
import type { IWalletConnector, WalletConnection } from '../../connectors/types'
import { AppError } from '../../errors/app-error'
import type { FetchLike } from '../../http/client'
import {
  evmTransactionObject,
  requireConnectionChain,
  toTransactionRequestData,
} from '../../transaction/request-data'
import { sendThroughConnector } from '../../transaction/send'
import { createTransactionStatusReader } from '../../transaction/status-reader'
import {
  parseTransactionRecord,
  readTransactionHistory,
  rememberSettledTransaction,
  type SettledTransaction,
  TRANSACTION_RECORD_FORMAT,
  TRANSACTION_RECORD_VERSION,
} from '../../transaction/store'
import type {
  SendTransactionParameters,
  TransactionHandle,
  TransactionReceiptSummary,
} from '../../transaction/types'
import type { ClientLoaders } from '../environment'
import type { ClientTransactions } from '../transactions'

export { createBrowserTransactionStore } from '../../transaction/store'

/**
 * The machine's input for a transaction the wallet already sent (over the relay, or stored before
 * a reload): it starts watching, its deadlines counted from `now` unless given.
 */
function watchInput(
  submitted: { chainId: string; hash: string },
  confirmations: number,
  timeouts: Partial<TransactionTimeouts> | undefined,
  now: number,
  deadlines?: TransactionDeadlines,
): Omit<TransactionInput, 'flow'> {
  const merged = { ...DEFAULT_TRANSACTION_TIMEOUTS, ...timeouts }
  return {
    request: null,
    confirmations,
    ...(timeouts ? { timeouts } : {}),
    submitted: {
      ...submitted,
      deadlines: deadlines ?? {
        wallet: null,
        receipt: now + merged.receiptMs,
        notSeen: now + merged.notSeenMs,
      },
    },
  }
}

export interface ClientTransactionOptions {
  baseUrl: string
  appKey: string
  fetchImpl?: FetchLike
  /** The connector the wallet is asked through (the Client's current one). */
  connector: () => IWalletConnector | null
  now?: () => number
}

/** The transaction machine bound to the Client's connector and the backend. */
function createClientTransaction(options: ClientTransactionOptions) {
  const readStatus = createTransactionStatusReader({
    baseUrl: options.baseUrl,
    appKey: options.appKey,
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
  })
  return provideTransaction({
    ...(options.now ? { now: options.now } : {}),
    readStatus,
    send: (request, signal) => {
      const connector = options.connector()
      if (!connector) throw new AppError('NOT_CONNECTED', 'No wallet to send the transaction.')
      return sendThroughConnector(connector, request, signal)
    },
  })
}

/** Puts the transaction machine, bound to the client's connector and backend, in the root's place. */
export function bindTransaction(loaders: ClientLoaders): void {
  const { baseUrl, appKey, fetchImpl } = loaders.options
  loaders.transactionLogic.set(
    createClientTransaction({
      baseUrl,
      appKey,
      ...(fetchImpl ? { fetchImpl } : {}),
      connector: () => loaders.connector,
      now: loaders.now,
    }),
  )
}

/** `Client.sendTransaction` once the parameters are checked and a connection is there. */
export async function sendTransaction(
  transactions: ClientTransactions,
  params: SendTransactionParameters,
  connection: WalletConnection,
): Promise<TransactionHandle> {
  const { host, loaders } = transactions
  const request = toTransactionRequestData(params, connection)
  const settings = loaders.options.transactions
  const confirmations = params.confirmations ?? settings?.confirmations ?? 1
  const paired = transactions.paired()
  if (paired) {
    if (request.transaction !== null || request.calls.length !== 1) {
      throw new AppError('INVALID_CONFIG', 'Over the relay: one EVM call per transaction.')
    }
    // The paired session's own flow asks the wallet (cancel() → ABORTED); then it is watched.
    const hash = await paired.request<string>({
      method: 'eth_sendTransaction',
      params: [evmTransactionObject(request)],
      chainId: request.chainId,
    })
    return watchSent(transactions, request.chainId, hash, confirmations)
  }
  requireConnectionChain(request, connection)
  if (host.actor.getSnapshot().matches('link')) {
    if (request.transaction === null) {
      throw new AppError(
        'INVALID_CONFIG',
        'Over a universal link: a serialized Solana transaction.',
      )
    }
    // The link flow opens the wallet (intent `transaction`, cancel() → ABORTED); the wallet
    // sends it and answers `/callback/transaction` with its signature, which is then watched.
    const hash = await host.signOverLink('solana_signAndSendTransaction', request.transaction)
    return watchSent(transactions, request.chainId, hash, confirmations)
  }
  // The wallet's answer is bounded by `timeouts.walletAnswerMs` unless `transactions.timeouts` sets it.
  const walletAnswerMs = loaders.options.timeouts?.walletAnswerMs
  const timeouts =
    walletAnswerMs === undefined ? settings?.timeouts : { walletAnswerMs, ...settings?.timeouts }
  const outcome: OperationOutcome = await host.run({
    type: 'SEND_TRANSACTION',
    input: { request, confirmations, ...(timeouts ? { timeouts } : {}) },
  })
  return handle(transactions, request.chainId, outcome.signature ?? '')
}

/** Watches a transaction a flow sent (relay, universal link, Phantom link) until its receipt. */
export function watchTransaction(
  transactions: ClientTransactions,
  chainId: string,
  hash: string,
): TransactionHandle {
  const confirmations = transactions.loaders.options.transactions?.confirmations ?? 1
  return watchSent(transactions, chainId, hash, confirmations)
}

/** Watches a transaction a flow of the root sent (relay or universal link) until its receipt. */
function watchSent(
  transactions: ClientTransactions,
  chainId: string,
  hash: string,
  confirmations: number,
): TransactionHandle {
  const { loaders } = transactions
  transactions.host.live().send({
    type: 'WATCH_TRANSACTION',
    input: watchInput(
      { chainId, hash },
      confirmations,
      loaders.options.transactions?.timeouts,
      loaders.now(),
    ),
  })
  return handle(transactions, chainId, hash)
}

/**
 * `Client.resumeTransaction`: the stored transaction, watched again; null when none. Refused while
 * the wallet is asked for a transaction: its child would be replaced, the hash it answers lost.
 */
export function resumeTransaction(transactions: ClientTransactions): TransactionHandle | null {
  const { store, loaders } = transactions
  const view = transactions.host.view()
  if (view.isBusy && view.transaction?.stage === 'awaitingWallet') {
    throw new AppError(
      'WALLET_BUSY',
      'The wallet is asked for a transaction: one at a time. Resume once getView().isBusy is false.',
    )
  }
  // What a custom store answers is checked too: a record with a garbage hash is not watched.
  const record = parseTransactionRecord(store?.load() ?? null)
  if (!record) {
    store?.clear()
    return null
  }
  if (record.deadlines.receipt !== null && record.deadlines.receipt <= Date.now()) {
    store?.clear()
    return null
  }
  transactions.storedTransaction = record.hash
  transactions.host.live().send({
    type: 'WATCH_TRANSACTION',
    input: watchInput(
      record,
      record.confirmations,
      loaders.options.transactions?.timeouts,
      loaders.now(),
      record.deadlines,
    ),
  })
  return handle(transactions, record.chainId, record.hash)
}

/** The handle of the transaction `hash`: `wait()` follows the root's `transaction` child. */
function handle(
  transactions: ClientTransactions,
  chainId: string,
  hash: string,
): TransactionHandle {
  let settled: Promise<TransactionReceiptSummary> | undefined
  return {
    chainId,
    hash,
    wait: () => {
      settled ??= waitForReceipt(transactions, hash)
      return settled
    },
  }
}

function waitForReceipt(
  transactions: ClientTransactions,
  hash: string,
): Promise<TransactionReceiptSummary> {
  return new Promise((resolve, reject) => {
    let subscription: { unsubscribe(): void } | undefined
    const check = (): boolean => {
      const snapshot = transactions.child()?.getSnapshot()
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
    const actor = transactions.host.actor
    subscription = actor.subscribe({
      next: () => {
        if (check()) subscription?.unsubscribe()
      },
      error: () => {
        reject(new AppError('ABORTED', 'The client stopped.'))
      },
    })
    // Child snapshots do not always change the root's: follow the child itself too.
    const own = transactions.child()?.subscribe({
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
 * The store side of `ClientTransactions.keep`: keeps the root's transaction while it waits for its
 * receipt (saved once per transaction), forgets it once settled and keeps it in the history.
 */
export function keepStored(
  transactions: ClientTransactions,
  child: ReturnType<ClientTransactions['child']>,
): void {
  const store = transactions.store
  if (!store) return
  const snapshot = child?.getSnapshot()
  const waiting = snapshot?.status === 'active' && snapshot.hasTag('resumable')
  if (waiting && snapshot.context.hash !== null) {
    if (transactions.storedTransaction === snapshot.context.hash) return
    store.save({
      format: TRANSACTION_RECORD_FORMAT,
      formatVersion: TRANSACTION_RECORD_VERSION,
      chainId: snapshot.context.chainId,
      hash: snapshot.context.hash,
      confirmations: snapshot.context.confirmationsWanted,
      deadlines: { ...snapshot.context.deadlines },
      savedAt: Date.now(),
    })
    transactions.storedTransaction = snapshot.context.hash
  } else if (snapshot?.status === 'done') {
    if (transactions.storedTransaction === snapshot.context.hash) {
      store.clear()
      transactions.storedTransaction = null
    }
    rememberSettledTransaction(store, snapshot.output, Date.now())
  }
}

/** `Client.recentTransactions`: the store's history, newest first. */
export function recentTransactions(transactions: ClientTransactions): SettledTransaction[] {
  return readTransactionHistory(transactions.store ?? null)
}
