import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ChainInputError, UpstreamError, UpstreamTooLargeError } from '../chains/types'
import { ApiError } from '../errors'
import { StoreUnavailableError } from '../store/types'
import { chainInputToApiError } from './chain-errors'
import { isAuthFailure } from './rate-limit'
import type { RouteTable } from './route-table'
import type { StoreOutages } from './store-outages'

/** Fastify's own refusals (parsers, body limit, URL) mapped to the wire codes. */
function fromFastify(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'the body is too large')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('BAD_REQUEST', 'the JSON body is empty')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST', 'the body is not valid JSON')
    case 'FST_ERR_BAD_URL':
      return new ApiError('BAD_REQUEST', 'the URL is malformed')
  }
  const status = error.statusCode ?? 0
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'the body is too large')
  if (status === 415)
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json')
  if (status === 404) return new ApiError('NOT_FOUND', 'no such route')
  // Any other client error Fastify raises (JSON syntax, content length, …) is the caller's request.
  if (status >= 400 && status < 500) return new ApiError('BAD_REQUEST', 'the request is malformed')
  return undefined
}

export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error
  if (error instanceof StoreUnavailableError) {
    return new ApiError('STORE_UNAVAILABLE', 'the session store is not reachable')
  }
  if (error instanceof UpstreamTooLargeError) {
    return new ApiError('UPSTREAM_TOO_LARGE', `the chain RPC answer is too large: ${error.message}`)
  }
  if (error instanceof UpstreamError) {
    return new ApiError('UPSTREAM_ERROR', `the chain RPC failed: ${error.message}`)
  }
  if (error instanceof ChainInputError) return chainInputToApiError(error)
  if (error instanceof Error && 'code' in error) return fromFastify(error as FastifyError)
  return undefined
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers)
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody())
}

export interface ErrorHandlingHooks {
  /** A failed authentication goes through it first (it may become a 429). */
  limitAuthFailure?: (request: FastifyRequest, failure: ApiError) => Promise<ApiError>
  /** Told of every 503 STORE_UNAVAILABLE a route met (logged once per outage, counted). */
  storeOutages?: Pick<StoreOutages, 'refused'>
  /** Told of every request no route matched (404, 405), e.g. to count it under one label. */
  unmatched?: (request: FastifyRequest, statusCode: number) => void
}

/**
 * Every refusal has the one wire shape; anything unforeseen is a logged 500 without internals.
 * A 503 STORE_UNAVAILABLE is never logged per request: an outage under load would write hundreds
 * of identical stacks a second. A route's goes to `storeOutages`; `/readyz` answers 503 on purpose
 * (a probe asks every few seconds) and is neither an outage seen by a route nor logged.
 */
export function installErrorHandling(
  app: FastifyInstance,
  routes: RouteTable,
  hooks: ErrorHandlingHooks = {},
): void {
  const { limitAuthFailure, storeOutages, unmatched } = hooks
  app.setErrorHandler((error, request, reply) => {
    const known = toApiError(error)
    if (known) {
      if (known.code === 'STORE_UNAVAILABLE') {
        if (error instanceof StoreUnavailableError) storeOutages?.refused(error)
      } else if (known.status >= 500) {
        // An expected condition (a chain RPC down): its code and message, no stack trace.
        request.log.warn({ code: known.code }, known.message)
      }
      if (limitAuthFailure && isAuthFailure(known)) {
        return limitAuthFailure(request, known).then((answer) => sendApiError(reply, answer))
      }
      return sendApiError(reply, known)
    }
    request.log.error({ err: error }, 'unhandled error')
    return sendApiError(reply, new ApiError('INTERNAL_ERROR', 'internal error'))
  })

  app.setNotFoundHandler((request: FastifyRequest, reply) => {
    const allowed = routes.methodsFor(request.url)
    const refusal =
      allowed.length > 0
        ? new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here`, {
            headers: { allow: allowed.join(', ') },
          })
        : new ApiError('NOT_FOUND', 'no such route')
    unmatched?.(request, refusal.status)
    return sendApiError(reply, refusal)
  })
}

/** Fastify's `frameworkErrors` option: a bad URL or an over-long parameter, before any route. */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const known = fromFastify(error) ?? new ApiError('BAD_REQUEST', 'the request is malformed')
  return sendApiError(reply, known)
}
