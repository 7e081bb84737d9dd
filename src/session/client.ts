import { normalizeBaseUrl } from '../http/base-url'
import { createHttpClient, type FetchLike, type HttpClient, requireNonEmpty } from '../http/client'
import { APP_KEY_HEADER, ROUTES } from '../wire/routes'
import {
  CreateSessionResponseSchema,
  SessionResultResponseSchema,
  SessionResultSchema,
} from '../wire/schemas'
import type {
  CreateSessionOptions,
  GenericSession,
  GenericSessionResult,
  GenericWalletSessionOptions,
  PostConnectBody,
  PostRejectBody,
  PostSignMsgBody,
  PostTransactionBody,
  VerifySessionBody,
} from './types'

/**
 * Records wallet connection and signing sessions on the backend as server-verified records.
 *
 * Every method rejects with `BACKEND_ERROR` when the request fails (network, timeout) or the backend
 * answers non-2xx (429 included) or with an invalid body; the error carries `status`, `backendCode`,
 * `details` and `retryAfterMs` when known, and never the session token or a signature.
 */
export class GenericWalletSessionClient {
  /** The normalised base URL (no trailing `/`, no trailing `/api/v1`). */
  readonly baseUrl: string
  readonly #clientId: string
  readonly #http: HttpClient

  /**
   * @param baseUrl backend base URL; HTTPS, or HTTP for local development hosts only.
   * @param clientId the public app key, sent as `X-App-Key` on session creation.
   * @throws `INVALID_CONFIG` for an empty `clientId`, a missing or non-HTTPS `baseUrl`, or no fetch.
   */
  constructor(baseUrl: string, clientId: string, options: GenericWalletSessionOptions = {}) {
    this.baseUrl = normalizeBaseUrl(baseUrl)
    this.#clientId = requireNonEmpty(clientId, 'clientId')
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
   * Asks the backend to verify an EVM `personal_sign` over
   * `buildSignedMessageEnvelope(sessionId, nonce, walletAddress, timestamp)` and record `signed`
   * (POST `/sessions/{id}/verify`, Bearer alone). A bad signature is 422 `SIGNATURE_INVALID`.
   */
  async verify(
    sessionId: string,
    sessionToken: string,
    body: VerifySessionBody,
  ): Promise<GenericSessionResult> {
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

  /** Records the wallet's connection (POST `/callback/connect`, no auth). */
  async postConnect(body: PostConnectBody): Promise<void> {
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackConnect,
      json: {
        sessionId: body.sessionId,
        walletSlug: body.walletSlug,
        caip2Chain: body.caip2Chain,
        walletAddress: body.walletAddress,
      },
      what: 'POST /callback/connect',
    })
  }

  /** Records the wallet's signature (POST `/callback/sign`, no auth); the backend verifies it. */
  async postSignMsg(body: PostSignMsgBody): Promise<void> {
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackSign,
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

  /** Records a sent transaction (POST `/callback/transaction`, no auth). */
  async postTransaction(body: PostTransactionBody): Promise<void> {
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackTransaction,
      json: { sessionId: body.sessionId, txSignature: body.txSignature },
      what: 'POST /callback/transaction',
      secrets: [body.txSignature],
    })
  }

  /** Records a rejection or wallet failure (POST `/callback/reject`, no auth). */
  async postReject(body: PostRejectBody): Promise<void> {
    await this.#http.send({
      method: 'POST',
      path: ROUTES.callbackReject,
      json: { sessionId: body.sessionId, errorCode: body.errorCode },
      what: 'POST /callback/reject',
    })
  }
}
