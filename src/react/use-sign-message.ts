import type { Client } from '../client/client'
import { useClient } from './client-context'
import { type MutationState, useMutation } from './mutation'

/** What `signMessage` signs. */
export interface SignMessageVariables {
  message: string
}

/** What `useSignMessage` returns: the last signature's state, `signMessage`, `signMessageAsync`, `reset`. */
export interface UseSignMessageResult extends MutationState<string, SignMessageVariables> {
  /** Asks the connected wallet to sign; the signature or the error shows in the state. */
  signMessage(variables: SignMessageVariables): void
  /** As `signMessage`, and resolves with the signature or rejects with the `AppError`. */
  signMessageAsync(variables: SignMessageVariables): Promise<string>
  reset(): void
}

/**
 * Signs a message with the connected wallet (`client.signMessage`): `data` is the signature (hex on
 * EVM, base58 on Solana), `error` the `AppError` (`NOT_CONNECTED`, `USER_REJECTED`, `WALLET_ERROR`,
 * `TIMEOUT`, `ABORTED`). Uses the provider's client unless one is given.
 */
export function useSignMessage(options: { client?: Client } = {}): UseSignMessageResult {
  const client = useClient(options.client)
  const { mutate, mutateAsync, ...state } = useMutation((variables: SignMessageVariables) =>
    client.signMessage(variables.message),
  )
  return { ...state, signMessage: mutate, signMessageAsync: mutateAsync }
}
