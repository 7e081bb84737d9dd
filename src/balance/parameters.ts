import * as z from 'zod/mini'
import { AddressSchema, Caip2Schema, DecimalsSchema } from '../wire/primitives'
import { BalancesQueryItemSchema } from '../wire/schemas/balances'

/**
 * A `getBalance` query: `chainId` CAIP-2, `tokenAddress` `native` or a token address (20 to 128
 * letters and digits), `account` an address of any namespace, `decimals` an integer 0..255 when
 * given. The backend checks the formats per chain (`UNSUPPORTED_CHAIN`, `RPC_ERROR`).
 */
export const TokenBalanceQuerySchema = /* @__PURE__ */ z.object({
  chainId: Caip2Schema,
  tokenAddress: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.regex(/^(native|[A-Za-z0-9]{20,128})$/)),
  account: AddressSchema,
  decimals: /* @__PURE__ */ z.optional(DecimalsSchema),
})

/**
 * The queries of `getBalances`: an array of objects of strings (as POST /balances carries them,
 * `BalancesQueryItemSchema`). A field in the wrong format is that query's own `failure`, never
 * the whole call's.
 */
export const TokenBalanceQueriesSchema = /* @__PURE__ */ z.array(BalancesQueryItemSchema)
