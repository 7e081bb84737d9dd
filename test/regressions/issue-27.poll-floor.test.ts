import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTransactionStatusReader } from '../../src/transaction'

// Issue 27 (small ones): a status long-poll that answers at once — a proxy that drops `waitMs`, an
// older backend that ignores `If-None-Match` — must not make the Client re-poll in a tight loop.
// The backend here is an in-process `fetchImpl`, the case that starved the event loop.

const HASH = `0x${'ab'.repeat(32)}`
const input = { chainId: 'eip155:31337', hash: HASH } as const

function answering(body: () => object, status = 200) {
  const calls: string[] = []
  const fetchImpl = async (request: Request | URL | string) => {
    calls.push(String(request instanceof Request ? request.url : request))
    const polled = request instanceof Request && request.headers.has('if-none-match')
    return status === 304 && polled
      ? new Response(null, { status: 304 })
      : Response.json(body(), { headers: { etag: '"e1"' } })
  }
  return { calls, fetchImpl: fetchImpl as typeof fetch }
}

const pending = { chainId: input.chainId, hash: HASH, status: 'pending' }

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('behavior: a floor between status polls', () => {
  it.each([
    ['200 with the same body (If-None-Match ignored)', 200],
    ['304 at once (waitMs dropped)', 304],
  ])('a read that comes back at once with nothing new pauses 1 s: %s', async (_, status) => {
    const backend = answering(() => pending, status)
    const read = createTransactionStatusReader({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'k',
      fetchImpl: backend.fetchImpl,
    })
    const signal = new AbortController().signal
    const first = await read({ ...input, last: null }, signal)
    expect(first.status).toBe('pending')
    let settled = false
    const next = read({ ...input, last: { ...first, etag: '"e1"' } }, signal).then((value) => {
      settled = true
      return value
    })
    await vi.advanceTimersByTimeAsync(999)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((await next).status).toBe('pending')
    expect(backend.calls).toHaveLength(2)
  })

  it('polls against a backend that never waits: at most one a second', async () => {
    const backend = answering(() => pending)
    const read = createTransactionStatusReader({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'k',
      fetchImpl: backend.fetchImpl,
    })
    const controller = new AbortController()
    let last = await read({ ...input, last: null }, controller.signal)
    // The transaction chart's loop: read again as soon as a read returns (bounded for the old code).
    const polling = (async () => {
      for (let poll = 0; poll < 1_000 && !controller.signal.aborted; poll++) {
        last = await read({ ...input, last }, controller.signal)
      }
    })()
    await vi.advanceTimersByTimeAsync(5_000)
    controller.abort()
    await polling
    expect(backend.calls.length).toBeGreaterThanOrEqual(5)
    expect(backend.calls.length).toBeLessThanOrEqual(7)
  })

  it('a change is returned at once, and an abort ends the pause', async () => {
    let status = 'pending'
    const backend = answering(() => ({ ...pending, status, blockNumber: '7', confirmations: 1 }))
    const read = createTransactionStatusReader({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'k',
      fetchImpl: backend.fetchImpl,
    })
    const controller = new AbortController()
    const first = await read({ ...input, last: null }, controller.signal)
    status = 'confirmed'
    expect((await read({ ...input, last: first }, controller.signal)).status).toBe('confirmed')
    const paused = read({ ...input, last: { ...first, status: 'confirmed' } }, controller.signal)
    controller.abort()
    await expect(paused).resolves.toMatchObject({ status: 'confirmed' })
  })
})
