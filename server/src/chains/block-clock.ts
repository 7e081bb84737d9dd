/**
 * The latest block number of one chain, asked of the node at most once per `ttl`: every read in
 * that time is pinned to the same block, so it can answer from the per-block cache.
 *
 * The rule (docs/chains.md, "Per-block cache"): the number is kept for a quarter of the chain's
 * block time, at most 3 s. The block time is the network's `blockTimeMs` when configured, else
 * measured from the numbers the node answers (seconds between two sightings over the blocks between
 * them, smoothed), and 1 s until measured. A quarter means a read lags a new block by at most a
 * quarter block, and a chain of 12 s blocks is asked once per 3 s instead of once per read.
 */
export interface BlockClock {
  latest(): Promise<bigint>
  /** The number in hand while it may still be reused, else undefined (nothing is fetched). */
  fresh(): bigint | undefined
  /** A number learnt another way (Multicall3's getBlockNumber in a batch), kept like a fetched one. */
  record(number: bigint): void
  /** How long a fetched number is reused now, in ms. */
  ttlMs(): number
}

export interface BlockClockOptions {
  fetchLatest: () => Promise<bigint>
  /** The chain's block time in ms (0: never reuse a number); measured when absent. */
  blockTimeMs?: number
  now?: () => number
}

export const BLOCK_TTL_FRACTION = 0.25
export const MAX_BLOCK_TTL_MS = 3_000
export const UNMEASURED_BLOCK_TIME_MS = 1_000
const SMOOTHING = 0.3

export function createBlockClock(options: BlockClockOptions): BlockClock {
  const now = options.now ?? Date.now
  let measuredMs: number | undefined
  let cached: { number: bigint; fetchedAt: number } | undefined
  let firstSeen: { number: bigint; at: number } | undefined
  let inFlight: Promise<bigint> | undefined

  const ttlMs = () => {
    const blockTime = options.blockTimeMs ?? measuredMs ?? UNMEASURED_BLOCK_TIME_MS
    return Math.min(MAX_BLOCK_TTL_MS, blockTime * BLOCK_TTL_FRACTION)
  }

  const observe = (number: bigint, at: number) => {
    if (firstSeen && number > firstSeen.number) {
      const sample = (at - firstSeen.at) / Number(number - firstSeen.number)
      measuredMs =
        measuredMs === undefined ? sample : measuredMs + SMOOTHING * (sample - measuredMs)
    }
    if (!firstSeen || number > firstSeen.number) firstSeen = { number, at }
  }

  const record = (number: bigint): bigint => {
    const fetchedAt = now()
    observe(number, fetchedAt)
    // A node behind a load balancer may answer an older number; keep the newest.
    if (!cached || number >= cached.number) cached = { number, fetchedAt }
    return cached.number
  }

  return {
    ttlMs,
    record: (number) => void record(number),
    fresh: () => (cached && now() - cached.fetchedAt < ttlMs() ? cached.number : undefined),
    latest() {
      const at = now()
      if (cached && at - cached.fetchedAt < ttlMs()) return Promise.resolve(cached.number)
      // Concurrent reads past the ttl share one eth_blockNumber.
      inFlight ??= options
        .fetchLatest()
        .then(record)
        .finally(() => {
          inFlight = undefined
        })
      return inFlight
    },
  }
}
