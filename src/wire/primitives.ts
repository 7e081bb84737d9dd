import * as z from 'zod/mini'
import { CAIP2_PATTERN, SESSION_ID_PATTERN } from './patterns'

/** CAIP-2: `namespace:reference`, e.g. `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
export const Caip2Schema = z.string().check(z.regex(CAIP2_PATTERN))

/** Session ids are 16+ random bytes as base64url. */
export const SessionIdSchema = z.string().check(z.regex(SESSION_ID_PATTERN))

/** An address of any supported namespace (EVM hex or Solana base58); the server checks the format per chain. */
export const AddressSchema = z.string().check(z.regex(/^[A-Za-z0-9]{20,128}$/))

export const WalletSlugSchema = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/))

/** Milliseconds since the epoch. */
export const EpochMsSchema = z.int().check(z.gte(0))

/** A non-negative integer written in decimal (balances exceed 2^53). */
export const DecimalStringSchema = z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/))

export const DecimalsSchema = z.int().check(z.gte(0), z.lte(255))

/** EVM hex signature or Solana base58/base64 signature. */
export const SignatureSchema = z.string().check(z.regex(/^[A-Za-z0-9+/=x_-]{16,1024}$/))
