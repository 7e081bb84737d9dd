import type { AppErrorCode } from '../../src/errors/app-error'
import { AppError } from '../../src/errors/app-error'

/**
 * An error as machines keep it in context: plain JSON (an `Error` in context serialises to `{}`
 * and cannot be persisted or inspected).
 */
export interface ErrorData {
  code: AppErrorCode
  message: string
  status?: number
  backendCode?: string
  retryAfterMs?: number
}

/** The codes an `ErrorData` may carry (anything else becomes the fallback). */
export const ERROR_CODES: ReadonlySet<string> = new Set<string>([
  'INVALID_CONFIG',
  'UNSUPPORTED_CHAIN',
  'RPC_ERROR',
  'WALLET_NOT_FOUND',
  'BACKEND_ERROR',
  'USER_REJECTED',
  'WALLET_UNAVAILABLE',
  'WALLET_ERROR',
  'NOT_CONNECTED',
  'SESSION_EXPIRED',
  'SESSION_FAILED',
  'TIMEOUT',
  'ABORTED',
  'RELAY_ERROR',
  'TRANSACTION_REVERTED',
  'TRANSACTION_REPLACED',
  'TRANSACTION_DROPPED',
  'WALLET_BUSY',
  'ACCOUNT_CHANGED',
  'UNSUPPORTED_METHOD',
])

/**
 * Plain-data copy of anything thrown: an `AppError` (or an object shaped like `ErrorData`) keeps its
 * code, status, backend code and retry hint; anything else becomes `fallback` with its message.
 */
export function toErrorData(error: unknown, fallback: AppErrorCode): ErrorData {
  if (typeof error === 'object' && error !== null) {
    const e = error as Partial<Record<keyof ErrorData, unknown>>
    const code =
      typeof e.code === 'string' && ERROR_CODES.has(e.code) ? (e.code as AppErrorCode) : fallback
    const message =
      error instanceof AppError
        ? error.shortMessage
        : typeof e.message === 'string'
          ? e.message
          : String(error)
    const data: ErrorData = { code, message }
    if (typeof e.status === 'number') data.status = e.status
    if (typeof e.backendCode === 'string') data.backendCode = e.backendCode
    if (typeof e.retryAfterMs === 'number') data.retryAfterMs = e.retryAfterMs
    return data
  }
  return { code: fallback, message: String(error) }
}

/**
 * Turns `ErrorData` back into an `AppError` (for promise facades). Never throws: anything that is
 * not `ErrorData` (a foreign error, a primitive) becomes an `AppError` too, its code kept when it is
 * one of the list, `INVALID_CONFIG` otherwise.
 */
export function toAppError(data: ErrorData): AppError {
  try {
    const valid =
      typeof data === 'object' &&
      data !== null &&
      typeof data.code === 'string' &&
      ERROR_CODES.has(data.code) &&
      typeof data.message === 'string'
    return fromErrorData(valid ? data : toErrorData(data, 'INVALID_CONFIG'))
  } catch {
    return new AppError('INVALID_CONFIG', 'toAppError was given something that is not ErrorData.')
  }
}

function fromErrorData(data: ErrorData): AppError {
  return new AppError(data.code, data.message, {
    ...(data.status === undefined ? {} : { status: data.status }),
    ...(data.backendCode === undefined ? {} : { backendCode: data.backendCode }),
    ...(data.retryAfterMs === undefined ? {} : { retryAfterMs: data.retryAfterMs }),
  })
}
