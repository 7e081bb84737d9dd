import { parseCaip2 } from './caip'
import { createCoalescer } from './coalesce'
import { DEFAULT_READ_BUDGET_MS } from './defaults'
import { createEvmAdapter } from './evm'
import { createSolanaAdapter } from './solana'
import {
  type BalanceOutcome,
  type BalanceReadRequest,
  type ChainAdapter,
  UpstreamError,
} from './types'
import { guardUpstream } from './upstream-guard'

export interface NetworkConfig {
  chainId: string
  rpcUrl?: string
  /** EVM: a `ws(s)://` endpoint for reads over one persistent socket, `rpcUrl` the fallback. */
  wsUrl?: string
  /** EVM: Multicall3's address when not the canonical one; `null` when the chain has none. */
  multicall3?: string | null
  /** EVM: the block time in ms, for the block-number cache; measured when absent. */
  blockTimeMs?: number
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
  /**
   * Upstream HTTP requests in flight per chain (balance reads, single and batch); the rest wait
   * in line. Default `DEFAULT_UPSTREAM_CONCURRENCY` (8).
   */
  upstreamConcurrency?: number
  /**
   * Bytes of one upstream answer; past it the read fails 502 `UPSTREAM_TOO_LARGE`. Default
   * `DEFAULT_MAX_RESPONSE_BYTES` (4 MiB).
   */
  maxResponseBytes?: number
}

export interface ChainRegistry {
  get(chainId: string): ChainAdapter | undefined
  /** Lets go of the adapters' long-lived connections (EVM WebSockets). */
  close?(): void
}

/**
 * One adapter per configured chain. Throws at start for an id it cannot serve, so a bad projects
 * file fails loudly instead of on the first request. Balance reads are coalesced per registry.
 */
export function createChainRegistry(
  networks: NetworkConfig[],
  options: ChainRegistryOptions = {},
): ChainRegistry {
  const chains = collectNetworks(networks)
  const budgetMs = options.readBudgetMs ?? DEFAULT_READ_BUDGET_MS
  const {
    readBudgetMs: _budget,
    upstreamConcurrency,
    maxResponseBytes,
    fetch: baseFetch,
    ...adapterOptions
  } = options
  const coalesce = createCoalescer()
  const adapters = new Map<string, ChainAdapter>()
  const closers: (() => void)[] = []
  for (const [chainId, network] of chains) {
    const namespace = parseCaip2(chainId)?.namespace
    if (namespace !== 'eip155' && namespace !== 'solana') {
      throw new Error(
        `unsupported chain ${JSON.stringify(chainId)}: namespace must be eip155 or solana`,
      )
    }
    if (namespace === 'solana' && network.wsUrl !== undefined) {
      // Solana's WebSocket API serves subscriptions, not getMultipleAccounts or getBalance.
      throw new Error(`chain ${chainId}: wsUrl is for EVM chains; Solana reads go to rpcUrl`)
    }
    // One bounded upstream per chain: its own line of waiting requests and its size cap.
    const fetch = guardUpstream({
      ...(upstreamConcurrency === undefined ? {} : { concurrency: upstreamConcurrency }),
      ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
      ...(baseFetch === undefined ? {} : { fetch: baseFetch }),
    })
    const adapter =
      namespace === 'eip155'
        ? createEvmAdapter({ ...network, ...adapterOptions, fetch })
        : createSolanaAdapter({ chainId, rpcUrl: network.rpcUrl, ...adapterOptions, fetch })
    closers.push(() => adapter.close?.())
    adapters.set(chainId, {
      namespace: adapter.namespace,
      isValidAddress: (address) => adapter.isValidAddress(address),
      verifySignature: (check) => withinBudget(adapter.verifySignature(check), budgetMs, chainId),
      readBalance: (request) =>
        coalesce(balanceKey(adapter.namespace, chainId, request), () =>
          withinBudget(adapter.readBalance({ ...request, chainId }), budgetMs, chainId),
        ),
      readBalances: (requests) =>
        withinBudget(
          adapter.readBalances(requests.map((request) => ({ ...request, chainId }))),
          budgetMs,
          chainId,
        ).catch((error: unknown) => requests.map(() => failed(error))),
      upstreamCalls: (requests) =>
        adapter.upstreamCalls?.(requests.map((request) => ({ ...request, chainId }))) ??
        requests.length,
      settled: (touch) => adapter.settled?.(touch),
    })
  }
  return {
    get: (chainId) => adapters.get(chainId),
    close: () => {
      for (const close of closers) close()
    },
  }
}

/**
 * The same chain may be listed by several projects; two different settings for it (RPC or
 * WebSocket URL, Multicall3, block time) is a mistake.
 */
function collectNetworks(networks: NetworkConfig[]): Map<string, NetworkConfig> {
  const byChain = new Map<string, NetworkConfig>()
  for (const network of networks) {
    const known = byChain.get(network.chainId) ?? { chainId: network.chainId }
    const merged: NetworkConfig = { ...known }
    for (const field of ['rpcUrl', 'wsUrl', 'multicall3', 'blockTimeMs'] as const) {
      const value = network[field]
      if (value === undefined) continue
      if (known[field] !== undefined && known[field] !== value) {
        const name = field === 'rpcUrl' || field === 'wsUrl' ? `${field}s` : `${field} values`
        throw new Error(`chain ${network.chainId} is configured with two different ${name}`)
      }
      Object.assign(merged, { [field]: value })
    }
    byChain.set(network.chainId, merged)
  }
  return byChain
}

/** A batch past its budget still answers: every query gets the chain's UpstreamError. */
function failed(error: unknown): BalanceOutcome {
  return {
    ok: false,
    error:
      error instanceof UpstreamError
        ? error
        : new UpstreamError(`balance read failed: ${String(error)}`, { cause: error }),
  }
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
