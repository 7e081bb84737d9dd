import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStore, SESSION_GRACE_MS } from '../../src/store'
import { sessionRecord } from './fixtures'

afterEach(() => {
  vi.useRealTimers()
})

describe('memory store', () => {
  it('never forgets a key at its limit, however many other keys arrive', async () => {
    const store = createMemoryStore({ sweepIntervalMs: 0 })
    for (let i = 0; i < 10; i++) await store.hitWindow('limited', 60_000)
    // An LRU of any plausible size would have evicted 'limited' by now.
    for (let i = 0; i < 200_000; i++) await store.hitWindow(`flood:${i}`, 60_000)
    expect((await store.hitWindow('limited', 60_000)).count).toBe(11)
    expect(store.size().windows).toBe(200_001)
  })

  it('sweeps expired windows and sessions and keeps live ones', async () => {
    let clock = 0
    const store = createMemoryStore({ now: () => clock, sweepIntervalMs: 0 })
    await store.hitWindow('short', 1_000)
    await store.hitWindow('long', 3_600_000)
    const gone = sessionRecord(clock, { expiresAt: 1_000 })
    const kept = sessionRecord(clock, { expiresAt: 120_000 })
    await store.createSession(gone)
    await store.createSession(kept)

    clock = 1_000 + SESSION_GRACE_MS
    expect(store.sweep()).toBe(2)
    expect(store.size()).toEqual({ sessions: 1, windows: 1 })
    expect(await store.getSession(kept.sessionId)).toEqual(kept)
    expect((await store.hitWindow('long', 3_600_000)).count).toBe(2)
  })

  it('sweeps on an unref’d timer and stops it on close', async () => {
    vi.useFakeTimers()
    let clock = 0
    const store = createMemoryStore({ now: () => clock, sweepIntervalMs: 1_000 })
    expect(vi.getTimerCount()).toBe(1)
    await store.hitWindow('k', 500)
    clock = 600
    vi.advanceTimersByTime(1_000)
    expect(store.size().windows).toBe(0)
    await store.close()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('hands out copies, so callers cannot change a stored record behind its version', async () => {
    const store = createMemoryStore({ sweepIntervalMs: 0 })
    const record = sessionRecord(Date.now())
    await store.createSession(record)
    record.status = 'signed'
    const read = await store.getSession(record.sessionId)
    if (read) read.walletAddress = '0xmutated'
    const gate = { tokenHash: record.tokenHash, windowsMs: new Map([[record.projectId, 60_000]]) }
    const polled = await store.getSessionAndHit(record.sessionId, 'session:copy', gate)
    if (polled) polled.record.errorCode = 'MUTATED'
    expect(await store.getSession(record.sessionId)).toMatchObject({
      status: 'pending',
      walletAddress: null,
      errorCode: null,
    })
  })
})
