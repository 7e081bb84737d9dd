import type { TransactionDeadlines } from '../../machines/transaction/transaction.types'
import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import type { UniversalLinkStore } from '../universal-link/store'

/** The `format` of a stored `TransactionRecord`. */
export const TRANSACTION_RECORD_FORMAT = 'scope-connect/transaction'
/** The `formatVersion` of a stored `TransactionRecord`: another one is not resumed. */
export const TRANSACTION_RECORD_VERSION = 1
/** The localStorage key `createBrowserTransactionStore` uses by default. */
export const DEFAULT_TRANSACTION_STORAGE_KEY = 'scope-connect:transaction'

/**
 * A sent transaction still waiting for its receipt, as kept across a reload: what the transaction
 * machine needs to pick it up (`submitted`), nothing secret (a hash is public).
 */
export interface TransactionRecord {
  format: typeof TRANSACTION_RECORD_FORMAT
  formatVersion: typeof TRANSACTION_RECORD_VERSION
  chainId: string
  hash: string
  confirmations: number
  deadlines: TransactionDeadlines
  savedAt: number
}

/** Where `Client` keeps the transaction in flight (default: `localStorage` in a page). */
export type TransactionStore = UniversalLinkStore<TransactionRecord>

const isTime = (value: unknown) => value === null || (typeof value === 'number' && value >= 0)

/** A stored value as a record of this version, or null (anything else is not resumed). */
export function parseTransactionRecord(value: unknown): TransactionRecord | null {
  const record = value as Partial<TransactionRecord> | null
  if (!record || typeof record !== 'object') return null
  if (record.format !== TRANSACTION_RECORD_FORMAT) return null
  if (record.formatVersion !== TRANSACTION_RECORD_VERSION) return null
  if (typeof record.chainId !== 'string' || typeof record.hash !== 'string') return null
  if (typeof record.confirmations !== 'number' || typeof record.savedAt !== 'number') return null
  const deadlines = record.deadlines as Partial<TransactionDeadlines> | undefined
  if (!deadlines || !isTime(deadlines.wallet) || !isTime(deadlines.receipt)) return null
  if (!isTime(deadlines.notSeen)) return null
  return record as TransactionRecord
}

const log = /* @__PURE__ */ createLogger('transaction-store')

/** A `TransactionStore` on `localStorage` (nothing kept where there is none). Never throws. */
export function createBrowserTransactionStore(
  storageKey: string = DEFAULT_TRANSACTION_STORAGE_KEY,
): TransactionStore {
  return createLocalStorageRecord({
    storageKey,
    parse: parseTransactionRecord,
    log,
    what: 'transaction record',
  })
}

/** A `TransactionStore` in memory (tests, or to share one between two clients of a process). */
export function createMemoryTransactionStore(): TransactionStore {
  let kept: string | null = null
  return {
    save: (record) => {
      kept = JSON.stringify(record)
    },
    load: () => (kept === null ? null : parseTransactionRecord(JSON.parse(kept))),
    clear: () => {
      kept = null
    },
  }
}
