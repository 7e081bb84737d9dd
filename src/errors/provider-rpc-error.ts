import { AppError, type AppErrorCode, isAppError } from './app-error'

/** EIP-1193 `4001 User Rejected Request`. */
export const USER_REJECTED_CODE = 4001

/** An error with a numeric `code`, as EIP-1193 providers and custom connectors throw them. */
export class ProviderRpcError extends Error {
  override readonly name: string = 'ProviderRpcError'
  readonly code: number
  declare readonly data?: unknown

  /** Never throws: a message that is not a string is turned into text. */
  constructor(code: number, message: string, data?: unknown) {
    super(String(message))
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/**
 * True for errors with an integer `code` and a string `message`, coming from a provider or a custom
 * connector. Providers often throw plain objects rather than `Error`s, so both are accepted.
 */
export function isProviderRpcError(value: unknown): value is ProviderRpcError {
  if (typeof value !== 'object' || value === null) return false
  const { code, message } = value as { code?: unknown; message?: unknown }
  return typeof code === 'number' && Number.isInteger(code) && typeof message === 'string'
}

/**
 * Turns anything a wallet threw into an `AppError`: a user rejection becomes `USER_REJECTED`, any
 * other provider error becomes `fallback` with the provider's message; an `AppError` passes through.
 */
export function normalizeWalletError(
  error: unknown,
  fallback: AppErrorCode = 'WALLET_ERROR',
): AppError {
  if (isAppError(error)) return error
  if (isProviderRpcError(error)) {
    if (error.code === USER_REJECTED_CODE) {
      return new AppError('USER_REJECTED', 'The user rejected the request in the wallet.', {
        cause: error,
      })
    }
    return new AppError(
      fallback,
      `The wallet answered with error ${error.code}: ${error.message}`,
      { cause: error },
    )
  }
  const message = error instanceof Error ? error.message : String(error)
  return new AppError(fallback, `The wallet request failed: ${message}`, { cause: error })
}
