import { createPublicClient, type Hash, http, type PublicClient } from 'viem'
import { parseCaip2 } from '../chains/caip'
import { createCoalescer } from '../chains/coalesce'
import { DEFAULT_TIMEOUT_MS } from '../chains/defaults'
import type { NetworkConfig } from '../chains/registry'
import { createSolanaRpc, type SolanaRpc } from '../chains/solana-rpc'
import { type SettledTransaction, UpstreamError } from '../chains/types'
import { type BlockWatchers, createBlockWatchers } from './block-watcher'
import { createEvmHeadScan, type ReceiptCache, readEvmStatus } from './evm-status'
import type { TransactionFeed } from './feed'
import { type HeadFlag, headFlag } from './head-flag'
import type { TransactionReport } from './report'
import { createSolanaHeadScan, readSolanaSlot, readSolanaStatus } from './solana-status'
import type { ScanHeads, Tracked } from './tracker'

/** How many long-polls may wait at once on one instance: per caller, and in all. */
export interface WaiterLimits {
  /** Per caller (app key and client IP, as the rate limit's window); default 100. */
  perCaller: number
  /** In all; default 10,000. */
  total: number
}

export const DEFAULT_WAITER_LIMITS: WaiterLimits = { perCaller: 100, total: 10_000 }
/** How long a transaction nobody waits on any more stays tracked (its waiter's next long-poll). */
const TRACK_LINGER_MS = 10_000

export interface TransactionServiceOptions {
  feed: TransactionFeed
  /** How often a watched chain's head is read at most; default 500 ms (faster chains: ¼ block). */
  blockPollMs?: number
  /** Per RPC request; default 3 s. */
  timeoutMs?: number
  fetch?: typeof fetch
  log?: { warn(obj: object, msg: string): void }
  /**
   * Told of each receipt read (its chain, block and the accounts it touched): the balance
   * readers end their per-block cache for those accounts (`ChainAdapter.settled`).
   */
  onSettled?: (chainId: string, touch: SettledTransaction) => void
  /** Long-polls waiting at once; `DEFAULT_WAITER_LIMITS` by default. */
  waiters?: Partial<WaiterLimits>
  now?: () => number
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
   * plain read asks the node. `woken`: a followed wait's read after its flag rose, answered from
   * the chain's scan; at a wait's start a followed transaction the node did not know (`unknown`,
   * not replaced) is asked again once per head instead, as the scans only see it once mined (one
   * call per request, so a transaction that reaches the mempool later reads `pending` by the next
   * long-poll).
   */
  read(chainId: string, hash: string, reuse?: boolean, woken?: boolean): Promise<TransactionReport>
  /**
   * A long-poll's wait on `hash`: the flag rises after each new head of the chain once every
   * followed transaction of the chain was brought to it (one chain-wide scan per head, whatever
   * the number of waiters; `read(…, true)` then answers from it). Undefined when `caller` already
   * has `WaiterLimits.perCaller` waits, or the instance `total`. Call `stop` when the wait ends.
   */
  follow(chainId: string, hash: string, caller: string): HeadFlag | undefined
  /** Long-polls following a transaction now. */
  readonly waiting: number
  readonly watchers: BlockWatchers
  close(): void
}

interface ChainReader {
  readHead(): Promise<bigint>
  readStatus(hash: string, head: bigint): Promise<TransactionReport>
  normalizeHash(hash: string): string | undefined
  scan: ScanHeads
}

/** The followed transactions of one chain and the head they were last brought to. */
interface ChainTrack {
  tracked: Map<string, Tracked>
  scannedTo?: bigint
  /** The scan in progress (or the last one, settled): scans run one at a time, in head order. */
  scanning: Promise<void>
  wakers: Set<() => void>
  refs: number
  stopWatch: () => void
  linger?: ReturnType<typeof setTimeout>
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
  const now = options.now ?? Date.now
  const limits = { ...DEFAULT_WAITER_LIMITS, ...options.waiters }
  const tracks = new Map<string, ChainTrack>()
  const callers = new Map<string, number>()
  let waiting = 0
  let scanFailureLogged = false

  const scan = async (chainId: string, track: ChainTrack, head: bigint) => {
    if (track.scannedTo !== undefined && head <= track.scannedTo) return
    const at = now()
    for (const [hash, entry] of track.tracked) {
      if (entry.refs === 0 && at - entry.releasedAt >= TRACK_LINGER_MS) track.tracked.delete(hash)
    }
    try {
      await readerOf(chainId).scan(track.tracked, track.scannedTo, head)
      track.scannedTo = head
      scanFailureLogged = false
    } catch (err) {
      // The entries keep their reports; the next head scans the blocks missed here too.
      if (!scanFailureLogged) {
        scanFailureLogged = true
        options.log?.warn({ chainId, err: shortMessage(err) }, 'transactions: head scan failed')
      }
      return
    }
    for (const wake of [...track.wakers]) wake()
  }

  const trackOf = (chainId: string): ChainTrack => {
    let track = tracks.get(chainId)
    if (!track) {
      const created: ChainTrack = {
        tracked: new Map(),
        scanning: Promise.resolve(),
        wakers: new Set(),
        refs: 0,
        stopWatch: () => {},
      }
      created.stopWatch = watchers.watch(chainId, (head) => {
        created.scanning = created.scanning.then(() => scan(chainId, created, head))
      })
      tracks.set(chainId, created)
      track = created
    }
    clearTimeout(track.linger)
    return track
  }

  const headOf = (chainId: string): Promise<bigint> => {
    const watched = watchers.head(chainId)
    if (watched !== undefined) return Promise.resolve(watched)
    return coalesce(`head ${chainId}`, () => readerOf(chainId).readHead())
  }

  return {
    serves: (chainId) => readers.has(chainId),
    normalizeHash: (chainId, hash) => readers.get(chainId)?.normalizeHash(hash),
    async read(chainId, hash, reuse = false, woken = false) {
      const reader = readerOf(chainId)
      try {
        const track = tracks.get(chainId)
        const entry = track?.tracked.get(hash)
        if (reuse && track && entry) {
          await track.scanning
          const current = watchers.head(chainId)
          const { report } = entry
          const unseen = report?.status === 'unknown' && report.replacedBy === undefined
          if (
            report &&
            (woken || !unseen) &&
            !entry.stale &&
            current !== undefined &&
            entry.head >= current
          ) {
            return report
          }
        }
        const head = await headOf(chainId)
        const key = `${chainId} ${hash}`
        const known = reports.get(key)
        let report: TransactionReport
        if (reuse && known?.head === head) {
          report = known.report
        } else {
          report = await coalesce(`${key} ${head}`, () => reader.readStatus(hash, head))
          reports.delete(key)
          reports.set(key, { head, report })
          if (reports.size > REPORTS_MAX) reports.delete(reports.keys().next().value as string)
        }
        // A followed transaction: the chain's scans keep this report up to date from here.
        if (entry && (entry.report === undefined || entry.stale || head >= entry.head)) {
          entry.report = report
          entry.head = head
          entry.stale = false
        }
        return report
      } catch (error) {
        if (error instanceof UpstreamError) throw error
        throw new UpstreamError(`${chainId} RPC: ${shortMessage(error)}`, { cause: error })
      }
    },
    follow(chainId, hash, caller) {
      const mine = callers.get(caller) ?? 0
      if (mine >= limits.perCaller || waiting >= limits.total) return undefined
      callers.set(caller, mine + 1)
      waiting++
      const track = trackOf(chainId)
      let entry = track.tracked.get(hash)
      if (!entry) {
        entry = { head: -1n, stale: false, refs: 0, releasedAt: 0 }
        track.tracked.set(hash, entry)
      }
      const followed = entry
      followed.refs++
      track.refs++
      let stopped = false
      return headFlag((wake) => {
        track.wakers.add(wake)
        return () => {
          if (stopped) return
          stopped = true
          track.wakers.delete(wake)
          const left = (callers.get(caller) ?? 1) - 1
          if (left > 0) callers.set(caller, left)
          else callers.delete(caller)
          waiting--
          followed.refs--
          if (followed.refs === 0) followed.releasedAt = now()
          if (--track.refs > 0) return
          clearTimeout(track.linger)
          track.linger = setTimeout(() => {
            if (track.refs > 0 || tracks.get(chainId) !== track) return
            tracks.delete(chainId)
            track.stopWatch()
          }, TRACK_LINGER_MS)
          track.linger.unref?.()
        }
      })
    },
    get waiting() {
      return waiting
    },
    watchers,
    close: () => {
      for (const track of tracks.values()) {
        clearTimeout(track.linger)
        track.stopWatch()
      }
      tracks.clear()
      watchers.close()
    },
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
    const onSettled = options.onSettled
      ? (touch: SettledTransaction) => options.onSettled!(chainId, touch)
      : undefined
    const client: PublicClient = createPublicClient({
      cacheTime: 0,
      transport: http(rpcUrl, { timeout, retryCount: 1, fetchFn: options.fetch }),
    })
    return {
      readHead: () => client.getBlockNumber({ cacheTime: 0 }),
      readStatus: (hash, head) =>
        readEvmStatus(client, options.feed, receipts, chainId, hash as Hash, head, onSettled),
      scan: createEvmHeadScan(client, options.feed, receipts, chainId, onSettled),
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
      scan: createSolanaHeadScan(rpc),
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
