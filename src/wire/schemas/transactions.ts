/** GET /transactions: the query and the answer (a transaction's status, read by the backend). */
import * as z from 'zod/mini'
import { Caip2Schema, DecimalStringSchema } from '../primitives'

/** An EVM transaction hash (0x + 64 hex) or a Solana transaction signature (base58). */
export const TransactionHashSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/))

/** Query string of GET /transactions (`waitMs` is read by the long-poll, as on the result route). */
/** The query string of `GET /transactions`: the chain (CAIP-2) and the hash or signature. */
export const TransactionQuerySchema = /* @__PURE__ */ z.object({
  chainId: Caip2Schema,
  hash: TransactionHashSchema,
})
/** `GET /transactions` query, as parsed. */
export type TransactionQueryWire = z.infer<typeof TransactionQuerySchema>

/**
 * `pending`: the node holds it, not yet in a block. `confirmed` / `reverted`: in block
 * `blockNumber`, with `confirmations` blocks on top (1 = the head). `unknown`: the node does not
 * know it (not broadcast yet, dropped, or replaced: then `replacedBy` names the transaction that
 * took its sender and nonce).
 */
export const TRANSACTION_STATUSES = ['pending', 'confirmed', 'reverted', 'unknown'] as const
/** One of `TRANSACTION_STATUSES`. */
export const TransactionStatusSchema = /* @__PURE__ */ z.enum(TRANSACTION_STATUSES)
/** `pending` | `confirmed` | `reverted` | `unknown` (see `TRANSACTION_STATUSES`). */
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>

/** The answer of `GET /transactions` (docs/backend.md, "Transactions"). */
export const TransactionStatusResponseSchema = /* @__PURE__ */ z.object({
  chainId: Caip2Schema,
  hash: TransactionHashSchema,
  status: TransactionStatusSchema,
  blockNumber: /* @__PURE__ */ z.optional(DecimalStringSchema),
  confirmations: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0)),
  ),
  replacedBy: /* @__PURE__ */ z.optional(TransactionHashSchema),
  /** `reverted` only, when the node tells why (an `Error(string)` reason). */
  revertReason: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
})
/** The answer of `GET /transactions`, as parsed. */
export type TransactionStatusResponse = z.infer<typeof TransactionStatusResponseSchema>
