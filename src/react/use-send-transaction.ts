import type { Client } from '../client/client'
import type { SendTransactionParameters, TransactionHandle } from '../transaction/types'
import { useClient } from './client-context'
import { type MutationState, useMutation } from './mutation'

/**
 * What `useSendTransaction` returns: the last send's state (`data` is the `TransactionHandle`:
 * `hash` and `wait()`), `sendTransaction`, `sendTransactionAsync`, `reset`.
 */
export interface UseSendTransactionResult
  extends MutationState<TransactionHandle, SendTransactionParameters> {
  /** Asks the connected wallet to send; the handle or the error shows in the state. */
  sendTransaction(variables: SendTransactionParameters): void
  /** As `sendTransaction`, and resolves with the handle or rejects with the `AppError`. */
  sendTransactionAsync(variables: SendTransactionParameters): Promise<TransactionHandle>
  reset(): void
}

/**
 * Sends a transaction with the connected wallet (`client.sendTransaction`): `data` is the handle
 * once the wallet answered (`data.hash`; pass `data` to `useWaitForTransaction` for the receipt),
 * `error` the `AppError` (`NOT_CONNECTED`, `INVALID_CONFIG`, `USER_REJECTED`, `WALLET_ERROR`,
 * `TIMEOUT`, `ABORTED`). Where it stands on chain shows in `useClientView().transaction` too.
 * Uses the provider's client unless one is given.
 */
export function useSendTransaction(options: { client?: Client } = {}): UseSendTransactionResult {
  const client = useClient(options.client)
  const { mutate, mutateAsync, ...state } = useMutation((variables: SendTransactionParameters) =>
    client.sendTransaction(variables),
  )
  return { ...state, sendTransaction: mutate, sendTransactionAsync: mutateAsync }
}
