import { AppError, isAppError } from '../../errors/app-error'
import { RELAY_ERROR_CODES } from '../../wire/relay'

const ERROR_NAMES = /* @__PURE__ */ new Map<number, string>(
  /* @__PURE__ */ Object.entries(RELAY_ERROR_CODES).map(([name, code]) => [code, name]),
)

/** A `RELAY_ERROR`; a relay's JSON-RPC error `code` becomes its name in `backendCode`. */
export function relayError(
  message: string,
  options: { code?: number; cause?: unknown } = {},
): AppError {
  const name = options.code === undefined ? undefined : ERROR_NAMES.get(options.code)
  return new AppError('RELAY_ERROR', message, {
    ...(name === undefined ? {} : { backendCode: name }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  })
}

/** A token refusal that retrying will not fix (4xx other than 408 and 429, or a bad config). */
export function isPermanentTokenFailure(error: unknown): boolean {
  if (!isAppError(error)) return false
  if (error.code === 'INVALID_CONFIG') return true
  const status = error.status
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429
}
