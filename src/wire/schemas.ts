import * as z from 'zod/mini'
import {
  AddressSchema,
  Caip2Schema,
  DecimalStringSchema,
  DecimalsSchema,
  EpochMsSchema,
  SessionIdSchema,
  SignatureSchema,
  WalletSlugSchema,
} from './primitives'

// ---- GET /balances -------------------------------------------------------------------------------

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

// ---- GET /config ---------------------------------------------------------------------------------

export const NamespaceSchema = z.enum(['eip155', 'solana'])

export const NetworkEntrySchema = z.object({
  networkId: Caip2Schema,
  namespace: NamespaceSchema,
  name: z.string(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: DecimalsSchema }),
  testnet: z.boolean(),
})
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>

export const WalletEntrySchema = z.object({
  walletId: WalletSlugSchema,
  name: z.string(),
  namespaces: z.array(NamespaceSchema),
})
export type WalletEntry = z.infer<typeof WalletEntrySchema>

export const ConfigResponseSchema = z.object({
  projectId: z.string(),
  name: z.string(),
  networks: z.array(NetworkEntrySchema),
  wallets: z.array(WalletEntrySchema),
})
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>

// ---- sessions ------------------------------------------------------------------------------------

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

// ---- wallet callbacks ----------------------------------------------------------------------------

export const ConnectCallbackSchema = z.strictObject({
  sessionId: SessionIdSchema,
  walletSlug: WalletSlugSchema,
  caip2Chain: Caip2Schema,
  walletAddress: AddressSchema,
})
export type ConnectCallback = z.infer<typeof ConnectCallbackSchema>

export const SignCallbackSchema = z.strictObject({
  sessionId: SessionIdSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
  /** Solana: the base58 public key that signed; must equal the connected address. */
  publicKey: z.optional(AddressSchema),
})
export type SignCallback = z.infer<typeof SignCallbackSchema>

export const TransactionCallbackSchema = z.strictObject({
  sessionId: SessionIdSchema,
  txSignature: SignatureSchema,
})
export type TransactionCallback = z.infer<typeof TransactionCallbackSchema>

export const RejectCallbackSchema = z.strictObject({
  sessionId: SessionIdSchema,
  /** `USER_REJECTED` when the user declined; any other upper-case code is a wallet failure. */
  errorCode: z.string().check(z.regex(/^[A-Z][A-Z0-9_]{0,63}$/)),
})
export type RejectCallback = z.infer<typeof RejectCallbackSchema>

// ---- relay ---------------------------------------------------------------------------------------

export const RelayTokenResponseSchema = z.object({
  token: z.string().check(z.minLength(16)),
  expiresAt: EpochMsSchema,
})
export type RelayTokenResponse = z.infer<typeof RelayTokenResponseSchema>
