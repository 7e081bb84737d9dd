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

/** Token decimals: an integer from 0 to 255. */
export const DecimalsSchema = /* @__PURE__ */ z
  .int()
  .check(/* @__PURE__ */ z.gte(0), /* @__PURE__ */ z.lte(255))

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
