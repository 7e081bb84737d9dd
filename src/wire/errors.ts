import * as z from 'zod/mini'
import { nonEmptyCheck } from './primitives'

/** Every `error.code` the backend answers with, by HTTP status. Documented in docs/backend.md. */
export const BACKEND_ERROR_STATUS = {
  BAD_REQUEST: 400,
  MISSING_APP_KEY: 401,
  INVALID_APP_KEY: 401,
  INVALID_SESSION_TOKEN: 401,
  INVALID_RELAY_TOKEN: 401,
  CHAIN_NOT_ENABLED: 403,
  WALLET_NOT_ENABLED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  SESSION_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** The request took longer than the server's request or headers timeout. */
  REQUEST_TIMEOUT: 408,
  SESSION_STATE_CONFLICT: 409,
  NONCE_USED: 409,
  SESSION_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A plain GET on the relay route, which only speaks WebSocket. */
  UPGRADE_REQUIRED: 426,
  VALIDATION_FAILED: 422,
  SIGNATURE_INVALID: 422,
  UNSUPPORTED_CHAIN: 422,
  /** A token's balance read ran out of its explicit gas (a contract that burns gas). */
  GAS_LIMIT_EXCEEDED: 422,
  RATE_LIMITED: 429,
  /** GET /transactions: the caller (or the instance) holds as many long-polls as it may. */
  TOO_MANY_WAITERS: 429,
  /** The request's headers are larger than the server accepts. */
  HEADERS_TOO_LARGE: 431,
  UPSTREAM_ERROR: 502,
  /** The chain node's answer was larger than the backend reads (`maxResponseBytes`). */
  UPSTREAM_TOO_LARGE: 502,
  STORE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
} as const

/**
 * Every error code the backend answers with (`error.code`), each with its HTTP status in
 * `BACKEND_ERROR_STATUS`.
 */
export type BackendErrorCode = keyof typeof BACKEND_ERROR_STATUS

/** A field-level reason of a 422 answer: `{ field, reason }`. */
export const FieldIssueSchema = /* @__PURE__ */ z.object({
  field: /* @__PURE__ */ z.string(),
  reason: /* @__PURE__ */ z.string(),
})

/** `{ error: { code, message, details? } }`; `details` only on 422 with field-level reasons. */
export const ErrorBodySchema = /* @__PURE__ */ z.object({
  error: /* @__PURE__ */ z.object({
    code: /* @__PURE__ */ z.string(),
    message: /* @__PURE__ */ z.string(),
    details: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.array(FieldIssueSchema).check(nonEmptyCheck),
    ),
  }),
})
/** The backend's error body, `{ error: { code, message, details? } }`. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>
