import type { AppErrorCode } from '../../src/errors/app-error'
import { normalizeWalletError } from '../../src/errors/provider-rpc-error'
import { ERROR_CODES, type ErrorData, toErrorData } from './error-data'

// Apart from `error-data`: only the wallet machines need it, and the `Client` entry, which
// reaches `error-data`, loads them later.

/**
 * Error data for anything a wallet threw: a user rejection (EIP-1193 4001, or `USER_REJECTED` data)
 * becomes `USER_REJECTED`, other provider errors `fallback`; `ErrorData` passes through.
 */
export function walletErrorData(
  error: unknown,
  fallback: AppErrorCode = 'WALLET_ERROR',
): ErrorData {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && ERROR_CODES.has(code)) return toErrorData(error, fallback)
  }
  return toErrorData(normalizeWalletError(error, fallback), fallback)
}
