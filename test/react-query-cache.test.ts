import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NOT_READ, QueryCache, queryCacheOf } from '../src/react/query-cache'

// The cache behind useBalance on its own, with vitest's fake timers for its refetch interval and
// its forget delay (the hooks' test runs it against the real server and anvil).

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A read whose answers the test gives by hand, counting the calls. */
function manualRead<T>() {
  const pending: Array<{ resolve(value: T): void; reject(error: Error): void }> = []
  const read = vi.fn(() => new Promise<T>((resolve, reject) => pending.push({ resolve, reject })))
  return {
    read,
    answer: async (value: T) => {
      pending.shift()?.resolve(value)
      await vi.advanceTimersByTimeAsync(0)
    },
    fail: async (error: Error) => {
      pending.shift()?.reject(error)
      await vi.advanceTimersByTimeAsync(0)
    },
  }
}

describe('QueryCache', () => {
  it('behavior: watchers of one key share one read; a refetch in flight is joined', async () => {
    const cache = new QueryCache({ now: () => 1_000 })
    const { read, answer } = manualRead<number>()
    const changes: string[] = []
    const stopA = cache.watch('k', read, () => changes.push('a'))
    const stopB = cache.watch('k', read, () => changes.push('b'))
    expect(read).toHaveBeenCalledTimes(1)
    expect(cache.get('k')).toMatchObject({ status: 'pending', isFetching: true })
    void cache.refetch('k')
    void cache.refetch('k')
    expect(read).toHaveBeenCalledTimes(1)
    await answer(5)
    expect(cache.get('k')).toEqual({
      status: 'success',
      data: 5,
      error: null,
      isFetching: false,
      dataUpdatedAt: 1_000,
    })
    expect(changes).toContain('b')
    stopA()
    stopB()
  })

  it('error: a failed read keeps the data; the next success clears the error', async () => {
    const cache = new QueryCache()
    const { read, answer, fail } = manualRead<number>()
    const stop = cache.watch('k', read, () => {})
    await answer(1)
    void cache.refetch('k')
    await fail(new Error('down'))
    expect(cache.get('k')).toMatchObject({ status: 'error', data: 1, isFetching: false })
    expect(cache.get('k').error?.message).toBe('down')
    void cache.refetch('k')
    await answer(2)
    expect(cache.get('k')).toMatchObject({ status: 'success', data: 2, error: null })
    stop()
  })

  it('behavior: the smallest interval of the watchers refetches; none once they left', async () => {
    const cache = new QueryCache()
    const { read, answer } = manualRead<number>()
    const stopSlow = cache.watch('k', read, () => {}, { refetchInterval: 1_000 })
    await answer(1)
    const stopFast = cache.watch('k', read, () => {}, { refetchInterval: 100 })
    await vi.advanceTimersByTimeAsync(100)
    expect(read).toHaveBeenCalledTimes(2)
    await answer(2)
    stopFast()
    await vi.advanceTimersByTimeAsync(900)
    expect(read).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(100)
    expect(read).toHaveBeenCalledTimes(3)
    await answer(3)
    stopSlow()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(read).toHaveBeenCalledTimes(3)
  })

  it('behavior: an entry is forgotten gcMs after its last watcher left, unless one came back', async () => {
    const cache = new QueryCache({ gcMs: 500 })
    const { read, answer } = manualRead<number>()
    cache.watch('k', read, () => {})()
    await answer(1)
    await vi.advanceTimersByTimeAsync(400)
    const stop = cache.watch('k', read, () => {})
    expect(read).toHaveBeenCalledTimes(2) // a first watcher again: read again, data kept meanwhile
    expect(cache.get('k').data).toBe(1)
    await answer(2)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(cache.get('k').data).toBe(2)
    stop()
    await vi.advanceTimersByTimeAsync(500)
    expect(cache.get('k')).toBe(NOT_READ)
  })

  it('refetchIf reads again only when stale; a read in flight is let finish and its answer judged', async () => {
    const cache = new QueryCache()
    const { read, answer } = manualRead<number>()
    const stop = cache.watch('k', read, () => {})
    cache.refetchIf<number>('k', ({ data }) => (data ?? 0) < 2) // the first read is in flight
    expect(read).toHaveBeenCalledTimes(1)
    await answer(1) // older than wanted: read again
    expect(read).toHaveBeenCalledTimes(2)
    await answer(2)
    cache.refetchIf<number>('k', ({ data }) => (data ?? 0) < 2)
    expect(read).toHaveBeenCalledTimes(2)
    cache.refetchIf<number>('k', ({ data }) => (data ?? 0) < 3)
    expect(read).toHaveBeenCalledTimes(3)
    cache.refetchIf<number>('k', () => true) // in flight: judged once it answers
    expect(read).toHaveBeenCalledTimes(3)
    await answer(3)
    expect(read).toHaveBeenCalledTimes(4)
    await answer(4)
    stop()
  })

  it('one cache per owner', () => {
    const owner = {}
    expect(queryCacheOf(owner)).toBe(queryCacheOf(owner))
    expect(queryCacheOf({})).not.toBe(queryCacheOf(owner))
  })
})
