import { requireObject } from '../../errors/arguments'
import { normalizeBaseUrl } from '../../http/base-url'
import { createHttpClient, type FetchLike, requireNonEmpty } from '../../http/client'
import { API_PREFIX, APP_KEY_HEADER, ROUTES } from '../../wire/routes'
import { RelayTokenResponseSchema } from '../../wire/schemas/relay'
import type { RelayTokenGrant } from '../types'

export interface RelayTokenSourceOptions {
  /** The backend's base URL (HTTPS, or HTTP on a local development host). */
  baseUrl: string
  /** The public app key, sent as `X-App-Key`. */
  appKey: string
  fetchImpl?: FetchLike
  timeoutMs?: number
}

/**
 * A token source on the backend's `POST /api/v1/connect/relay/token` route (`X-App-Key`). Each call
 * fetches a new grant `{ token, expiresAt }`.
 *
 * @throws AppError `INVALID_CONFIG` for options that are not an object, a missing `baseUrl`/`appKey`
 * or no fetch. The returned function rejects with `BACKEND_ERROR` (with `status` and `backendCode`
 * when the backend answered).
 */
export function createRelayTokenSource(
  options: RelayTokenSourceOptions,
): () => Promise<RelayTokenGrant> {
  requireObject(options, 'options')
  const appKey = requireNonEmpty(options.appKey, 'appKey')
  const http = createHttpClient({
    baseUrl: normalizeBaseUrl(options.baseUrl),
    fetchImpl: options.fetchImpl,
    timeoutMs: options.timeoutMs,
    errorCode: 'BACKEND_ERROR',
  })
  return async () => {
    const grant = await http.json(
      {
        method: 'POST',
        path: ROUTES.relayToken,
        headers: { [APP_KEY_HEADER]: appKey },
        what: 'POST /relay/token',
      },
      RelayTokenResponseSchema,
    )
    return { token: grant.token, expiresAt: grant.expiresAt }
  }
}

/**
 * The backend's relay route as a WebSocket URL: `https://api.example.com` →
 * `wss://api.example.com/api/v1/connect/relay` (`http` → `ws` on local development hosts).
 *
 * @throws AppError `INVALID_CONFIG` as `normalizeBaseUrl` does.
 */
export function relayUrlForBaseUrl(baseUrl: string): string {
  const normalized = normalizeBaseUrl(baseUrl)
  return `${normalized.replace(/^http/, 'ws')}${API_PREFIX}${ROUTES.relay}`
}

/**
 * The backend base URL behind a relay URL of this backend (`wss://host/api/v1/connect/relay` →
 * `https://host`): where a wallet asks for its relay token when only the pairing URI names the relay.
 */
export function baseUrlForRelayUrl(relayUrl: string): string {
  const url = new URL(relayUrl)
  const suffix = `${API_PREFIX}${ROUTES.relay}`
  const path = url.pathname.endsWith(suffix) ? url.pathname.slice(0, -suffix.length) : url.pathname
  return `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}${path.replace(/\/+$/, '')}`
}
