import type { Client } from '../client/client'
import type { WalletConnection } from '../connectors/types'
import type { ChainNamespace, WalletId } from '../registry/types'
import { useClient } from './client-context'
import { type MutationState, useMutation } from './mutation'

/** Which wallet `connect` picks first (`client.selectWallet`); none connects the selected one. */
export interface ConnectVariables {
  walletId: WalletId
  namespace: ChainNamespace
}

/** What `useConnect` returns: the last connect's state, `connect`, `connectAsync` and `reset`. */
export interface UseConnectResult
  extends MutationState<WalletConnection, ConnectVariables | undefined> {
  /** Connects (after `selectWallet` when a wallet is given); the outcome shows in the state. */
  connect(variables?: ConnectVariables): void
  /** As `connect`, and resolves with the connection or rejects with the `AppError`. */
  connectAsync(variables?: ConnectVariables): Promise<WalletConnection>
  reset(): void
}

/**
 * Connects a wallet: `connect({ walletId, namespace })` selects it and connects
 * (`client.selectWallet`, then `client.connect()`), `connect()` connects the selected connector.
 * `data` is the `WalletConnection`, `error` the `AppError` (`USER_REJECTED`, `WALLET_UNAVAILABLE`,
 * `ABORTED` after `cancel()`, … as `client.connect` documents). Uses the provider's client unless
 * one is given.
 */
export function useConnect(options: { client?: Client } = {}): UseConnectResult {
  const client = useClient(options.client)
  const { mutate, mutateAsync, ...state } = useMutation(
    async (variables: ConnectVariables | undefined) => {
      if (variables)
        await client.selectWallet(variables.walletId, { namespace: variables.namespace })
      return client.connect()
    },
  )
  return { ...state, connect: mutate, connectAsync: mutateAsync }
}
