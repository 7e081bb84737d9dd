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

/**
 * Options of the wallet callbacks (`postConnect`, `postSignMsg`, `postTransaction`, `postReject`).
 */
export interface CallbackOptions {
  /**
   * The session's nonce, from the universal link's `scNonce`; sent as `X-Session-Nonce`. The
   * backend binds callbacks to it: without it (or with another) it answers 404
   * `SESSION_NOT_FOUND`, exactly as for an unknown session.
   */
  nonce?: string
}

/** Options of `GenericWalletSessionClient.watchResult`. */
export interface WatchResultOptions {
  /** The `etag` of the last answer: the backend waits only while the session still matches it. */
  etag?: string
  /** How long the backend may hold the request, 0..25 000 ms (capped); default 0 (answer at once). */
  waitMs?: number
  /** Aborts the request (e.g. when the flow is cancelled). */
  signal?: AbortSignal
}

/** What `watchResult` resolves with: a new state, or "unchanged" (HTTP 304). */
export type WatchedResult =
  | {
      changed: true
      result: GenericSessionResult
      /** The tag of this state; pass it back as `etag` to wait for the next change. */
      etag: string | undefined
      /** The longest wait the backend offers; undefined: it does not long-poll. */
      longPollMaxMs: number | undefined
    }
  | { changed: false; etag: string | undefined; longPollMaxMs: number | undefined }

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
