import { createServer } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { createRateLimiter } from '../../src/rate-limit/limiter'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import { StoreUnavailableError } from '../../src/store/types'
import { sessionRecord, sleep, withinBound } from './fixtures'

const opened: RedisStore[] = []
const open = (url: string, options?: Parameters<typeof createRedisStore>[1]) => {
  const store = createRedisStore(url, options)
  opened.push(store)
  return store
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()))
})

describe('redis store', () => {
  let redis: RunningRedis
  let raw: Redis

  beforeAll(async () => {
    redis = await startRedis()
    raw = new Redis(redis.url)
  })

  afterAll(async () => {
    raw?.disconnect()
    await redis?.stop()
  })

  it('keeps deployments with different key prefixes apart', async () => {
    const a = open(redis.url, { keyPrefix: 'deploy-a:' })
    const b = open(redis.url, { keyPrefix: 'deploy-b:' })
    const record = sessionRecord(Date.now())
    await a.createSession(record)
    await a.hitWindow('shared-key', 60_000)
    expect(await b.getSession(record.sessionId)).toBeNull()
    expect((await b.hitWindow('shared-key', 60_000)).count).toBe(1)
    expect(await raw.exists(`deploy-a:session:${record.sessionId}`)).toBe(1)
  })

  it('gives session records a TTL of lifetime plus grace', async () => {
    const store = open(redis.url, { keyPrefix: 'ttl:', sessionGraceMs: 60_000 })
    const now = Date.now()
    const record = sessionRecord(now, { expiresAt: now + 30_000 })
    await store.createSession(record)
    const ttl = await raw.pttl(`ttl:session:${record.sessionId}`)
    expect(ttl).toBeGreaterThan(60_000)
    expect(ttl).toBeLessThanOrEqual(90_000)
  })

  it('re-arms a counter that lost its expiry instead of counting forever', async () => {
    const store = open(redis.url, { keyPrefix: 'heal:' })
    await raw.set('heal:rl:stuck', '41')
    const hit = await store.hitWindow('stuck', 5_000)
    expect(hit.count).toBe(42)
    expect(hit.resetInMs).toBeLessThanOrEqual(5_000)
    expect(await raw.pttl('heal:rl:stuck')).toBeGreaterThan(0)
  })

  it('rejects with StoreUnavailableError after close', async () => {
    const store = createRedisStore(redis.url, { keyPrefix: 'closed:' })
    await store.ready()
    await store.close()
    await expect(store.hitWindow('k', 1_000)).rejects.toBeInstanceOf(StoreUnavailableError)
    expect(await store.isReady()).toBe(false)
  })
})

describe('redis store without redis', () => {
  it('fails every call with StoreUnavailableError when redis was never there', async () => {
    const store = open(`redis://127.0.0.1:${await closedPort()}`, { connectTimeoutMs: 300 })
    const calls: Promise<unknown>[] = [
      store.getSession('x'),
      store.createSession(sessionRecord(Date.now())),
      store.compareAndSetSession('x', 1, { status: 'failed' }),
      store.hitWindow('x', 1_000),
    ]
    for (const call of calls) {
      await expect(withinBound(call)).rejects.toBeInstanceOf(StoreUnavailableError)
    }
    expect(await store.isReady()).toBe(false)
    await expect(store.ready()).rejects.toBeInstanceOf(StoreUnavailableError)
  })

  it('fails fast while redis is down, puts the limiter on its floor, and recovers', async () => {
    let redis = await startRedis()
    const warnings: string[] = []
    const store = open(redis.url, {
      keyPrefix: 'outage:',
      log: { warn: (_obj, msg) => warnings.push(msg) },
    })
    const limiter = createRateLimiter({ store, log: { warn: () => {} } })
    const policy = { name: 'appkey', limit: 10, windowSeconds: 60 }
    expect((await limiter.check('app', policy)).floor).toBeUndefined()
    const record = sessionRecord(Date.now())
    await store.createSession(record)

    await redis.stop()
    try {
      const calls: Promise<unknown>[] = [
        store.getSession(record.sessionId),
        store.createSession(sessionRecord(Date.now())),
        store.compareAndSetSession(record.sessionId, 1, { status: 'connected' }),
        store.hitWindow('app', 60_000),
      ]
      for (const call of calls) {
        // Not queued until Redis returns: each call settles, as a rejection, within the bound.
        await expect(withinBound(call)).rejects.toBeInstanceOf(StoreUnavailableError)
      }
      expect(await store.isReady()).toBe(false)
      expect(warnings).toHaveLength(1)

      const decision = await limiter.check('app', policy)
      expect(decision).toMatchObject({ allowed: true, floor: true })
      expect(decision.headers.RateLimit).toBe('"appkey";r=9;t=60')
      expect(limiter.stats()).toEqual({ mode: 'floor', outages: 1, floorDecisions: 1 })
    } finally {
      redis = await startRedis({ port: redis.port })
    }

    try {
      // Reconnection runs in the background with backoff (at most 2 s between attempts).
      for (let i = 0; i < 100 && !(await store.isReady()); i++) await sleep(100)
      expect(await store.isReady()).toBe(true)
      // A fresh server on the same port: the old session is gone, new work succeeds.
      expect(await store.getSession(record.sessionId)).toBeNull()
      const again = await limiter.check('app', policy)
      expect(again.floor).toBeUndefined()
      expect(again.headers.RateLimit).toBe('"appkey";r=9;t=60')
      expect(limiter.stats()).toMatchObject({ mode: 'shared', outages: 1 })
    } finally {
      await redis.stop()
    }
  })
})

/** A port with nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1))
    })
  })
}
