import type { BalanceReadResult } from './types'

/**
 * Balances read at the newest block seen, by query key. A chain's state at a block never changes,
 * so a read pinned to a block already answered needs no upstream call. Only the newest block is
 * kept (older entries go when a newer block is first seen), and at most `maxEntries` of it.
 */
export interface BlockCache {
  get(block: bigint, key: string): BalanceReadResult | undefined
  set(block: bigint, key: string, result: BalanceReadResult): void
  /**
   * A transaction mined at `block` changed the balances of the accounts `touches(key)` names: their
   * entries of older blocks go (an entry of `block` or later was read after it, and stays), and so
   * does the whole older block once a read of `block` is stored.
   */
  settle(block: bigint, touches: (key: string) => boolean): void
}

export const DEFAULT_BLOCK_CACHE_ENTRIES = 10_000

export function createBlockCache(maxEntries = DEFAULT_BLOCK_CACHE_ENTRIES): BlockCache {
  let current: bigint | undefined
  let entries = new Map<string, BalanceReadResult>()
  const advance = (block: bigint) => {
    if (current === undefined || block > current) {
      current = block
      entries = new Map()
    }
  }
  return {
    get(block, key) {
      return block === current ? entries.get(key) : undefined
    },
    set(block, key, result) {
      advance(block)
      if (block === current && entries.size < maxEntries) entries.set(key, result)
    },
    settle(block, touches) {
      if (current === undefined || current >= block) return
      for (const key of [...entries.keys()]) if (touches(key)) entries.delete(key)
    },
  }
}
