/** The wallet's callbacks: connect, sign, transaction, reject. */
import * as z from 'zod/mini'
import {
  AddressSchema,
  Caip2Schema,
  EpochMsSchema,
  SessionIdSchema,
  SignatureSchema,
  WalletSlugSchema,
} from '../primitives'

export const ConnectCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  walletSlug: WalletSlugSchema,
  caip2Chain: Caip2Schema,
  walletAddress: AddressSchema,
})
export type ConnectCallback = z.infer<typeof ConnectCallbackSchema>

export const SignCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
  /** Solana: the base58 public key that signed; must equal the connected address. */
  publicKey: /* @__PURE__ */ z.optional(AddressSchema),
})
export type SignCallback = z.infer<typeof SignCallbackSchema>

export const TransactionCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  txSignature: SignatureSchema,
})
export type TransactionCallback = z.infer<typeof TransactionCallbackSchema>

export const RejectCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  /** `USER_REJECTED` when the user declined; any other upper-case code is a wallet failure. */
  errorCode: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[A-Z][A-Z0-9_]{0,63}$/)),
})
export type RejectCallback = z.infer<typeof RejectCallbackSchema>
