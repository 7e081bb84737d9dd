import { afterEach, describe, expect, it } from 'vitest'
import { sharedRedis } from '../../../test/support/shared-services'
import { createMemoryStore } from '../../src/store/memory'
import { createRedisStore } from '../../src/store/redis'
import { SessionExistsError, type Store } from '../../src/store/types'
import { sessionRecord, sleep } from './fixtures'

/** What the contract needs from a store under test: the store, its clock, and time passing. */
interface Harness {
  store: Store
  now(): number
  advance(ms: number): Promise<void>
}

type HarnessFactory = (options: { sessionGraceMs?: number }) => Harness

const redis = sharedRedis()
let prefixes = 0

// Memory runs on an injected clock; Redis keeps its own clock, so time passes for real there
// (windows of a few hundred ms).
const memoryHarness: HarnessFactory = (options) => {
  let clock = 1_700_000_000_000
  return {
    store: createMemoryStore({ now: () => clock, sweepIntervalMs: 0, ...options }),
    now: () => clock,
    advance: async (ms) => {
      clock += ms
    },
  }
}

const redisHarness: HarnessFactory = (options) => ({
  // Generous command timeout: these tests check semantics, and a loaded CI box can be slow.
  store: createRedisStore(redis.url, {
    keyPrefix: `contract${++prefixes}:`,
    commandTimeoutMs: 10_000,
    ...options,
  }),
  now: () => Date.now(),
  advance: async (ms) => {
    await sleep(ms)
  },
})

describe.each([
  ['memory', memoryHarness],
  ['redis', redisHarness],
] as const)('%s store contract', (kind, makeHarness) => {
  const opened: Store[] = []
  const harness = (options: { sessionGraceMs?: number } = {}) => {
    const h = makeHarness(options)
    opened.push(h.store)
    return h
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()))
  })

  it('reports its kind and readiness', async () => {
    const { store } = harness()
    expect(store.kind).toBe(kind)
    expect(await store.isReady()).toBe(true)
  })

  it('sign-in nonces: taken once of 20 racing takes, forgotten after their expiry', async () => {
    const { store, now, advance } = harness()
    await store.putNonce('p:racing', now() + 60_000)
    const takes = await Promise.all(Array.from({ length: 20 }, () => store.takeNonce('p:racing')))
    expect(takes.filter(Boolean)).toHaveLength(1)
    expect(await store.takeNonce('p:never-issued')).toBe(false)
    await store.putNonce('p:short', now() + 200)
    await advance(400)
    expect(await store.takeNonce('p:short')).toBe(false)
  })

  it('stores a session and reads it back field for field', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now(), { walletSlug: 'metamask', nonceUsed: true, version: 7 })
    await store.createSession(record)
    expect(await store.getSession(record.sessionId)).toEqual(record)
    expect(await store.getSession('no-such-session')).toBeNull()
  })

  it('refuses to create a session whose id is taken', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    await expect(store.createSession({ ...record, nonce: 'other' })).rejects.toBeInstanceOf(
      SessionExistsError,
    )
    expect((await store.getSession(record.sessionId))?.nonce).toBe(record.nonce)
  })

  it('keeps an expired record for the grace period, then forgets it', async () => {
    const graced = harness()
    const kept = sessionRecord(graced.now(), { expiresAt: graced.now() + 300 })
    await graced.store.createSession(kept)

    const strict = harness({ sessionGraceMs: 0 })
    const dropped = sessionRecord(strict.now(), { expiresAt: strict.now() + 300 })
    await strict.store.createSession(dropped)

    await graced.advance(500)
    await strict.advance(500)
    expect(await graced.store.getSession(kept.sessionId)).toEqual(kept)
    expect(await strict.store.getSession(dropped.sessionId)).toBeNull()
  })

  it('applies a compare-and-set on the current version and bumps it', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const patch = { status: 'connected' as const, walletAddress: '0xabc', walletSlug: 'rabby' }
    const updated = await store.compareAndSetSession(record.sessionId, 1, patch)
    expect(updated).toEqual({ ...record, ...patch, version: 2 })
    expect(await store.getSession(record.sessionId)).toEqual(updated)
  })

  it('rejects a compare-and-set on a stale version or a missing record', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    await store.compareAndSetSession(record.sessionId, 1, { status: 'connected' })
    expect(await store.compareAndSetSession(record.sessionId, 1, { status: 'rejected' })).toBeNull()
    expect((await store.getSession(record.sessionId))?.status).toBe('connected')
    expect(await store.compareAndSetSession('no-such-session', 1, { status: 'failed' })).toBeNull()
  })

  it('never lets a patch change the id or the version', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const sneaky = { status: 'signed', sessionId: 'other', version: 99 } as never
    const updated = await store.compareAndSetSession(record.sessionId, 1, sneaky)
    expect(updated).toMatchObject({ sessionId: record.sessionId, version: 2, status: 'signed' })
    expect(await store.getSession('other')).toBeNull()
  })

  it('lets exactly one of 50 concurrent compare-and-sets on one version win', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.compareAndSetSession(record.sessionId, 1, { walletAddress: `0x${i}` }),
      ),
    )
    const winners = results.filter((result) => result !== null)
    expect(winners).toHaveLength(1)
    const stored = await store.getSession(record.sessionId)
    expect(stored).toEqual(winners[0])
    expect(stored?.version).toBe(2)
  })

  it('keeps the expiry across a compare-and-set unless expiresAt moves', async () => {
    const { store, now, advance } = harness({ sessionGraceMs: 0 })
    // Long enough for both compare-and-sets to land before the original expiry.
    const same = sessionRecord(now(), { expiresAt: now() + 1_000 })
    const moved = sessionRecord(now(), { expiresAt: now() + 1_000 })
    await store.createSession(same)
    await store.createSession(moved)
    await store.compareAndSetSession(same.sessionId, 1, { status: 'connected' })
    await store.compareAndSetSession(moved.sessionId, 1, { expiresAt: moved.expiresAt + 60_000 })
    await advance(1_300)
    expect(await store.getSession(same.sessionId)).toBeNull()
    expect((await store.getSession(moved.sessionId))?.version).toBe(2)
  })

  it('counts hits in a window that starts at the first hit', async () => {
    const { store } = harness()
    const hits = []
    for (let i = 0; i < 5; i++) hits.push(await store.hitWindow('counting', 60_000))
    expect(hits.map((hit) => hit.count)).toEqual([1, 2, 3, 4, 5])
    for (const hit of hits) {
      expect(hit.resetInMs).toBeGreaterThan(0)
      expect(hit.resetInMs).toBeLessThanOrEqual(60_000)
    }
  })

  it('starts a new window once the old one has passed', async () => {
    const { store, advance } = harness()
    await store.hitWindow('resetting', 1_000)
    expect((await store.hitWindow('resetting', 1_000)).count).toBe(2)
    await advance(1_300)
    const fresh = await store.hitWindow('resetting', 1_000)
    expect(fresh.count).toBe(1)
    expect(fresh.resetInMs).toBeLessThanOrEqual(1_000)
  })

  it('hitWithCeiling: a caller past its limit spends no ceiling; a full ceiling reports its distinct callers, which reset with it', async () => {
    const { store, advance } = harness()
    const hit = (caller: string) =>
      store.hitWithCeiling!({
        callerKey: caller,
        callerWindowMs: 60_000,
        callerLimit: 3,
        ceilingKey: 'ceiling',
        ceilingWindowMs: 1_000,
        ceiling: 4,
      })
    expect(await hit('a')).toEqual({
      caller: { count: 1, resetInMs: expect.any(Number) },
      ceiling: { count: 1, resetInMs: expect.any(Number) },
    })
    await hit('a')
    await hit('a')
    // Past its own limit: the ceiling is not counted.
    expect(await hit('a')).toEqual({ caller: { count: 4, resetInMs: expect.any(Number) } })
    expect((await hit('b')).ceiling?.count).toBe(4)
    expect((await hit('c')).callers).toBe(3)
    expect((await hit('b')).callers).toBe(3)
    // The ceiling's window resets, and its callers with it.
    await advance(1_300)
    const fresh = await hit('b')
    expect(fresh.ceiling?.count).toBe(1)
    expect(fresh.callers).toBeUndefined()
    for (let i = 0; i < 3; i++) await hit(`d${i}`)
    expect((await hit('e')).callers).toBe(5)
  })

  it('hitWithCeiling with a cost counts that many hits on both windows, and a window still starts at its first', async () => {
    const { store, advance } = harness()
    const hit = (cost: number) =>
      store.hitWithCeiling!({
        callerKey: 'batcher',
        callerWindowMs: 60_000,
        callerLimit: 9,
        ceilingKey: 'ceiling-cost',
        ceilingWindowMs: 1_000,
        ceiling: 100,
        cost,
      })
    const first = await hit(5)
    expect([first.caller.count, first.ceiling?.count]).toEqual([5, 5])
    expect(first.ceiling!.resetInMs).toBeLessThanOrEqual(1_000)
    // 10 > 9: refused by its own window, nothing spent of the ceiling.
    expect(await hit(5)).toEqual({ caller: { count: 10, resetInMs: expect.any(Number) } })
    await advance(1_300)
    expect(
      (
        await store.hitWithCeiling!({
          callerKey: 'other',
          callerWindowMs: 60_000,
          callerLimit: 9,
          ceilingKey: 'ceiling-cost',
          ceilingWindowMs: 1_000,
          ceiling: 100,
          cost: 3,
        })
      ).ceiling?.count,
    ).toBe(3)
  })

  it('keeps counters of different keys apart', async () => {
    const { store } = harness()
    for (let i = 0; i < 3; i++) await store.hitWindow('key-a', 60_000)
    expect((await store.hitWindow('key-b', 60_000)).count).toBe(1)
    expect((await store.hitWindow('key-a', 60_000)).count).toBe(4)
  })

  it('reads a session with a poll and counts the poll only when the gate admits it', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const windowsMs = new Map([[record.projectId, 60_000]])
    const admitted = { tokenHash: record.tokenHash, windowsMs }

    const first = await store.getSessionAndHit(record.sessionId, 'session:gated', admitted)
    expect(first?.record).toEqual(record)
    expect(first?.hit?.count).toBe(1)
    expect(first?.hit?.resetInMs).toBeGreaterThan(0)
    expect(first?.hit?.resetInMs).toBeLessThanOrEqual(60_000)
    // The same counter as hitWindow on that key.
    expect((await store.hitWindow('session:gated', 60_000)).count).toBe(2)

    // Another token, or a project the request may not reach: the record, nothing counted.
    const otherToken = { tokenHash: 'f'.repeat(64), windowsMs }
    expect(await store.getSessionAndHit(record.sessionId, 'session:gated', otherToken)).toEqual({
      record,
      hit: null,
    })
    const otherProject = { tokenHash: record.tokenHash, windowsMs: new Map([['elsewhere', 1]]) }
    expect(await store.getSessionAndHit(record.sessionId, 'session:gated', otherProject)).toEqual({
      record,
      hit: null,
    })
    expect((await store.hitWindow('session:gated', 60_000)).count).toBe(3)

    // No session: null, and no counter appears.
    expect(await store.getSessionAndHit('no-such-session', 'session:none', admitted)).toBeNull()
    expect((await store.hitWindow('session:none', 60_000)).count).toBe(1)
  })

  it("counts a gated poll in the window of the record's project", async () => {
    const { store, now, advance } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const windowsMs = new Map([
      ['elsewhere', 60_000],
      [record.projectId, 1_000],
    ])
    const gate = { tokenHash: record.tokenHash, windowsMs }
    const first = await store.getSessionAndHit(record.sessionId, 'session:short', gate)
    expect(first?.hit?.resetInMs).toBeLessThanOrEqual(1_000)
    await advance(1_300)
    const next = await store.getSessionAndHit(record.sessionId, 'session:short', gate)
    expect(next?.hit?.count).toBe(1)
  })

  it('reads back by poll exactly what getSession reads, odd strings included', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now(), {
      status: 'failed',
      walletSlug: 'métamask',
      errorCode: 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀 lone \ud800',
      nonceUsed: true,
      version: 12,
    })
    await store.createSession(record)
    const gate = { tokenHash: record.tokenHash, windowsMs: new Map([[record.projectId, 60_000]]) }
    const polled = await store.getSessionAndHit(record.sessionId, 'session:odd', gate)
    expect(polled?.record).toEqual(await store.getSession(record.sessionId))
    expect(polled?.record).toEqual(record)
  })

  it('counts concurrent gated polls without losing any', async () => {
    const { store, now } = harness()
    const record = sessionRecord(now())
    await store.createSession(record)
    const gate = { tokenHash: record.tokenHash, windowsMs: new Map([[record.projectId, 60_000]]) }
    const polls = await Promise.all(
      Array.from({ length: 100 }, () =>
        store.getSessionAndHit(record.sessionId, 'session:concurrent', gate),
      ),
    )
    expect(polls.map((poll) => poll?.hit?.count).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    )
  })

  it('counts concurrent hits without losing any', async () => {
    const { store } = harness()
    const hits = await Promise.all(
      Array.from({ length: 100 }, () => store.hitWindow('concurrent', 60_000)),
    )
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    )
  })
})
