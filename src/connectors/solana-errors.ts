import { AppError, isAppError, normalizeWalletError } from '../errors'

/*
 * Solana wallets report a rejection in two ways: Phantom and Backpack throw EIP-1193-style errors
 * with code 4001; others (and wallet-adapter wrappers such as WalletSignMessageError) throw an
 * Error whose message says the user rejected, denied, declined or cancelled. Matched on those
 * phrasings only, so that "Transaction rejected by the cluster" stays a WALLET_ERROR.
 */
const USER_REJECTION_MESSAGE =
  /user (rejected|denied|declined|cancell?ed)|(rejected|denied|declined|cancell?ed) by (the )?user|rejected the request/i

/**
 * Turns what a Solana wallet threw into an `AppError`: `USER_REJECTED` for code 4001 or a message
 * saying the user rejected; `WALLET_ERROR` otherwise; an `AppError` passes through.
 */
export function normalizeSolanaWalletError(error: unknown): AppError {
  if (isAppError(error)) return error
  const message = (error as { message?: unknown } | null)?.message
  if (typeof message === 'string' && USER_REJECTION_MESSAGE.test(message)) {
    return new AppError('USER_REJECTED', 'The user rejected the request in the wallet.', {
      cause: error,
    })
  }
  return normalizeWalletError(error)
}
