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

/**
 * The body of POST `/callback/connect`: session id, wallet slug, CAIP-2 chain and wallet address.
 */
export const ConnectCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  walletSlug: WalletSlugSchema,
  caip2Chain: Caip2Schema,
  walletAddress: AddressSchema,
})
/** The body of POST `/callback/connect` (`ConnectCallbackSchema`). */
export type ConnectCallback = z.infer<typeof ConnectCallbackSchema>

/**
 * The body of POST `/callback/sign`: session id, signature, timestamp and, for Solana, the public
 * key.
 */
export const SignCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  signature: SignatureSchema,
  timestamp: EpochMsSchema,
  /** Solana: the base58 public key that signed; must equal the connected address. */
  publicKey: /* @__PURE__ */ z.optional(AddressSchema),
})
/** The body of POST `/callback/sign` (`SignCallbackSchema`). */
export type SignCallback = z.infer<typeof SignCallbackSchema>

/** The body of POST `/callback/transaction`: session id and transaction signature. */
export const TransactionCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  txSignature: SignatureSchema,
})
/** The body of POST `/callback/transaction` (`TransactionCallbackSchema`). */
export type TransactionCallback = z.infer<typeof TransactionCallbackSchema>

/** The body of POST `/callback/reject`: session id and error code. */
export const RejectCallbackSchema = /* @__PURE__ */ z.strictObject({
  sessionId: SessionIdSchema,
  /** `USER_REJECTED` when the user declined; any other upper-case code is a wallet failure. */
  errorCode: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[A-Z][A-Z0-9_]{0,63}$/)),
})
/** The body of POST `/callback/reject` (`RejectCallbackSchema`). */
export type RejectCallback = z.infer<typeof RejectCallbackSchema>
