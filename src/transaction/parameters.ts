import * as z from 'zod/mini'
import {
  Base64Schema,
  Caip2Schema,
  EvmAddressSchema,
  HexDataSchema,
  QuantitySchema,
} from '../wire/primitives'

/**
 * The longest serialized Solana transaction `sendTransaction` takes, in base64 characters (a
 * transaction is at most 1,232 bytes today; this leaves room for larger ones).
 */
export const SOLANA_TRANSACTION_MAX_LENGTH = 8192

/** The most calls of one EIP-5792 batch. */
export const TRANSACTION_CALLS_MAX = 100

const quantity = /* @__PURE__ */ z.optional(QuantitySchema)
const to = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(EvmAddressSchema))
const data = /* @__PURE__ */ z.optional(HexDataSchema)

/** One call of a batch: `to` an address (or null), `value` a non-negative bigint, `data` hex. */
export const TransactionCallSchema = /* @__PURE__ */ z.object({ to, value: quantity, data })

/**
 * `SendTransactionParameters` as `sendTransaction` and `toTransactionRequestData` take them:
 * `value`, `gas` and the fee fields non-negative bigints (below 2^256), `to` an EVM address or
 * null, `data` hex of whole bytes, `nonce` a safe non-negative integer, `calls` 1 to
 * `TRANSACTION_CALLS_MAX` calls, `transaction` base64 (at most `SOLANA_TRANSACTION_MAX_LENGTH`),
 * `chainId` CAIP-2, `confirmations` a positive integer. Unknown keys are ignored.
 */
export const SendTransactionParametersSchema = /* @__PURE__ */ z.object({
  to,
  value: quantity,
  data,
  gas: quantity,
  gasPrice: quantity,
  maxFeePerGas: quantity,
  maxPriorityFeePerGas: quantity,
  nonce: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0))),
  calls: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z
      .array(TransactionCallSchema)
      .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(TRANSACTION_CALLS_MAX)),
  ),
  transaction: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ Base64Schema.check(/* @__PURE__ */ z.maxLength(SOLANA_TRANSACTION_MAX_LENGTH)),
  ),
  chainId: /* @__PURE__ */ z.optional(Caip2Schema),
  confirmations: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(1)),
  ),
})

/** The connection `toTransactionRequestData` builds for: its namespace, accounts and chain. */
export const TransactionConnectionSchema = /* @__PURE__ */ z.object({
  namespace: /* @__PURE__ */ z.string(),
  accounts: /* @__PURE__ */ z.array(/* @__PURE__ */ z.string()),
  chainId: Caip2Schema,
})
