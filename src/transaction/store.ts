import * as z from 'zod/mini'
import type { TransactionDeadlines } from '../../machines/transaction/transaction.types'
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

/** Where `Client` keeps the transaction in flight (default: `localStorage` in a page). */
export type TransactionStore = RecordStore<TransactionRecord>

const time = /* @__PURE__ */ z.nullable(
  /* @__PURE__ */ z.number().check(
    /* @__PURE__ */ z.gte(0),
    /* @__PURE__ */ z.refine((value) => Number.isFinite(value)),
  ),
)

/** A transaction hash as the wallet answers it: 32 bytes of hex (EVM) or a base58 signature (Solana). */
export function isTransactionHash(chainId: string, hash: string): boolean {
  return chainId.startsWith('solana:')
    ? /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(hash)
    : /^0x[0-9a-fA-F]{64}$/.test(hash)
}

const TransactionRecordSchema = /* @__PURE__ */ z
  .object({
    format: /* @__PURE__ */ z.literal(TRANSACTION_RECORD_FORMAT),
    formatVersion: /* @__PURE__ */ z.literal(TRANSACTION_RECORD_VERSION),
    /** CAIP-2. */
    chainId: /* @__PURE__ */ z
      .string()
      .check(/* @__PURE__ */ z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/)),
    hash: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(100)),
    confirmations: /* @__PURE__ */ z
      .int()
      .check(/* @__PURE__ */ z.gte(1), /* @__PURE__ */ z.lte(1_000)),
    deadlines: /* @__PURE__ */ z.object({ wallet: time, receipt: time, notSeen: time }),
    savedAt: /* @__PURE__ */ z.number().check(
      /* @__PURE__ */ z.gte(0),
      /* @__PURE__ */ z.refine((value) => Number.isFinite(value)),
    ),
  })
  .check(
    /* @__PURE__ */ z.refine((record) => isTransactionHash(record.chainId, record.hash), {
      message: 'not a transaction hash of its chain',
      path: ['hash'],
    }),
  )

/**
 * A stored value as a record of this version, or null (anything else is not resumed): the format,
 * a CAIP-2 chain, a hash of that chain (32 bytes of hex, or a base58 signature), confirmations,
 * deadlines and the time it was saved, each of its type. Never throws; unknown keys are dropped.
 */
export function parseTransactionRecord(value: unknown): TransactionRecord | null {
  const parsed = TransactionRecordSchema.safeParse(value)
  return parsed.success ? (parsed.data as TransactionRecord) : null
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
  return createMemoryRecordStore(parseTransactionRecord, 'transaction record')
}
