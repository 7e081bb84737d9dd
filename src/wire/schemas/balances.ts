/** GET /balances: the query and the answer. */
import * as z from 'zod/mini'
import { AddressSchema, Caip2Schema, DecimalStringSchema, DecimalsSchema } from '../primitives'

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
