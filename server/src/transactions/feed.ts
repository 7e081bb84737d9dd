/**
 * What the instances of one deployment share about transactions: which instance reads a chain's
 * head (a lease), the heads it read (announced), and what they saw of pending transactions
 * (sender and nonce, so a replacement is recognised by any instance).
 */
export interface TransactionFeed {
  readonly kind: 'memory' | 'redis'
  /**
   * Whether this instance should read `chainId`'s head now: it holds the chain's lease (taken or
   * extended here for `leaseMs`). When the feed cannot tell (Redis down) it answers true: a head
   * read twice costs an RPC call, a head read by nobody stalls every waiter.
   */
  lead(chainId: string, leaseMs: number): Promise<boolean>
  /** Tells the other instances that `chainId`'s head is now `head`. Never rejects. */
  publish(chainId: string, head: bigint): Promise<void>
  /** Heads of `chainId` read by other instances. Returns the function that stops listening. */
  subscribe(chainId: string, onHead: (head: bigint) => void): () => void
  /** Keeps what was seen of a pending transaction (for an hour). Never rejects. */
  remember(chainId: string, hash: string, seen: SeenTransaction): Promise<void>
  recall(chainId: string, hash: string): Promise<SeenTransaction | undefined>
  close(): Promise<void>
}

/** A pending transaction as the node showed it. JSON-safe (stored in Redis as JSON). */
export interface SeenTransaction {
  from: string
  nonce: number
  /** The head when it was seen pending: a replacement cannot be mined before it. */
  seenAtBlock: string
  /** Set once the replacement was found, so it is looked for once. */
  replacedBy?: string
  /**
   * The last block the replacement search read (decimal) without finding it: the next search
   * starts after it, so no block is searched twice.
   */
  searchedTo?: string
}

/** How long a seen transaction is kept. */
export const SEEN_TTL_MS = 60 * 60 * 1000
/** The in-process store keeps at most this many; the oldest go first. */
const SEEN_MAX = 100_000

/** One process: it always leads, and nobody else listens. */
export function createMemoryTransactionFeed(now: () => number = Date.now): TransactionFeed {
  const seen = new Map<string, { value: SeenTransaction; until: number }>()
  return {
    kind: 'memory',
    lead: async () => true,
    publish: async () => {},
    subscribe: () => () => {},
    async remember(chainId, hash, value) {
      const key = `${chainId} ${hash}`
      seen.delete(key)
      seen.set(key, { value, until: now() + SEEN_TTL_MS })
      if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value as string)
    },
    async recall(chainId, hash) {
      const entry = seen.get(`${chainId} ${hash}`)
      if (!entry || entry.until <= now()) return undefined
      return entry.value
    },
    async close() {
      seen.clear()
    },
  }
}
