/** Generic wallet sessions: create, result, verify. */
import * as z from 'zod/mini'
import {
  AddressSchema,
  Caip2Schema,
  EpochMsSchema,
  SessionIdSchema,
  SignatureSchema,
  WalletSlugSchema,
} from '../primitives'

/** What a session can be for: `connect`, `sign`, `transaction`. */
export const SESSION_INTENTS = ['connect', 'sign', 'transaction'] as const
/** A session intent (one of `SESSION_INTENTS`). */
export const SessionIntentSchema = /* @__PURE__ */ z.enum(SESSION_INTENTS)
/** What a session is for: `connect`, `sign` or `transaction`. */
export type SessionIntent = z.infer<typeof SessionIntentSchema>

/** Every status a session can have, `pending` first. */
export const SESSION_STATUSES = [
  'pending',
  'connected',
  'signed',
  'rejected',
  'failed',
  'expired',
] as const
/** A session status (one of `SESSION_STATUSES`). */
export const SessionStatusSchema = /* @__PURE__ */ z.enum(SESSION_STATUSES)
/** A session status: `pending`, `connected`, `signed`, `rejected`, `failed` or `expired`. */
export type SessionStatus = z.infer<typeof SessionStatusSchema>

/**
 * The body of POST `/sessions`: the CAIP-2 chain, and optionally the wallet slug and the intent.
 */
export const CreateSessionRequestSchema = /* @__PURE__ */ z.strictObject({
  caip2Chain: Caip2Schema,
  walletSlug: /* @__PURE__ */ z.optional(WalletSlugSchema),
  intent: /* @__PURE__ */ z.optional(SessionIntentSchema),
})
/** The body of POST `/sessions` (`CreateSessionRequestSchema`). */
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>

/** The answer of POST `/sessions`: session id, nonce, session token and expiry. */
export const CreateSessionResponseSchema = /* @__PURE__ */ z.object({
  sessionId: SessionIdSchema,
  nonce: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(16), /* @__PURE__ */ z.maxLength(128)),
  sessionToken: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(32), /* @__PURE__ */ z.maxLength(128)),
  expiresAt: EpochMsSchema,
})
/** The answer of POST `/sessions` (`CreateSessionResponseSchema`). */
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>

/**
 * A session's result: status, whether it connected and signed, the address, signatures and error
 * code.
 */
export const SessionResultSchema = /* @__PURE__ */ z.object({
  sessionId: SessionIdSchema,
  status: SessionStatusSchema,
  connected: /* @__PURE__ */ z.boolean(),
  signed: /* @__PURE__ */ z.boolean(),
  walletAddress: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  signature: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  txSignature: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  errorCode: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
})
/** A session's result (`SessionResultSchema`). */
export type SessionResult = z.infer<typeof SessionResultSchema>

/** GET /sessions/{id}/result: the result plus when the session expires. */
export const SessionResultResponseSchema = /* @__PURE__ */ z.extend(SessionResultSchema, {
  expiresAt: EpochMsSchema,
})
/** The answer of GET `/sessions/{id}/result` (`SessionResultResponseSchema`). */
export type SessionResultResponse = z.infer<typeof SessionResultResponseSchema>

/**
 * The body of POST `/sessions/{id}/verify`: the wallet address, its signature over the envelope and
 * the timestamp signed.
 */
export const VerifyRequestSchema = /* @__PURE__ */ z.strictObject({
  walletAddress: AddressSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
})
/** The body of POST `/sessions/{id}/verify` (`VerifyRequestSchema`). */
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>
