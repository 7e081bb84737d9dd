import { parseCaip2 } from './caip'
import { createCoalescer } from './coalesce'
import { createEvmAdapter } from './evm'
import { createSolanaAdapter } from './solana'
import type { BalanceReadRequest, ChainAdapter } from './types'

export interface NetworkConfig {
  chainId: string
  rpcUrl?: string
}

export interface ChainRegistryOptions {
  /** Per upstream request. */
  timeoutMs?: number
  fetch?: typeof fetch
}

export interface ChainRegistry {
  get(chainId: string): ChainAdapter | undefined
}

const FACTORIES = { eip155: createEvmAdapter, solana: createSolanaAdapter } as const

/**
 * One adapter per configured chain. Throws at start for an id it cannot serve, so a bad projects
 * file fails loudly instead of on the first request. Balance reads are coalesced per registry.
 */
export function createChainRegistry(
  networks: NetworkConfig[],
  options: ChainRegistryOptions = {},
): ChainRegistry {
  const rpcUrls = collectRpcUrls(networks)
  const coalesce = createCoalescer()
  const adapters = new Map<string, ChainAdapter>()
  for (const [chainId, rpcUrl] of rpcUrls) {
    const namespace = parseCaip2(chainId)?.namespace
    if (namespace !== 'eip155' && namespace !== 'solana') {
      throw new Error(
        `unsupported chain ${JSON.stringify(chainId)}: namespace must be eip155 or solana`,
      )
    }
    const adapter = FACTORIES[namespace]({ chainId, rpcUrl, ...options })
    adapters.set(chainId, {
      namespace: adapter.namespace,
      isValidAddress: (address) => adapter.isValidAddress(address),
      verifySignature: (check) => adapter.verifySignature(check),
      readBalance: (request) =>
        coalesce(balanceKey(adapter.namespace, chainId, request), () =>
          adapter.readBalance({ ...request, chainId }),
        ),
    })
  }
  return { get: (chainId) => adapters.get(chainId) }
}

/** The same chain may be listed by several projects; two different RPC URLs for it is a mistake. */
function collectRpcUrls(networks: NetworkConfig[]): Map<string, string | undefined> {
  const rpcUrls = new Map<string, string | undefined>()
  for (const { chainId, rpcUrl } of networks) {
    const known = rpcUrls.get(chainId)
    if (known !== undefined && rpcUrl !== undefined && known !== rpcUrl) {
      throw new Error(`chain ${chainId} is configured with two different rpcUrls`)
    }
    rpcUrls.set(chainId, known ?? rpcUrl)
  }
  return rpcUrls
}

/** EVM hex addresses are case-insensitive; base58 is not. */
function balanceKey(namespace: string, chainId: string, request: BalanceReadRequest): string {
  const fold = (value: string) =>
    namespace === 'eip155' && typeof value === 'string' ? value.toLowerCase() : value
  return JSON.stringify([
    chainId,
    fold(request.tokenAddress),
    fold(request.account),
    request.decimals ?? null,
  ])
}
