import { createPublicClient, type Hash, http, type PublicClient } from 'viem'
import { parseCaip2 } from '../chains/caip'
import { createCoalescer } from '../chains/coalesce'
import { DEFAULT_TIMEOUT_MS } from '../chains/defaults'
import type { NetworkConfig } from '../chains/registry'
import { createSolanaRpc, type SolanaRpc } from '../chains/solana-rpc'
import { UpstreamError } from '../chains/types'
import { type BlockWatchers, createBlockWatchers } from './block-watcher'
import { type ReceiptCache, readEvmStatus } from './evm-status'
import type { TransactionFeed } from './feed'
import type { TransactionReport } from './report'
import { readSolanaSlot, readSolanaStatus } from './solana-status'

export interface TransactionServiceOptions {
  feed: TransactionFeed
  /** How often a watched chain's head is read at most; default 500 ms (faster chains: ¼ block). */
  blockPollMs?: number
  /** Per RPC request; default 3 s. */
  timeoutMs?: number
  fetch?: typeof fetch
  log?: { warn(obj: object, msg: string): void }
}

export interface TransactionService {
  /** Whether `chainId` has an RPC endpoint to read transactions from. */
  serves(chainId: string): boolean
  /** The hash as the chain writes it (EVM lower case); undefined when it is not one. */
  normalizeHash(chainId: string, hash: string): string | undefined
  /**
   * The transaction's status at the latest head. Reads of the same transaction at the same head
   * share one set of RPC calls, however many requests wait on it. UpstreamError when the chain
   * has no RPC endpoint or its node fails. `reuse`: a report already read at the current head
   * (by any request) is answered as is — for long-polls, which wake at each new head anyway; a
   * plain read asks the node.
   */
  read(chainId: string, hash: string, reuse?: boolean): Promise<TransactionReport>
  readonly watchers: BlockWatchers
  close(): void
}

interface ChainReader {
  readHead(): Promise<bigint>
  readStatus(hash: string, head: bigint): Promise<TransactionReport>
  normalizeHash(hash: string): string | undefined
}

const REPORTS_MAX = 10_000

/** Transaction status reads and the block watchers for every network with an `rpcUrl`. */
export function createTransactionService(
  networks: NetworkConfig[],
  options: TransactionServiceOptions,
): TransactionService {
  const readers = new Map<string, ChainReader>()
  const blockTimes = new Map(networks.map((network) => [network.chainId, network.blockTimeMs]))
  for (const { chainId, rpcUrl } of networks) {
    if (rpcUrl === undefined || readers.has(chainId)) continue
    const reader = createChainReader(chainId, rpcUrl, options)
    if (reader) readers.set(chainId, reader)
  }
  const readerOf = (chainId: string) => {
    const reader = readers.get(chainId)
    if (!reader) throw new UpstreamError(`chain ${chainId} has no RPC endpoint`)
    return reader
  }
  const coalesce = createCoalescer()
  // The last report of each transaction and its head: a request that starts (or renews its
  // long-poll) at a head already read costs the node nothing.
  const reports = new Map<string, { head: bigint; report: TransactionReport }>()
  const watchers = createBlockWatchers({
    readHead: (chainId) => readerOf(chainId).readHead(),
    feed: options.feed,
    blockTimeMs: (chainId) => blockTimes.get(chainId),
    ...(options.blockPollMs === undefined ? {} : { intervalMs: options.blockPollMs }),
    ...(options.log ? { log: options.log } : {}),
  })
  const headOf = (chainId: string): Promise<bigint> => {
    const watched = watchers.head(chainId)
    if (watched !== undefined) return Promise.resolve(watched)
    return coalesce(`head ${chainId}`, () => readerOf(chainId).readHead())
  }

  return {
    serves: (chainId) => readers.has(chainId),
    normalizeHash: (chainId, hash) => readers.get(chainId)?.normalizeHash(hash),
    async read(chainId, hash, reuse = false) {
      const reader = readerOf(chainId)
      try {
        const head = await headOf(chainId)
        const key = `${chainId} ${hash}`
        const known = reports.get(key)
        if (reuse && known?.head === head) return known.report
        const report = await coalesce(`${key} ${head}`, () => reader.readStatus(hash, head))
        reports.delete(key)
        reports.set(key, { head, report })
        if (reports.size > REPORTS_MAX) reports.delete(reports.keys().next().value as string)
        return report
      } catch (error) {
        if (error instanceof UpstreamError) throw error
        throw new UpstreamError(`${chainId} RPC: ${shortMessage(error)}`, { cause: error })
      }
    },
    watchers,
    close: () => watchers.close(),
  }
}

function createChainReader(
  chainId: string,
  rpcUrl: string,
  options: TransactionServiceOptions,
): ChainReader | undefined {
  const namespace = parseCaip2(chainId)?.namespace
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (namespace === 'eip155') {
    const receipts: ReceiptCache = new Map()
    const client: PublicClient = createPublicClient({
      cacheTime: 0,
      transport: http(rpcUrl, { timeout, retryCount: 1, fetchFn: options.fetch }),
    })
    return {
      readHead: () => client.getBlockNumber({ cacheTime: 0 }),
      readStatus: (hash, head) =>
        readEvmStatus(client, options.feed, receipts, chainId, hash as Hash, head),
      normalizeHash: (hash) => (/^0x[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : undefined),
    }
  }
  if (namespace === 'solana') {
    const rpc: SolanaRpc = createSolanaRpc({
      url: rpcUrl,
      timeoutMs: timeout,
      fetch: options.fetch,
    })
    return {
      readHead: () => readSolanaSlot(rpc),
      readStatus: (signature, head) => readSolanaStatus(rpc, signature, head),
      normalizeHash: (hash) => (/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(hash) ? hash : undefined),
    }
  }
  return undefined
}

/** viem's first line, without the request body it appends (which may be long). */
function shortMessage(error: unknown): string {
  const short = (error as { shortMessage?: unknown }).shortMessage
  if (typeof short === 'string') return short
  return error instanceof Error ? error.message.split('\n')[0]! : String(error)
}
