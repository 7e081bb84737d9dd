import type { TransactionFeed } from './feed'

export interface BlockWatchersOptions {
  /** One RPC read of a chain's head (block number, or slot on Solana). */
  readHead(chainId: string): Promise<bigint>
  feed: TransactionFeed
  /**
   * How often the leading instance reads a watched chain's head at most; default 500 ms. A chain
   * whose blocks come faster is read every quarter block (at least every `MIN_BLOCK_POLL_MS`).
   */
  intervalMs?: number
  /** The chain's block time when the project configures it (`blockTimeMs`); else measured here. */
  blockTimeMs?: (chainId: string) => number | undefined
  now?: () => number
  log?: { warn(obj: object, msg: string): void }
}

export interface BlockWatchers {
  /**
   * Calls `listener` with each new head of `chainId`, read here or announced by another instance.
   * The chain is read only while it has a watcher, and once per interval whatever their number.
   * Returns the function that stops watching.
   */
  watch(chainId: string, listener: (head: bigint) => void): () => void
  /** The latest head seen of a watched chain; undefined when nobody watches it. */
  head(chainId: string): bigint | undefined
  /** Head reads sent to the chains since start (tests, benchmarks). */
  readonly headReads: number
  close(): void
}

export const DEFAULT_BLOCK_POLL_MS = 500
/** The shortest head poll a fast chain gets. */
export const MIN_BLOCK_POLL_MS = 100
/** Weight of the newest head change in the measured block time (a moving average). */
const BLOCK_TIME_WEIGHT = 0.3

/**
 * The head poll for a chain of `blockTimeMs`: a quarter block, so a new block is seen within a
 * quarter of its time, between `MIN_BLOCK_POLL_MS` and `intervalMs` (unknown block time: `intervalMs`).
 */
export function headPollMs(intervalMs: number, blockTimeMs: number | undefined): number {
  if (blockTimeMs === undefined || blockTimeMs <= 0) return intervalMs
  return Math.max(Math.min(MIN_BLOCK_POLL_MS, intervalMs), Math.min(intervalMs, blockTimeMs / 4))
}

interface ChainWatch {
  listeners: Set<(head: bigint) => void>
  head?: bigint
  /** When `head` was first seen (ms), to measure the block time. */
  headAt?: number
  timer?: ReturnType<typeof setTimeout>
  /** Set while nobody watches: the watch ends when it fires, unless someone comes back. */
  linger?: ReturnType<typeof setTimeout>
  stopFeed: () => void
}

/**
 * One watcher per chain, shared by every waiting request: polls the head while anyone waits (the
 * lease of `feed` lets one instance of a deployment poll, the others hear its announcements).
 */
export function createBlockWatchers(options: BlockWatchersOptions): BlockWatchers {
  const intervalMs = options.intervalMs ?? DEFAULT_BLOCK_POLL_MS
  const now = options.now ?? Date.now
  // Long enough to survive a slow read, short enough that a dead leader is replaced quickly.
  const leaseMs = Math.max(3 * intervalMs, 2_000)
  const lingerMs = 4 * intervalMs
  const chains = new Map<string, ChainWatch>()
  // The block time measured from the heads seen (ms, a moving average), kept when a watch ends:
  // the next one polls at the chain's pace from its start.
  const measured = new Map<string, number>()
  let headReads = 0
  let failureLogged = false

  const advance = (chainId: string, watch: ChainWatch, head: bigint): boolean => {
    if (watch.head !== undefined && head <= watch.head) return false
    const at = now()
    if (watch.head !== undefined && watch.headAt !== undefined) {
      const perBlock = (at - watch.headAt) / Number(head - watch.head)
      const known = measured.get(chainId)
      measured.set(
        chainId,
        known === undefined ? perBlock : known + BLOCK_TIME_WEIGHT * (perBlock - known),
      )
    }
    watch.head = head
    watch.headAt = at
    for (const listener of [...watch.listeners]) {
      try {
        listener(head)
      } catch {
        // One waiter's failure must not keep the others waiting.
      }
    }
    return true
  }

  const tick = async (chainId: string, watch: ChainWatch) => {
    try {
      if (await options.feed.lead(chainId, leaseMs)) {
        headReads++
        const head = await options.readHead(chainId)
        failureLogged = false
        if (chains.get(chainId) === watch && advance(chainId, watch, head)) {
          await options.feed.publish(chainId, head)
        }
      }
    } catch (err) {
      // The waiters answer at the end of their wait; the next tick tries again.
      if (!failureLogged) {
        failureLogged = true
        options.log?.warn({ chainId, err: String(err) }, 'block watcher: head read failed')
      }
    }
    if (chains.get(chainId) !== watch) return
    const blockTime = options.blockTimeMs?.(chainId) || measured.get(chainId)
    watch.timer = setTimeout(() => void tick(chainId, watch), headPollMs(intervalMs, blockTime))
    watch.timer.unref?.()
  }

  const start = (chainId: string): ChainWatch => {
    const watch: ChainWatch = { listeners: new Set(), stopFeed: () => {} }
    watch.stopFeed = options.feed.subscribe(chainId, (head) => advance(chainId, watch, head))
    chains.set(chainId, watch)
    void tick(chainId, watch)
    return watch
  }

  const stop = (chainId: string, watch: ChainWatch) => {
    clearTimeout(watch.timer)
    clearTimeout(watch.linger)
    watch.stopFeed()
    chains.delete(chainId)
  }

  return {
    watch(chainId, listener) {
      const watch = chains.get(chainId) ?? start(chainId)
      clearTimeout(watch.linger)
      const entry = (head: bigint) => listener(head)
      watch.listeners.add(entry)
      return () => {
        watch.listeners.delete(entry)
        if (watch.listeners.size > 0 || chains.get(chainId) !== watch) return
        // A waiter answered at a new head usually comes back at once with its next long-poll:
        // the watch lingers a few intervals rather than restarting (and re-reading the head).
        clearTimeout(watch.linger)
        watch.linger = setTimeout(() => {
          if (watch.listeners.size === 0 && chains.get(chainId) === watch) stop(chainId, watch)
        }, lingerMs)
        watch.linger.unref?.()
      }
    },
    head: (chainId) => chains.get(chainId)?.head,
    get headReads() {
      return headReads
    },
    close() {
      for (const [chainId, watch] of [...chains]) stop(chainId, watch)
    },
  }
}
