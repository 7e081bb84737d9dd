import ky from 'ky'
import type * as z from 'zod/mini'
import { AppError, type AppErrorCode } from '../errors/app-error'
import { logLine } from '../log-sink'
import { API_PREFIX } from '../wire/routes'
import {
  errorFromInvalidBody,
  errorFromResponse,
  errorFromTransport,
  type HttpErrorCode,
  type HttpFailureInfo,
} from './errors'
import { type FetchLike, requireNonEmpty, resolveFetch } from './options'

export { type FetchLike, requireNonEmpty, resolveFetch }

/** Default time a request may take before it fails (the machines decide about retries). */
export const DEFAULT_TIMEOUT_MS = 10_000

export interface HttpClientConfig {
  /** Already normalised (see `normalizeBaseUrl`). */
  baseUrl: string
  fetchImpl?: FetchLike | undefined
  timeoutMs?: number | undefined
  /** The code every failure gets unless a request's `refineCode` says otherwise. */
  errorCode: HttpErrorCode
}

export interface HttpRequest {
  method: 'GET' | 'POST'
  /** A path under `/api/v1/connect`, e.g. `ROUTES.balances`. */
  path: string
  searchParams?: Record<string, string>
  json?: unknown
  headers?: Record<string, string>
  /** Names the operation in error messages, e.g. `GET /balances`. */
  what: string
  /** Values that must never appear in an error message (session token, signature). */
  secrets?: readonly string[]
  /** Picks a more precise code for some answers (e.g. `UNSUPPORTED_CHAIN`). */
  refineCode?: (info: HttpFailureInfo) => AppErrorCode | undefined
  /** This request's own timeout (a long-poll waits longer than the client's default). */
  timeoutMs?: number
  /** Aborts the request; it then rejects with the transport error. */
  signal?: AbortSignal
  /** Non-2xx statuses that are answers, not failures (e.g. 304 for a conditional request). */
  okStatuses?: readonly number[]
}

export interface HttpClient {
  readonly baseUrl: string
  /** Sends the request and validates the 2xx body with `schema`. */
  json<S extends z.ZodMiniType>(request: HttpRequest, schema: S): Promise<z.infer<S>>
  /** Sends the request and ignores the 2xx body (204 routes). */
  send(request: HttpRequest): Promise<void>
  /** Sends the request and returns the response (2xx or one of `okStatuses`), body unread. */
  response(request: HttpRequest): Promise<Response>
  /** Parses and validates a response body with `schema` (as `json` does). */
  parse<S extends z.ZodMiniType>(
    response: Response,
    request: HttpRequest,
    schema: S,
  ): Promise<z.infer<S>>
}

/**
 * One ky instance per client: ky's own retry is off (retries belong to the machines), HTTP errors
 * are not thrown by ky but mapped here, and every request has a timeout.
 */
export function createHttpClient(config: HttpClientConfig): HttpClient {
  const fetchImpl = resolveFetch(config.fetchImpl)
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AppError('INVALID_CONFIG', 'timeoutMs must be a positive number.')
  }
  const api = ky.create({
    retry: 0,
    throwHttpErrors: false,
    fetch: fetchImpl,
  })
  const root = `${config.baseUrl}${API_PREFIX}`

  async function perform(request: HttpRequest): Promise<Response> {
    let response: Response
    try {
      response = await api(`${root}${request.path}`, {
        method: request.method,
        searchParams: request.searchParams,
        json: request.json,
        headers: { accept: 'application/json', ...request.headers },
        timeout: request.timeoutMs ?? timeoutMs,
        signal: request.signal,
      })
    } catch (error) {
      logLine('debug', 'http', `${request.what}: no answer`, error)
      throw errorFromTransport(
        error,
        config.errorCode,
        request.what,
        request.timeoutMs ?? timeoutMs,
        request.secrets,
        config.baseUrl,
      )
    }
    logLine('debug', 'http', `${request.what}: ${response.status}`)
    if (!response.ok && !request.okStatuses?.includes(response.status)) {
      throw await errorFromResponse(
        response,
        config.errorCode,
        request.what,
        request.secrets,
        request.refineCode,
      )
    }
    return response
  }

  async function parse<S extends z.ZodMiniType>(
    response: Response,
    request: HttpRequest,
    schema: S,
  ): Promise<z.infer<S>> {
    const invalid = (issues?: readonly z.core.$ZodIssue[]) =>
      errorFromInvalidBody(response.status, config.errorCode, request.what, issues)
    let body: unknown
    try {
      body = JSON.parse(await response.text())
    } catch {
      throw invalid()
    }
    const parsed = schema.safeParse(body)
    if (!parsed.success) throw invalid(parsed.error.issues)
    return parsed.data
  }

  return {
    baseUrl: config.baseUrl,
    async json(request, schema) {
      return parse(await perform(request), request, schema)
    },
    response: perform,
    parse,
    async send(request) {
      const response = await perform(request)
      // Drain the body so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined)
    },
  }
}
