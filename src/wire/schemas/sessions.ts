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

export const SESSION_INTENTS = ['connect', 'sign', 'transaction'] as const
export const SessionIntentSchema = /* @__PURE__ */ z.enum(SESSION_INTENTS)
/** What a session is for: `connect`, `sign` or `transaction`. */
export type SessionIntent = z.infer<typeof SessionIntentSchema>

export const SESSION_STATUSES = [
  'pending',
  'connected',
  'signed',
  'rejected',
  'failed',
  'expired',
] as const
export const SessionStatusSchema = /* @__PURE__ */ z.enum(SESSION_STATUSES)
/** A session status: `pending`, `connected`, `signed`, `rejected`, `failed` or `expired`. */
export type SessionStatus = z.infer<typeof SessionStatusSchema>

export const CreateSessionRequestSchema = /* @__PURE__ */ z.strictObject({
  caip2Chain: Caip2Schema,
  walletSlug: /* @__PURE__ */ z.optional(WalletSlugSchema),
  intent: /* @__PURE__ */ z.optional(SessionIntentSchema),
})
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>

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
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>

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
export type SessionResult = z.infer<typeof SessionResultSchema>

/** GET /sessions/{id}/result: the result plus when the session expires. */
export const SessionResultResponseSchema = /* @__PURE__ */ z.extend(SessionResultSchema, {
  expiresAt: EpochMsSchema,
})
export type SessionResultResponse = z.infer<typeof SessionResultResponseSchema>

export const VerifyRequestSchema = /* @__PURE__ */ z.strictObject({
  walletAddress: AddressSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
})
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>
