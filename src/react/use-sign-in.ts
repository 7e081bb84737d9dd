import type { Client } from '../client/client'
import type { SignInParameters } from '../siwe/parameters'
import type { SignInRecord } from '../wire/schemas/sign-in'
import { useClient } from './client-context'
import { type MutationState, useMutation } from './mutation'

/** What `useSignIn` returns: the last sign-in's state, `signIn`, `signInAsync`, `reset`. */
export interface UseSignInResult extends MutationState<SignInRecord, SignInParameters | undefined> {
  /** Signs in with the connected wallet; the verified record or the error shows in the state. */
  signIn(parameters?: SignInParameters): void
  /** As `signIn`, and resolves with the verified record or rejects with the `AppError`. */
  signInAsync(parameters?: SignInParameters): Promise<SignInRecord>
  reset(): void
}

/**
 * Sign-In with Ethereum (EIP-4361) or With Solana (`client.signIn`): `data` is the backend's
 * verified record (`SignInRecord`), `error` the `AppError` (`INVALID_CONFIG`, `NOT_CONNECTED`,
 * `USER_REJECTED`, `BACKEND_ERROR` with the backend's code…). Uses the provider's client unless
 * one is given.
 */
export function useSignIn(options: { client?: Client } = {}): UseSignInResult {
  const client = useClient(options.client)
  const { mutate, mutateAsync, ...state } = useMutation((parameters?: SignInParameters) =>
    client.signIn(parameters),
  )
  return { ...state, signIn: mutate, signInAsync: mutateAsync }
}
