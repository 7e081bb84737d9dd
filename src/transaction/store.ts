import * as z from 'zod/mini'
import type {
  TransactionDeadlines,
  TransactionOutcome,
  TransactionSummary,
} from '../../machines/transaction/transaction.types'
import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import {
  createMemoryRecordStore,
  type RecordEnvelope,
  type RecordStore,
} from '../storage/record-store'

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
export interface TransactionRecord extends RecordEnvelope {
  format: typeof TRANSACTION_RECORD_FORMAT
  formatVersion: typeof TRANSACTION_RECORD_VERSION
  chainId: string
  hash: string
  confirmations: number
  deadlines: TransactionDeadlines
  savedAt: number
}

/** The `format` of a stored `TransactionHistoryRecord`. */
export const TRANSACTION_HISTORY_FORMAT = 'scope-connect/transaction-history'
/** How many settled transactions a history keeps, newest first. */
export const TRANSACTION_HISTORY_LENGTH = 10

/** A transaction that ended after the wallet sent it (it has a hash), as a history lists it. */
export interface SettledTransaction {
  chainId: string
  hash: string
  outcome: TransactionOutcome
  /** The receipt's block (decimal), when the chain answered one (confirmed, reverted). */
  blockNumber: string | null
  /** Milliseconds since the epoch. */
  settledAt: number
}

/** The settled transactions a `TransactionStore` keeps, newest first (`Client.recentTransactions()`). */
export interface TransactionHistoryRecord extends RecordEnvelope {
  format: typeof TRANSACTION_HISTORY_FORMAT
  formatVersion: 1
  transactions: SettledTransaction[]
}

/**
 * Where `Client` keeps the transaction in flight (default: `localStorage` in a page), and, in
 * `history`, the transactions that settled: a plain `RecordStore<TransactionRecord>` keeps no history.
 */
export interface TransactionStore extends RecordStore<TransactionRecord> {
  history?: RecordStore<TransactionHistoryRecord>
}

/** Milliseconds since the epoch. */
const timestamp = /* @__PURE__ */ z.number().check(
  /* @__PURE__ */ z.gte(0),
  /* @__PURE__ */ z.refine((value) => Number.isFinite(value)),
)
const time = /* @__PURE__ */ z.nullable(timestamp)

/** A transaction hash's text (what it is, per chain: `hashOfItsChain`). */
const hash = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(100))

/** A CAIP-2 chain id. */
const caip2ChainId = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/))

/** A transaction hash as the wallet answers it: 32 bytes of hex (EVM) or a base58 signature (Solana). */
export function isTransactionHash(chainId: string, hash: string): boolean {
  return chainId.startsWith('solana:')
    ? /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(hash)
    : /^0x[0-9a-fA-F]{64}$/.test(hash)
}

/** The check that a record's `hash` is a transaction hash of its `chainId`. */
function hashOfItsChain() {
  return z.refine<{ chainId: string; hash: string }>(
    (record) => isTransactionHash(record.chainId, record.hash),
    {
      message: 'not a transaction hash of its chain',
      path: ['hash'],
    },
  )
}

const TransactionRecordSchema = /* @__PURE__ */ z
  .object({
    format: /* @__PURE__ */ z.literal(TRANSACTION_RECORD_FORMAT),
    formatVersion: /* @__PURE__ */ z.literal(TRANSACTION_RECORD_VERSION),
    chainId: caip2ChainId,
    hash,
    confirmations: /* @__PURE__ */ z
      .int()
      .check(/* @__PURE__ */ z.gte(1), /* @__PURE__ */ z.lte(1_000)),
    deadlines: /* @__PURE__ */ z.object({ wallet: time, receipt: time, notSeen: time }),
    savedAt: timestamp,
  })
  .check(/* @__PURE__ */ hashOfItsChain())

/**
 * A stored value as a record of this version, or null (anything else is not resumed): the format,
 * a CAIP-2 chain, a hash of that chain (32 bytes of hex, or a base58 signature), confirmations,
 * deadlines and the time it was saved, each of its type. Never throws; unknown keys are dropped.
 */
export function parseTransactionRecord(value: unknown): TransactionRecord | null {
  const parsed = TransactionRecordSchema.safeParse(value)
  return parsed.success ? (parsed.data as TransactionRecord) : null
}

const OUTCOMES: readonly TransactionOutcome[] = [
  'confirmed',
  'reverted',
  'replaced',
  'dropped',
  'rejected',
  'failed',
  'aborted',
]

const SettledTransactionSchema = /* @__PURE__ */ z
  .object({
    chainId: caip2ChainId,
    hash,
    outcome: /* @__PURE__ */ z.enum(OUTCOMES as [TransactionOutcome]),
    blockNumber: /* @__PURE__ */ z.nullable(
      /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^\d{1,20}$/)),
    ),
    settledAt: timestamp,
  })
  .check(/* @__PURE__ */ hashOfItsChain())

/**
 * A stored value as a history of this version, or null: its format and version, and the entries
 * that are settled transactions (each checked as `parseTransactionRecord` checks a record; an entry
 * that is not is dropped, the rest kept), at most `TRANSACTION_HISTORY_LENGTH`. Never throws.
 */
export function parseTransactionHistory(value: unknown): TransactionHistoryRecord | null {
  if (typeof value !== 'object' || value === null) return null
  const record = value as Partial<Record<keyof TransactionHistoryRecord, unknown>>
  if (record.format !== TRANSACTION_HISTORY_FORMAT || record.formatVersion !== 1) return null
  if (!Array.isArray(record.transactions) || typeof record.savedAt !== 'number') return null
  const transactions = record.transactions.flatMap((entry: unknown) => {
    const parsed = SettledTransactionSchema.safeParse(entry)
    return parsed.success ? [parsed.data] : []
  })
  return {
    format: TRANSACTION_HISTORY_FORMAT,
    formatVersion: 1,
    savedAt: record.savedAt,
    transactions: transactions.slice(0, TRANSACTION_HISTORY_LENGTH),
  }
}

/** `store`'s settled transactions, newest first, checked; none without a history. */
export function readTransactionHistory(store: TransactionStore | null): SettledTransaction[] {
  return parseTransactionHistory(store?.history?.load() ?? null)?.transactions ?? []
}

/**
 * Puts a transaction that ended with a hash first in `store`'s history (once: a transaction
 * already first is left), keeping the last `TRANSACTION_HISTORY_LENGTH`. The Client calls it with
 * its store behind guards (`guardClientOptions`): what an app's store throws is reported, not raised.
 */
export function rememberSettledTransaction(
  store: TransactionStore,
  summary: TransactionSummary,
  now: number,
): void {
  const { history } = store
  if (!history || summary.hash === null) return
  const kept = readTransactionHistory(store)
  if (kept[0]?.hash === summary.hash) return
  const settled: SettledTransaction = {
    chainId: summary.chainId,
    hash: summary.hash,
    outcome: summary.outcome,
    blockNumber: summary.blockNumber,
    settledAt: now,
  }
  history.save({
    format: TRANSACTION_HISTORY_FORMAT,
    formatVersion: 1,
    savedAt: now,
    transactions: [settled, ...kept.filter((t) => t.hash !== settled.hash)].slice(
      0,
      TRANSACTION_HISTORY_LENGTH,
    ),
  })
}

const log = /* @__PURE__ */ createLogger('transaction-store')

/**
 * A `TransactionStore` on `localStorage` (nothing kept where there is none), its history under
 * `<storageKey>:history`. Never throws.
 */
export function createBrowserTransactionStore(
  storageKey: string = DEFAULT_TRANSACTION_STORAGE_KEY,
): TransactionStore {
  const store: TransactionStore = createLocalStorageRecord({
    storageKey,
    parse: parseTransactionRecord,
    log,
    what: 'transaction record',
  })
  store.history = createLocalStorageRecord({
    // String(): a key that is not a string (a JS caller) must not throw here: the store never throws.
    storageKey: `${String(storageKey)}:history`,
    parse: parseTransactionHistory,
    log,
    what: 'transaction history',
  })
  return store
}

/** A `TransactionStore` in memory, history included (tests, or one store for two clients). */
export function createMemoryTransactionStore(): TransactionStore {
  const store: TransactionStore = createMemoryRecordStore(
    parseTransactionRecord,
    'transaction record',
  )
  store.history = createMemoryRecordStore(parseTransactionHistory, 'transaction history')
  return store
}
