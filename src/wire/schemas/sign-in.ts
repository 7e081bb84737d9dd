/** POST /sign-in/nonce and POST /sign-in/verify: Sign-In with Ethereum (EIP-4361) and with Solana. */
import * as z from 'zod/mini'
import { Caip2Schema, EpochMsSchema } from '../primitives'

/** The longest sign-in text the backend reads (characters). */
export const SIGN_IN_MESSAGE_MAX_LENGTH = 16_384

/** The answer of `POST /sign-in/nonce`: a single-use nonce and when it lapses (ms epoch). */
export const SignInNonceResponseSchema = /* @__PURE__ */ z.object({
  nonce: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[a-zA-Z0-9]{8,128}$/)),
  expiresAt: EpochMsSchema,
})
/** `POST /sign-in/nonce` answer. */
export type SignInNonceResponse = z.infer<typeof SignInNonceResponseSchema>

/** The body of `POST /sign-in/verify`: the signed text and the wallet's signature. */
export const SignInVerifyRequestSchema = /* @__PURE__ */ z.object({
  message: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(SIGN_IN_MESSAGE_MAX_LENGTH)),
  signature: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(8192)),
})
/** `POST /sign-in/verify` body. */
export type SignInVerifyRequest = z.infer<typeof SignInVerifyRequestSchema>

/**
 * The verified sign-in the backend answers: who signed (`address` on `chainId`, CAIP-2), for which
 * site (`domain`, `uri`), with which single-use `nonce`, the message's times and when the backend
 * verified it (ms epoch). `kind` says how: `eoa` (EIP-191 or ed25519 recovery) or `contract`
 * (ERC-1271, or ERC-6492 for a wallet not deployed yet).
 */
export const SignInRecordSchema = /* @__PURE__ */ z.object({
  address: /* @__PURE__ */ z.string(),
  chainId: Caip2Schema,
  domain: /* @__PURE__ */ z.string(),
  uri: /* @__PURE__ */ z.string(),
  nonce: /* @__PURE__ */ z.string(),
  statement: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  issuedAt: /* @__PURE__ */ z.string(),
  expirationTime: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  notBefore: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  requestId: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
  resources: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
  kind: /* @__PURE__ */ z.enum(['eoa', 'contract']),
  verifiedAt: EpochMsSchema,
})
/** The verified sign-in record (`POST /sign-in/verify`, `client.signIn()`). */
export type SignInRecord = z.infer<typeof SignInRecordSchema>
