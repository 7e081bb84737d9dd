import { AppError } from '../../errors/app-error'
import { USER_REJECTED_CODE } from '../../errors/provider-rpc-error'
import type { JsonRpcError } from '../protocol/json-rpc'
import { SESSION_ERROR_CODES } from '../protocol/methods'

/**
 * The `AppError` of an error answer: 4001 → `USER_REJECTED`; 5200 (proposal expired) →
 * `SESSION_EXPIRED`; anything else → `WALLET_ERROR`. The numeric code is kept in `backendCode`.
 */
export function appErrorOfResponse(error: JsonRpcError, what: string): AppError {
  const options = { backendCode: String(error.code) }
  if (error.code === USER_REJECTED_CODE) {
    return new AppError('USER_REJECTED', `The user rejected ${what} in the wallet.`, options)
  }
  if (error.code === SESSION_ERROR_CODES.PROPOSAL_EXPIRED) {
    return new AppError('SESSION_EXPIRED', `The wallet answered ${what} after it expired.`, options)
  }
  return new AppError('WALLET_ERROR', `The wallet refused ${what}: ${error.message}`, options)
}

/**
 * The JSON-RPC error a wallet answers for anything its handler threw: a numeric `code` (an
 * EIP-1193 provider error) passes through, `USER_REJECTED` becomes 4001, the rest -32603. Only
 * the error's own short message travels, never a stack.
 */
export function responseErrorOf(error: unknown): JsonRpcError {
  if (typeof error === 'object' && error !== null) {
    const { code, message, shortMessage } = error as {
      code?: unknown
      message?: unknown
      shortMessage?: unknown
    }
    const text = String(shortMessage ?? message ?? 'Request failed').slice(0, 256)
    if (code === 'USER_REJECTED') return { code: USER_REJECTED_CODE, message: text }
    if (typeof code === 'number' && Number.isInteger(code)) return { code, message: text }
    return { code: SESSION_ERROR_CODES.INTERNAL_ERROR, message: text }
  }
  return { code: SESSION_ERROR_CODES.INTERNAL_ERROR, message: 'Request failed' }
}
