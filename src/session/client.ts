import { normalizeBaseUrl } from '../http/base-url'
import {
  createHttpClient,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type HttpClient,
  requireNonEmpty,
} from '../http/client'
import { parseParameters } from '../wire/parse-parameters'
import {
  APP_KEY_HEADER,
  LONG_POLL_MAX_HEADER,
  LONG_POLL_MAX_MS,
  ROUTES,
  SESSION_NONCE_HEADER,
} from '../wire/routes'
import {
  CreateSessionResponseSchema,
  SessionResultResponseSchema,
  SessionResultSchema,
} from '../wire/schemas'
import {
  CALLBACK_PARAMETERS,
  CreateSessionParametersSchema,
  ResultParametersSchema,
  VerifyParametersSchema,
} from './parameters'
import type {
  CallbackOptions,
  CreateSessionOptions,
  GenericSession,
  GenericSessionResult,
  GenericWalletSessionOptions,
  PostConnectBody,
  PostRejectBody,
  PostSignMsgBody,
  PostTransactionBody,
  VerifySessionBody,
  WatchedResult,
  WatchResultOptions,
} from './types'

/** The `X-Session-Nonce` header of a callback, when the caller gave the nonce. */
const nonceHeaders = (options: CallbackOptions | undefined): Record<string, string> =>
  options?.nonce === undefined ? {} : { [SESSION_NONCE_HEADER]: options.nonce }

/**
 * Records wallet connection and signing sessions on the backend as server-verified records.
 * The `post*` callbacks are what a wallet sends; each needs the session's nonce (`{ nonce }`,
 * sent as `X-Session-Nonce`), which only the wallet's universal link carries.
 *
 * Every method rejects with `BACKEND_ERROR` when the request fails (network, timeout) or the backend
 * answers non-2xx (429 included) or with an invalid body; the error carries `status`, `backendCode`,
 * `details` and `retryAfterMs` when known, and never the session token or a signature. A
 * parameter of the wrong kind (a `null` body, a number for a session id) rejects with
 * `INVALID_CONFIG` naming it, before any request.
 */
export class GenericWalletSessionClient {
  /** The normalised base URL (no trailing `/`, no trailing `/api/v1`). */
  readonly baseUrl: string
  readonly #clientId: string
  readonly #http: HttpClient
  readonly #timeoutMs: number

  /**
   * @param baseUrl backend base URL; HTTPS, or HTTP for local development hosts only.
   * @param clientId the public app key, sent as `X-App-Key` on session creation.
   * @throws `INVALID_CONFIG` for an empty `clientId`, a missing or non-HTTPS `baseUrl`, or no fetch.
   */
  constructor(baseUrl: string, clientId: string, options: GenericWalletSessionOptions = {}) {
    this.baseUrl = normalizeBaseUrl(baseUrl)
    this.#clientId = requireNonEmpty(clientId, 'clientId')
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#http = createHttpClient({
      baseUrl: this.baseUrl,
      fetchImpl: options.fetchImpl as FetchLike | undefined,
      timeoutMs: options.timeoutMs,
      errorCode: 'BACKEND_ERROR',
    })
  }

  /** Creates a session (POST `/sessions`, `X-App-Key`). */
  async createSession(
    caip2Chain: string,
    options: CreateSessionOptions = {},
  ): Promise<GenericSession> {
    parseParameters(CreateSessionParametersSchema, [caip2Chain, options], 'parameters')
    const body = await this.#http.json(
      {
        method: 'POST',
        path: ROUTES.sessions,
        headers: { [APP_KEY_HEADER]: this.#clientId },
        json: {
          caip2Chain,
          ...(options.walletSlug === undefined ? {} : { walletSlug: options.walletSlug }),
          ...(options.intent === undefined ? {} : { intent: options.intent }),
        },
        what: 'POST /sessions',
      },
      CreateSessionResponseSchema,
    )
    return {
      sessionId: body.sessionId,
      nonce: body.nonce,
      sessionToken: body.sessionToken,
      expiresAt: body.expiresAt,
    }
  }

  /** One lookup of the current result (GET `/sessions/{id}/result`, `Authorization: Bearer` alone). */
  async getResult(sessionId: string, sessionToken: string): Promise<GenericSessionResult> {
    parseParameters(ResultParametersSchema, [sessionId, sessionToken], 'parameters')
    return this.#http.json(
      {
        method: 'GET',
        path: ROUTES.sessionResult(sessionId),
        headers: { authorization: `Bearer ${sessionToken}` },
        what: 'GET /sessions/{id}/result',
        secrets: [sessionToken],
      },
      SessionResultResponseSchema,
    )
  }

  /**
   * One lookup that can wait for a change (long-poll): with `etag` (from an earlier answer) and
   * `waitMs`, the backend holds the request until the session's state differs from that tag or
   * `waitMs` passes. Resolves `{ changed: true, result, etag }` with a new state, or
   * `{ changed: false, etag }` when nothing changed (HTTP 304). `longPollMaxMs` is the longest
   * wait the backend offers (`X-Long-Poll-Max-Ms`); undefined means it does not long-poll (an
   * older backend answers at once, with the result), so keep polling at your cadence.
   *
   * Counts as one request of the session's budget however long it waits. Rejects like `getResult`
   * (`BACKEND_ERROR`, 404 for an unknown session or a wrong token), and with `BACKEND_ERROR` (no
   * status) when `signal` aborts it or the wait plus `timeoutMs` passes without an answer.
   */
  async watchResult(
    sessionId: string,
    sessionToken: string,
    options: WatchResultOptions = {},
  ): Promise<WatchedResult> {
    parseParameters(ResultParametersSchema, [sessionId, sessionToken, options], 'parameters')
    const waitMs = Math.max(0, Math.min(Math.floor(options.waitMs ?? 0), LONG_POLL_MAX_MS))
    const request = {
      method: 'GET' as const,
      path: ROUTES.sessionResult(sessionId),
      headers: {
        authorization: `Bearer ${sessionToken}`,
        ...(options.etag === undefined ? {} : { 'if-none-match': options.etag }),
      },
      ...(waitMs > 0 ? { searchParams: { waitMs: String(waitMs) } } : {}),
      what: 'GET /sessions/{id}/result',
      secrets: [sessionToken],
      okStatuses: [304],
      timeoutMs: waitMs + this.#timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }
    const response = await this.#http.response(request)
    const etag = response.headers.get('etag') ?? undefined
    const offered = Number(response.headers.get(LONG_POLL_MAX_HEADER))
    const longPollMaxMs = Number.isFinite(offered) && offered > 0 ? offered : undefined
    if (response.status === 304) {
      await response.arrayBuffer().catch(() => undefined)
      return { changed: false, etag: etag ?? options.etag, longPollMaxMs }
    }
    const result = await this.#http.parse(response, request, SessionResultResponseSchema)
    return { changed: true, result, etag, longPollMaxMs }
  }

  /**
   * Asks the backend to verify an EVM `personal_sign` over
   * `buildSignedMessageEnvelope(sessionId, nonce, walletAddress, timestamp)` and record `signed`
   * (POST `/sessions/{id}/verify`, Bearer alone). A bad signature is 422 `SIGNATURE_INVALID`.
   */
  async verify(
    sessionId: string,
    sessionToken: string,
    body: VerifySessionBody,
  ): Promise<GenericSessionResult> {
    parseParameters(VerifyParametersSchema, [sessionId, sessionToken, body], 'parameters')
    return this.#http.json(
      {
        method: 'POST',
        path: ROUTES.sessionVerify(sessionId),
        headers: { authorization: `Bearer ${sessionToken}` },
        json: {
          walletAddress: body.walletAddress,
          signature: body.signature,
          timestamp: body.timestamp,
        },
        what: 'POST /sessions/{id}/verify',
        secrets: [sessionToken, body.signature],
      },
      SessionResultSchema,
    )
  }

  /**
   * Records the wallet's connection (POST `/callback/connect`). Pass the session's nonce (the
   * link's `scNonce`) as `options.nonce`: the backend answers 404 `SESSION_NOT_FOUND` without it.
   */
  async postConnect(body: PostConnectBody, options?: CallbackOptions): Promise<void> {
    parseParameters(CALLBACK_PARAMETERS.postConnect, [body, options], 'parameters')
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackConnect,
      headers: nonceHeaders(options),
      json: {
        sessionId: body.sessionId,
        walletSlug: body.walletSlug,
        caip2Chain: body.caip2Chain,
        walletAddress: body.walletAddress,
      },
      what: 'POST /callback/connect',
    })
  }

  /**
   * Records the wallet's signature (POST `/callback/sign`); the backend verifies it. Needs
   * `options.nonce` as `postConnect` does. The same body again is a success (safe to retry).
   */
  async postSignMsg(body: PostSignMsgBody, options?: CallbackOptions): Promise<void> {
    parseParameters(CALLBACK_PARAMETERS.postSignMsg, [body, options], 'parameters')
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackSign,
      headers: nonceHeaders(options),
      json: {
        sessionId: body.sessionId,
        signature: body.signature,
        timestamp: body.timestamp,
        ...(body.publicKey === undefined ? {} : { publicKey: body.publicKey }),
      },
      what: 'POST /callback/sign',
      secrets: [body.signature],
    })
  }

  /** Records a sent transaction (POST `/callback/transaction`); needs `options.nonce`. */
  async postTransaction(body: PostTransactionBody, options?: CallbackOptions): Promise<void> {
    parseParameters(CALLBACK_PARAMETERS.postTransaction, [body, options], 'parameters')
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackTransaction,
      headers: nonceHeaders(options),
      json: { sessionId: body.sessionId, txSignature: body.txSignature },
      what: 'POST /callback/transaction',
      secrets: [body.txSignature],
    })
  }

  /** Records a rejection or wallet failure (POST `/callback/reject`); needs `options.nonce`. */
  async postReject(body: PostRejectBody, options?: CallbackOptions): Promise<void> {
    parseParameters(CALLBACK_PARAMETERS.postReject, [body, options], 'parameters')
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackReject,
      headers: nonceHeaders(options),
      json: { sessionId: body.sessionId, errorCode: body.errorCode },
      what: 'POST /callback/reject',
    })
  }
}
