import { parseCaip2 } from './caip'
import { createCoalescer } from './coalesce'
import { DEFAULT_READ_BUDGET_MS } from './defaults'
import { createEvmAdapter } from './evm'
import { createSolanaAdapter } from './solana'
import { type BalanceReadRequest, type ChainAdapter, UpstreamError } from './types'

export interface NetworkConfig {
  chainId: string
  rpcUrl?: string
}

export interface ChainRegistryOptions {
  /** Per upstream request; default `DEFAULT_TIMEOUT_MS` (3 s). */
  timeoutMs?: number
  /**
   * A whole balance read, every upstream request and retry included; default
   * `DEFAULT_READ_BUDGET_MS` (6 s, under the 10 s shutdown grace). Past it: UpstreamError.
   */
  readBudgetMs?: number
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
  const budgetMs = options.readBudgetMs ?? DEFAULT_READ_BUDGET_MS
  const { readBudgetMs: _budget, ...adapterOptions } = options
  const coalesce = createCoalescer()
  const adapters = new Map<string, ChainAdapter>()
  for (const [chainId, rpcUrl] of rpcUrls) {
    const namespace = parseCaip2(chainId)?.namespace
    if (namespace !== 'eip155' && namespace !== 'solana') {
      throw new Error(
        `unsupported chain ${JSON.stringify(chainId)}: namespace must be eip155 or solana`,
      )
    }
    const adapter = FACTORIES[namespace]({ chainId, rpcUrl, ...adapterOptions })
    adapters.set(chainId, {
      namespace: adapter.namespace,
      isValidAddress: (address) => adapter.isValidAddress(address),
      verifySignature: (check) => withinBudget(adapter.verifySignature(check), budgetMs, chainId),
      readBalance: (request) =>
        coalesce(balanceKey(adapter.namespace, chainId, request), () =>
          withinBudget(adapter.readBalance({ ...request, chainId }), budgetMs, chainId),
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

/** Rejects with UpstreamError once `budgetMs` pass; the read itself is left to its own timeouts. */
function withinBudget<T>(read: Promise<T>, budgetMs: number, chainId: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new UpstreamError(`${chainId} RPC: call timed out after ${budgetMs} ms`)),
      budgetMs,
    )
  })
  return Promise.race([read, deadline]).finally(() => clearTimeout(timer))
}
