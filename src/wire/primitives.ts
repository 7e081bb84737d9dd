import * as z from 'zod/mini'
import {
  BASE64_PATTERN,
  CAIP2_PATTERN,
  EVM_ADDRESS_PATTERN,
  HEX_DATA_PATTERN,
  SESSION_ID_PATTERN,
} from './patterns'

/** CAIP-2: `namespace:reference`, e.g. `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
export const Caip2Schema = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(CAIP2_PATTERN))

/** Session ids are 16+ random bytes as base64url. */
export const SessionIdSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(SESSION_ID_PATTERN))

/** An address of any supported namespace (EVM hex or Solana base58); the server checks the format per chain. */
export const AddressSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[A-Za-z0-9]{20,128}$/))

/**
 * A wallet slug: lower-case letters, digits and dashes, 1 to 64 characters (`phantom`, `metamask`).
 */
export const WalletSlugSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/))

/** Milliseconds since the epoch. */
export const EpochMsSchema = /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0))

/** A non-negative integer written in decimal (balances exceed 2^53). */
export const DecimalStringSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^(0|[1-9][0-9]{0,77})$/))

/**
 * `z.int().check(z.gte(minimum), z.lte(maximum))` as one check on a number, raising the same issues:
 * `z.int()` is a type of its own in zod/mini and each bound a class (0.4 KB gzip of the balance
 * reader together), this check nearly nothing. The server's OpenAPI document still says
 * `type: integer` with the bounds (server/src/openapi/document.ts).
 */
function integerBetween(minimum: number, maximum: number) {
  return z.check<number>((payload) => {
    const input = payload.value
    if (!Number.isInteger(input)) {
      payload.issues.push({
        code: 'invalid_type',
        expected: 'int',
        format: 'safeint',
        input,
        continue: false,
      })
      return
    }
    const bound = (origin: 'int' | 'number', low: number, high: number, note?: string) => {
      const common = {
        origin,
        input,
        inclusive: true,
        continue: true,
        ...(note && { note }),
      } as const
      if (input < low) payload.issues.push({ code: 'too_small', minimum: low, ...common })
      if (input > high) payload.issues.push({ code: 'too_big', maximum: high, ...common })
    }
    const note = 'Integers must be within the safe integer range.'
    if (!Number.isSafeInteger(input))
      bound('int', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, note)
    bound('number', minimum, maximum)
  })
}

/** Token decimals: an integer from 0 to 255. */
export const DecimalsSchema = /* @__PURE__ */ z
  .number()
  .check(/* @__PURE__ */ integerBetween(0, 255))

/** EVM hex signature or Solana base58/base64 signature. */
export const SignatureSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[A-Za-z0-9+/=x_-]{16,1024}$/))

/** An EVM address: `0x` and 40 hex digits (`EVM_ADDRESS_PATTERN`). */
export const EvmAddressSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(EVM_ADDRESS_PATTERN))

/** Hex data: `0x` and whole bytes (`HEX_DATA_PATTERN`); `0x` is empty data. */
export const HexDataSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(HEX_DATA_PATTERN))

/** Standard base64 (`BASE64_PATTERN`), e.g. a serialized Solana transaction. */
export const Base64Schema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(BASE64_PATTERN))

/** The largest EVM quantity (a 256-bit word). */
export const UINT256_MAX = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffn

/** An EVM quantity (wei, gas, fees) as a bigint: 0 to 2^256 - 1. */
export const QuantitySchema = /* @__PURE__ */ z
  .bigint()
  .check(/* @__PURE__ */ z.gte(0n), /* @__PURE__ */ z.lte(UINT256_MAX))

/** zod's length checks run on anything with a `length`, even after a wrong type (their `when`). */
const hasLength = (payload: z.core.ParsePayload): boolean => {
  const value = payload.value as { length?: unknown } | null | undefined
  return value != null && value.length !== undefined
}

const lengthOrigin = (input: unknown) =>
  Array.isArray(input) ? 'array' : typeof input === 'string' ? 'string' : 'unknown'

/**
 * `z.maxLength(maximum)` (a string counted in code points) as a plain check, with the issue it
 * raises (see `integerBetween`).
 */
export function lengthAtMost(maximum: number) {
  return z.check<string>(
    (payload) => {
      const input = payload.value
      const units = input.length
      const length = typeof input === 'string' && units > maximum ? [...input].length : units
      if (length <= maximum) return
      payload.issues.push({
        origin: lengthOrigin(input),
        code: 'too_big',
        maximum,
        inclusive: true,
        input,
        continue: true,
      })
    },
    { when: hasLength },
  )
}

/** `z.minLength(1)` as a plain check, with the issue it raises (see `integerBetween`). */
export const nonEmptyCheck = /* @__PURE__ */ z.check<unknown[]>(
  (payload) => {
    const input = payload.value
    if (input.length >= 1) return
    payload.issues.push({
      origin: lengthOrigin(input),
      code: 'too_small',
      minimum: 1,
      inclusive: true,
      input,
      continue: true,
    })
  },
  { when: hasLength },
)
