import type { TransactionStatus } from '../../src/wire/schemas/transactions'
import type { ErrorData } from '../shared/error-data'

/** One EVM call, JSON-safe: quantities as 0x-hex (as EIP-1193 wallets take them). */
export interface EvmCallData {
  to: string | null
  value: string | null
  data: string | null
}

/**
 * What the wallet is asked to send, JSON-safe. EVM: one call (`eth_sendTransaction`) with its
 * gas and fee fields, or several (`wallet_sendCalls`, EIP-5792); Solana: a serialized
 * transaction (base64) for `signAndSendTransaction`.
 */
export interface TransactionRequestData {
  /** CAIP-2 chain the transaction is for. */
  chainId: string
  /** The sending account (the connected one). */
  from: string
  calls: EvmCallData[]
  /** Gas and fee fields of a single EVM call (0x-hex quantities), as given. */
  fields: { [name: string]: string }
  /** Solana: the serialized transaction, base64. */
  transaction: string | null
}

/** Named timeouts of a transaction (ms). */
export interface TransactionTimeouts {
  /** The wallet's answer (signed and broadcast, or refused). Default 300 000. */
  walletAnswerMs: number
  /** From the wallet's answer to the wanted confirmations. Default 1 800 000 (30 min). */
  receiptMs: number
  /** A hash the node never shows (not even pending) is dropped after this. Default 120 000. */
  notSeenMs: number
  /** The first wait after a failed status read; doubled each time, at most 30 s. Default 1 000. */
  retryMs: number
}

/** The transaction flow's named timeouts unless `transactions.timeouts` overrides them. */
export const DEFAULT_TRANSACTION_TIMEOUTS: TransactionTimeouts = {
  walletAnswerMs: 300_000,
  receiptMs: 1_800_000,
  notSeenMs: 120_000,
  retryMs: 1_000,
}

/** Status reads that may fail in a row before the transaction fails with the last error. */
export const MAX_STATUS_FAILURES = 5

/** When each wait ends (ms since the epoch), kept in context so a resumed machine keeps them. */
export interface TransactionDeadlines {
  wallet: number | null
  receipt: number | null
  notSeen: number | null
}

/** The backend's last answer about the transaction (GET /transactions) and its entity tag. */
export interface StatusRead {
  status: TransactionStatus
  blockNumber: string | null
  confirmations: number
  replacedBy: string | null
  revertReason: string | null
  etag: string | null
}

/** What a transaction flow starts from: the request or the hash to watch, confirmations, deadlines. */
export interface TransactionInput {
  /** What to send; null when resuming a transaction the wallet already sent (`submitted`). */
  request: TransactionRequestData | null
  /** Confirmations to wait for; default 1 (in the head block). */
  confirmations?: number
  timeouts?: Partial<TransactionTimeouts>
  /** The root's flow number when the root runs it (in its snapshot, which the root reads). */
  flow?: number | null
  /** Resume: the hash the wallet answered, its chain and the deadlines already running. */
  submitted?: { chainId: string; hash: string; deadlines: TransactionDeadlines } | null
}

/** The transaction machine's context: its input, the hash, the stage reached and the receipt. */
export interface TransactionContext {
  request: TransactionRequestData | null
  chainId: string
  flow: number | null
  confirmationsWanted: number
  timeouts: TransactionTimeouts
  deadlines: TransactionDeadlines
  /** The hash (EVM) or signature (Solana) the wallet answered. */
  hash: string | null
  /** The backend's last answer, null before the first. */
  read: StatusRead | null
  /** The node showed the transaction pending once: its disappearance means dropped. */
  seenPending: boolean
  /** Status reads failed in a row. */
  failures: number
  error: ErrorData | null
}

/** Events of the transaction machine (`CANCEL`, and what its actors report). */
export type TransactionEvent =
  /** Gives up while the wallet is asked: `ABORTED`. */
  { type: 'CANCEL' }

/** Where a transaction ended. */
export type TransactionOutcome =
  | 'confirmed'
  | 'reverted'
  | 'replaced'
  | 'dropped'
  | 'rejected'
  | 'failed'
  | 'aborted'

/** The machine's output: the receipt summary `wait()` settles with. */
export interface TransactionSummary {
  outcome: TransactionOutcome
  chainId: string
  hash: string | null
  blockNumber: string | null
  confirmations: number
  replacedBy: string | null
  revertReason: string | null
  error: ErrorData | null
}

/** Input of the `readStatus` actor: one (long-polled) GET /transactions. */
export interface ReadStatusInput {
  chainId: string
  hash: string
  /** The answer held: the read waits for a different one (`If-None-Match`). */
  last: StatusRead | null
}
