import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createBlockWatchers,
  DEFAULT_BLOCK_POLL_MS,
  headPollMs,
  MIN_BLOCK_POLL_MS,
} from '../src/transactions/block-watcher'
import { createMemoryTransactionFeed } from '../src/transactions/feed'

// The block watcher's head poll follows the chain's block time: a quarter block, between
// MIN_BLOCK_POLL_MS and the configured interval. Simulated clock (vitest fake timers); the chain
// is a head that advances every `blockMs` of that clock.

afterEach(() => {
  vi.useRealTimers()
})

describe('headPollMs', () => {
  it('is a quarter block, capped by the interval and floored at MIN_BLOCK_POLL_MS', () => {
    expect(headPollMs(500, 1_000)).toBe(250)
    expect(headPollMs(500, 12_000)).toBe(500)
    expect(headPollMs(500, 200)).toBe(MIN_BLOCK_POLL_MS)
    // An interval already under the floor is kept (tests poll every 50 ms).
    expect(headPollMs(50, 200)).toBe(50)
    expect(headPollMs(500, undefined)).toBe(500)
    expect(headPollMs(500, 0)).toBe(500)
  })
})

function chain(blockMs: number) {
  const start = Date.now()
  let reads = 0
  return {
    readHead: async () => {
      reads++
      return BigInt(Math.floor((Date.now() - start) / blockMs))
    },
    reads: () => reads,
  }
}

describe('createBlockWatchers: the head poll adapts to the block time', () => {
  it('measured: 1 s blocks are read every ~250 ms once two new heads were seen', async () => {
    vi.useFakeTimers()
    const node = chain(1_000)
    const watchers = createBlockWatchers({
      readHead: node.readHead,
      feed: createMemoryTransactionFeed(),
    })
    watchers.watch('eip155:1', () => {})
    await vi.advanceTimersByTimeAsync(3_000) // learns the block time
    const before = node.reads()
    await vi.advanceTimersByTimeAsync(5_000)
    // 5 s at 250 ms is 20 reads; at the fixed 500 ms it would be 10.
    expect(node.reads() - before).toBeGreaterThanOrEqual(17)
    expect(node.reads() - before).toBeLessThanOrEqual(22)
    watchers.close()
  })

  it('the measured block time outlives a watch: the next one polls at the chain pace from its start', async () => {
    vi.useFakeTimers()
    const node = chain(1_000)
    const watchers = createBlockWatchers({
      readHead: node.readHead,
      feed: createMemoryTransactionFeed(),
    })
    const stop = watchers.watch('eip155:1', () => {})
    await vi.advanceTimersByTimeAsync(3_000)
    stop()
    await vi.advanceTimersByTimeAsync(5_000) // the watch lingers, then ends: no reads
    expect(watchers.head('eip155:1')).toBeUndefined()
    const before = node.reads()
    watchers.watch('eip155:1', () => {})
    await vi.advanceTimersByTimeAsync(1_000)
    // Every 250 ms: the read at the start and 4 more; at 500 ms it would be 3.
    expect(node.reads() - before).toBeGreaterThanOrEqual(4)
    watchers.close()
  })

  it('configured (the network blockTimeMs): 400 ms blocks are read every 100 ms from the start', async () => {
    vi.useFakeTimers()
    const node = chain(400)
    const watchers = createBlockWatchers({
      readHead: node.readHead,
      feed: createMemoryTransactionFeed(),
      blockTimeMs: () => 400,
    })
    watchers.watch('eip155:1', () => {})
    await vi.advanceTimersByTimeAsync(1_000)
    expect(node.reads()).toBeGreaterThanOrEqual(10)
    watchers.close()
  })

  it('slow or unknown chains keep the interval: 12 s blocks, and a head that never moves', async () => {
    vi.useFakeTimers()
    for (const blockMs of [12_000, Number.POSITIVE_INFINITY]) {
      const node = chain(blockMs)
      const watchers = createBlockWatchers({
        readHead: node.readHead,
        feed: createMemoryTransactionFeed(),
      })
      watchers.watch('eip155:1', () => {})
      await vi.advanceTimersByTimeAsync(30_000)
      expect(node.reads()).toBeLessThanOrEqual(30_000 / DEFAULT_BLOCK_POLL_MS + 1)
      expect(node.reads()).toBeGreaterThanOrEqual(30_000 / DEFAULT_BLOCK_POLL_MS - 1)
      watchers.close()
    }
  })
})
