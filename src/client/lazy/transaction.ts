// The chunk the client loads with the first transaction, by dynamic import: the transaction
// machine, the wallet side and the backend's status reader stay out of the `Client` entry.
import { provideTransaction } from '../../../machines/transaction/transaction.actors'
import {
  DEFAULT_TRANSACTION_TIMEOUTS,
  type TransactionDeadlines,
  type TransactionInput,
  type TransactionTimeouts,
} from '../../../machines/transaction/transaction.types'
import type { IWalletConnector } from '../../connectors/types'
import { AppError } from '../../errors/app-error'
import type { FetchLike } from '../../http/client'
import { sendThroughConnector } from '../../transaction/send'
import { createTransactionStatusReader } from '../../transaction/status-reader'

export {
  evmTransactionObject,
  requireConnectionChain,
  toTransactionRequestData,
} from '../../transaction/request-data'
export {
  createBrowserTransactionStore,
  parseTransactionRecord,
  readTransactionHistory,
  rememberSettledTransaction,
  TRANSACTION_RECORD_FORMAT,
  TRANSACTION_RECORD_VERSION,
} from '../../transaction/store'

/**
 * The machine's input for a transaction the wallet already sent (over the relay, or stored before
 * a reload): it starts watching, its deadlines counted from `now` unless given.
 */
export function watchInput(
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
export function createClientTransaction(options: ClientTransactionOptions) {
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
