/** GET /balances (one query) and POST /balances (a batch): queries and answers. */
import * as z from 'zod/mini'
import {
  AddressSchema,
  Caip2Schema,
  DecimalStringSchema,
  DecimalsSchema,
  lengthAtMost,
} from '../primitives'

/** Query string of GET /balances (all values arrive as strings). */
export const BalanceQuerySchema = /* @__PURE__ */ z.object({
  chainId: Caip2Schema,
  /** `native`, an EVM token contract or a Solana mint. */
  tokenAddress: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.regex(/^(native|[A-Za-z0-9]{20,128})$/)),
  account: AddressSchema,
  decimals: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z
      .string()
      .check(/* @__PURE__ */ z.regex(/^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/)),
  ),
})
/**
 * The query string of GET `/balances` as sent: chain, token, account and optional decimals, all
 * strings.
 */
export type BalanceQueryWire = z.infer<typeof BalanceQuerySchema>

/**
 * The answer of GET `/balances`: chain, token, account, the raw balance as a decimal string,
 * decimals and block.
 */
export const BalanceResponseSchema = /* @__PURE__ */ z.object({
  chainId: Caip2Schema,
  tokenAddress: /* @__PURE__ */ z.string(),
  account: /* @__PURE__ */ z.string(),
  raw: DecimalStringSchema,
  decimals: DecimalsSchema,
  blockNumber: /* @__PURE__ */ z.optional(DecimalStringSchema),
})
/** The answer of GET `/balances` (`BalanceResponseSchema`). */
export type BalanceResponse = z.infer<typeof BalanceResponseSchema>

/** The most queries one POST /balances carries; the library splits longer lists. */
export const BALANCES_BATCH_MAX = 100

/**
 * One query of POST /balances, checked only for shape: a field in the wrong format (an address
 * the chain refuses, decimals out of range) is that item's own error, never the batch's.
 */
export const BalancesQueryItemSchema = /* @__PURE__ */ z.object({
  chainId: /* @__PURE__ */ z.string().check(/* @__PURE__ */ lengthAtMost(64)),
  tokenAddress: /* @__PURE__ */ z.string().check(/* @__PURE__ */ lengthAtMost(128)),
  account: /* @__PURE__ */ z.string().check(/* @__PURE__ */ lengthAtMost(128)),
  decimals: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number()),
})
/** One query of POST /balances (`BalancesQueryItemSchema`). */
export type BalancesQueryItem = z.infer<typeof BalancesQueryItemSchema>

/** Body of POST /balances: 1..100 queries of any chains, answered in this order. */
export const BalancesRequestSchema = /* @__PURE__ */ z.object({
  queries: /* @__PURE__ */ z
    .array(BalancesQueryItemSchema)
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(BALANCES_BATCH_MAX)),
})
/** Body of POST /balances (`BalancesRequestSchema`). */
export type BalancesRequest = z.infer<typeof BalancesRequestSchema>

/** A query of a batch that could not be answered: the code and message GET /balances would give. */
export const BalanceItemErrorSchema = /* @__PURE__ */ z.object({
  chainId: /* @__PURE__ */ z.string(),
  tokenAddress: /* @__PURE__ */ z.string(),
  account: /* @__PURE__ */ z.string(),
  error: /* @__PURE__ */ z.object({
    code: /* @__PURE__ */ z.string(),
    message: /* @__PURE__ */ z.string(),
  }),
})
/** A batch item that could not be answered (`BalanceItemErrorSchema`). */
export type BalanceItemError = z.infer<typeof BalanceItemErrorSchema>

/** Answer of POST /balances: one entry per query, in query order. */
export const BalancesResponseSchema = /* @__PURE__ */ z.object({
  balances: /* @__PURE__ */ z.array(
    // The balance first: most entries are one, and a union stops at its first match.
    /* @__PURE__ */ z.union([BalanceResponseSchema, BalanceItemErrorSchema]),
  ),
})
/** Answer of POST /balances (`BalancesResponseSchema`). */
export type BalancesResponse = z.infer<typeof BalancesResponseSchema>
