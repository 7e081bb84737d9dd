import { useEffect } from 'react'
import type { TransactionHandle, TransactionReceiptSummary } from '../transaction/types'
import { type MutationState, useMutation } from './mutation'

/** What `useWaitForTransaction` returns: `variables` is the handle waited for. */
export type UseWaitForTransactionResult = MutationState<
  TransactionReceiptSummary,
  TransactionHandle
>

const waitFor = (handle: TransactionHandle) => handle.wait()

/**
 * Waits for a sent transaction's receipt (`handle.wait()`, read by the backend): `idle` without a
 * handle, `pending` until it settles, then `data` (the receipt summary) or `error` (the
 * `AppError`: `TRANSACTION_REVERTED`, `TRANSACTION_REPLACED`, `TRANSACTION_DROPPED`, `TIMEOUT`,
 * `RPC_ERROR`, `ABORTED`). A new handle starts over; `wait()` is shared, so it asks nothing twice.
 */
export function useWaitForTransaction(
  handle: TransactionHandle | undefined | null,
): UseWaitForTransactionResult {
  const { mutate, mutateAsync, reset, ...state } = useMutation(waitFor)
  useEffect(() => {
    if (handle) mutate(handle)
    else reset()
  }, [handle, mutate, reset])
  return state
}
