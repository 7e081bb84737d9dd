import type { SessionIntent, SessionResult } from '../wire/schemas'

/** A backend session, as `createSession` returns it. */
export interface GenericSession {
  sessionId: string
  /** Server-issued nonce the wallet signs (inside `buildSignedMessageEnvelope`). */
  nonce: string
  /** Bearer token for `getResult` / `verify`. A secret: never log it or put it in analytics. */
  sessionToken: string
  /** When the backend expires the session (ms since the epoch, server clock). */
  expiresAt: number
}

/**
 * The session result: `status` (`pending` → `connected` → `signed`; terminal also `rejected`,
 * `failed`, `expired`) with the `connected`/`signed` flags mirroring it. `getResult` adds `expiresAt`.
 */
export interface GenericSessionResult extends SessionResult {
  expiresAt?: number
}

/** Options of `GenericWalletSessionClient.createSession`: the wallet slug and the intent. */
export interface CreateSessionOptions {
  /** The wallet the session is meant for, e.g. `phantom`. */
  walletSlug?: string
  /** What the session will record; default `connect`. */
  intent?: SessionIntent
}

/** Options of `new GenericWalletSessionClient(baseUrl, clientId, options)`: an injected fetch and a timeout. */
export interface GenericWalletSessionOptions {
  /** Injected fetch for tests or non-browser hosts; defaults to `globalThis.fetch`. */
  fetchImpl?: typeof fetch
  /** Per-request timeout; default 10 000 ms. */
  timeoutMs?: number
}

/** Body of `postConnect`: the wallet reports the connected account. */
export interface PostConnectBody {
  sessionId: string
  walletSlug: string
  caip2Chain: string
  walletAddress: string
}

/** Body of `postSignMsg`: the wallet reports its signature over the envelope. */
export interface PostSignMsgBody {
  sessionId: string
  signature: string
  timestamp: number
  /** Solana: the base58 public key that signed. */
  publicKey?: string
}

/** Body of `postTransaction`. */
export interface PostTransactionBody {
  sessionId: string
  txSignature: string
}

/** Body of `postReject`: `USER_REJECTED`, or another upper-case code for a wallet failure. */
export interface PostRejectBody {
  sessionId: string
  errorCode: string
}

/** Body of `verify`: the dApp-side EVM `personal_sign` over the envelope. */
export interface VerifySessionBody {
  walletAddress: string
  signature: string
  timestamp: number
}

export type { SessionIntent, SessionStatus } from '../wire/schemas'
