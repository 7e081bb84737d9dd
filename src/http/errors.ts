import type * as z from 'zod/mini'
import { AppError, type AppErrorCode, type FieldIssue } from '../errors/app-error'
import { redactText } from '../logging'
import { ErrorBodySchema } from '../wire/errors'
import { issuesToFieldIssues } from '../wire/issues'
import { parseRetryAfter } from './retry-after'

/** The two codes an HTTP client of the library fails with (the route may refine them). */
export type HttpErrorCode = Extract<AppErrorCode, 'RPC_ERROR' | 'BACKEND_ERROR'>

/** What a failed answer looked like; handed to a route's `refineCode`. */
export interface HttpFailureInfo {
  status: number
  backendCode: string | undefined
}

/** Hex blobs of 64+ bytes: EVM signatures (65 bytes) and longer; addresses and hashes stay. */
const LONG_HEX = /0x[0-9a-fA-F]{128,}/g

/**
 * Removes `secrets` (session tokens, signatures), signature-sized hex blobs and secret-looking
 * patterns (Bearer values, `token=`) from a message.
 */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(LONG_HEX, '[redacted]')
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]')
  }
  return redactText(out)
}

/**
 * Builds the `AppError` for a non-2xx answer: `status`, `backendCode` (`error.code` of the body),
 * `details` (`error.details`) and `retryAfterMs` (from `Retry-After`) are filled when present. Its
 * code is `code`, unless `refineCode` picks a more precise one for this answer.
 */
export async function errorFromResponse(
  response: Response,
  code: AppErrorCode,
  what: string,
  secrets: readonly string[] = [],
  refineCode?: (info: HttpFailureInfo) => AppErrorCode | undefined,
): Promise<AppError> {
  let backendCode: string | undefined
  let backendMessage: string | undefined
  let details: FieldIssue[] | undefined
  try {
    const text = await response.text()
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text))
    if (parsed.success) {
      backendCode = parsed.data.error.code
      backendMessage = parsed.data.error.message
      details = parsed.data.error.details
    }
  } catch {
    // Not a JSON error body (a proxy page, an empty body): the status alone describes it.
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
  const reason = backendMessage ?? (response.statusText || 'no error body')
  const label =
    backendCode === undefined ? `HTTP ${response.status}` : `HTTP ${response.status} ${backendCode}`
  // The one refusal a developer fixes in their own options: say which.
  const hint = backendCode === 'INVALID_APP_KEY' ? ' (check the appKey option)' : ''
  const refined = refineCode?.({ status: response.status, backendCode }) ?? code
  // AppError leaves out the options that are undefined.
  return new AppError(refined, maskSecrets(`${what} failed: ${label}: ${reason}${hint}`, secrets), {
    status: response.status,
    backendCode,
    details,
    retryAfterMs,
  })
}

/**
 * The `AppError` for a request that got no answer: network failure, refused connection, timeout.
 * The message names the backend asked (`baseUrl`), the option to check when it is wrong.
 */
export function errorFromTransport(
  error: unknown,
  code: AppErrorCode,
  what: string,
  timeoutMs: number,
  secrets: readonly string[] = [],
  baseUrl?: string,
): AppError {
  const name = error instanceof Error ? error.name : ''
  const where = baseUrl === undefined ? '' : ` (no answer from baseUrl ${baseUrl})`
  if (name === 'TimeoutError') {
    return new AppError(code, `${what} failed: no answer within ${timeoutMs} ms${where}.`, {
      cause: error,
    })
  }
  if (name === 'AbortError') {
    return new AppError(code, `${what} was aborted.`, { cause: error })
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined
  const detail = typeof cause?.code === 'string' ? ` (${cause.code})` : ''
  const message = error instanceof Error ? error.message : String(error)
  return new AppError(code, maskSecrets(`${what} failed: ${message}${detail}${where}`, secrets), {
    cause: error,
  })
}

/** The `AppError` for a 2xx answer whose body is not the documented shape. */
export function errorFromInvalidBody(
  status: number,
  code: AppErrorCode,
  what: string,
  issues?: readonly z.core.$ZodIssue[],
): AppError {
  return new AppError(
    code,
    issues === undefined
      ? `${what} failed: the backend answered with invalid JSON.`
      : `${what} failed: the backend answered with an invalid body.`,
    { status, details: issues && issuesToFieldIssues(issues) },
  )
}
