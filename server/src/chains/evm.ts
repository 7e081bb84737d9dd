import { createPublicClient, http, isAddress, type PublicClient } from 'viem'
import { DEFAULT_TIMEOUT_MS } from './defaults'
import { readEvmBalance } from './evm-balance'
import { verifyEvmSignature } from './evm-signature'
import { type ChainAdapter, ChainInputError } from './types'

export interface EvmAdapterOptions {
  /** `eip155:<decimal chain id>`. */
  chainId: string
  /** Needed for balances and for contract-wallet (ERC-1271/6492) signatures. */
  rpcUrl?: string
  /** Per HTTP request; default `DEFAULT_TIMEOUT_MS` (3 s). */
  timeoutMs?: number
  fetch?: typeof fetch
}

export function createEvmAdapter(options: EvmAdapterOptions): ChainAdapter {
  if (!/^eip155:[1-9][0-9]{0,31}$/.test(options.chainId)) {
    throw new ChainInputError(`not an eip155 chain id: ${options.chainId}`)
  }
  const client: PublicClient | undefined = options.rpcUrl
    ? createPublicClient({
        // cacheTime 0: a cached block number would pin reads to a stale block.
        cacheTime: 0,
        transport: http(options.rpcUrl, {
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          retryCount: 1,
          fetchFn: options.fetch,
        }),
      })
    : undefined

  return {
    namespace: 'eip155',
    isValidAddress: (address) => typeof address === 'string' && isAddress(address),
    verifySignature: (check) => verifyEvmSignature(check, client),
    readBalance: (request) => readEvmBalance(client, request),
  }
}
