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
export const SessionIntentSchema = z.enum(SESSION_INTENTS)
export type SessionIntent = z.infer<typeof SessionIntentSchema>

export const SESSION_STATUSES = [
  'pending',
  'connected',
  'signed',
  'rejected',
  'failed',
  'expired',
] as const
export const SessionStatusSchema = z.enum(SESSION_STATUSES)
export type SessionStatus = z.infer<typeof SessionStatusSchema>

export const CreateSessionRequestSchema = z.strictObject({
  caip2Chain: Caip2Schema,
  walletSlug: z.optional(WalletSlugSchema),
  intent: z.optional(SessionIntentSchema),
})
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>

export const CreateSessionResponseSchema = z.object({
  sessionId: SessionIdSchema,
  nonce: z.string().check(z.minLength(16), z.maxLength(128)),
  sessionToken: z.string().check(z.minLength(32), z.maxLength(128)),
  expiresAt: EpochMsSchema,
})
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>

export const SessionResultSchema = z.object({
  sessionId: SessionIdSchema,
  status: SessionStatusSchema,
  connected: z.boolean(),
  signed: z.boolean(),
  walletAddress: z.nullable(z.string()),
  signature: z.nullable(z.string()),
  txSignature: z.nullable(z.string()),
  errorCode: z.nullable(z.string()),
})
export type SessionResult = z.infer<typeof SessionResultSchema>

/** GET /sessions/{id}/result: the result plus when the session expires. */
export const SessionResultResponseSchema = z.object({
  ...SessionResultSchema.shape,
  expiresAt: EpochMsSchema,
})
export type SessionResultResponse = z.infer<typeof SessionResultResponseSchema>

export const VerifyRequestSchema = z.strictObject({
  walletAddress: AddressSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
})
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>
