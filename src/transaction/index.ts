/** Transactions through the Client: parameters, handle, receipt summary, the stores and the backend reader. */
export { toTransactionRequestData } from './request-data'
export { createTransactionStatusReader, type TransactionStatusReaderOptions } from './status-reader'
export {
  createBrowserTransactionStore,
  createMemoryTransactionStore,
  DEFAULT_TRANSACTION_STORAGE_KEY,
  parseTransactionHistory,
  parseTransactionRecord,
  type SettledTransaction,
  TRANSACTION_RECORD_FORMAT,
  TRANSACTION_RECORD_VERSION,
  type TransactionHistoryRecord,
  type TransactionRecord,
  type TransactionStore,
} from './store'
export type {
  SendTransactionParameters,
  TransactionCall,
  TransactionHandle,
  TransactionReceiptSummary,
} from './types'
