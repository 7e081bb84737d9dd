/** GET /balances: the query and the answer. */
import * as z from 'zod/mini'
import { AddressSchema, Caip2Schema, DecimalStringSchema, DecimalsSchema } from '../primitives'

/** Query string of GET /balances (all values arrive as strings). */
export const BalanceQuerySchema = z.object({
  chainId: Caip2Schema,
  /** `native`, an EVM token contract or a Solana mint. */
  tokenAddress: z.string().check(z.regex(/^(native|[A-Za-z0-9]{20,128})$/)),
  account: AddressSchema,
  decimals: z.optional(
    z.string().check(z.regex(/^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/)),
  ),
})
export type BalanceQueryWire = z.infer<typeof BalanceQuerySchema>

export const BalanceResponseSchema = z.object({
  chainId: Caip2Schema,
  tokenAddress: z.string(),
  account: z.string(),
  raw: DecimalStringSchema,
  decimals: DecimalsSchema,
  blockNumber: z.optional(DecimalStringSchema),
})
export type BalanceResponse = z.infer<typeof BalanceResponseSchema>
