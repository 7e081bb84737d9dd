import type { Client } from '../client/client'
import type { Caip2ChainId } from '../registry/types'
import { useClient } from './client-context'
import { type MutationState, useMutation } from './mutation'

/** The chain `switchChain` asks the wallet for (CAIP-2, e.g. `eip155:137`). */
export interface SwitchChainVariables {
  chainId: Caip2ChainId
}

/** What `useSwitchChain` returns: the last switch's state, `switchChain`, `switchChainAsync`, `reset`. */
export interface UseSwitchChainResult extends MutationState<Caip2ChainId, SwitchChainVariables> {
  /** Asks the wallet to switch; the chain or the error shows in the state. */
  switchChain(variables: SwitchChainVariables): void
  /** As `switchChain`, and resolves with the chain id or rejects with the `AppError`. */
  switchChainAsync(variables: SwitchChainVariables): Promise<Caip2ChainId>
  reset(): void
}

/**
 * Switches the connected wallet's chain (`client.switchChain`): `data` is the chain switched to,
 * `error` the `AppError` (`USER_REJECTED`, `UNSUPPORTED_CHAIN`, `NOT_CONNECTED`, `WALLET_ERROR`).
 * The new chain shows in `useConnection` and `useClientView` once the wallet reports it. Uses the
 * provider's client unless one is given.
 */
export function useSwitchChain(options: { client?: Client } = {}): UseSwitchChainResult {
  const client = useClient(options.client)
  const { mutate, mutateAsync, ...state } = useMutation(
    async ({ chainId }: SwitchChainVariables) => {
      await client.switchChain(chainId)
      return chainId
    },
  )
  return { ...state, switchChain: mutate, switchChainAsync: mutateAsync }
}
