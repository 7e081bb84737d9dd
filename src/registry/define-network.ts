import { networkEntry } from './custom-networks'
import type { Caip2ChainId, NativeCurrency, NetworkInfo } from './types'

/**
 * A chain described as viem's `defineChain` describes it (a viem `Chain` object fits as is): `id`
 * the EVM chain id, or a CAIP-2 id for a Solana cluster.
 */
export interface NetworkDefinition {
  /** The EVM chain id (`59144`), or a CAIP-2 id (`eip155:59144`, `solana:<genesis-hash prefix>`). */
  id: number | string
  name: string
  nativeCurrency: NativeCurrency
  /** Public endpoints; `default.http` is what `wallet_addEthereumChain` gives a wallet. */
  rpcUrls?: { default: { http: readonly string[] } }
  blockExplorers?: { default: { name?: string; url: string } }
  testnet?: boolean
  contracts?: { multicall3?: { address: string } }
}

/**
 * A network the built-in registry lacks, as a `NetworkInfo`: pass it to `new Client({ networks })`
 * or `registerNetworks`, after which every lookup, the Client (`switchChain` adds it to a wallet
 * that answers 4902) and the UI (its name) know it. Pure: it registers nothing itself.
 * @throws AppError `INVALID_CONFIG` when the definition is not a valid network (the field named).
 */
export function defineNetwork(definition: NetworkDefinition): NetworkInfo {
  const d = (definition ?? {}) as Partial<NetworkDefinition>
  const chainId = (typeof d.id === 'number' ? `eip155:${d.id}` : d.id) as Caip2ChainId
  const url = d.blockExplorers?.default?.url
  const rpcUrls = d.rpcUrls?.default?.http
  const multicall3 = d.contracts?.multicall3?.address
  return networkEntry(
    {
      chainId,
      namespace: 'eip155',
      reference: '',
      name: d.name as string,
      nativeCurrency: d.nativeCurrency as NativeCurrency,
      testnet: d.testnet ?? false,
      ...(url === undefined ? {} : { blockExplorerUrl: url }),
      ...(rpcUrls === undefined ? {} : { rpcUrls }),
      ...(multicall3 === undefined ? {} : { multicall3 }),
    },
    'defineNetwork',
  )
}
