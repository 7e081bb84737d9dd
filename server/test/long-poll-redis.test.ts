import { SessionResultResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../test/support/redis'
import { createRedisStore, type RedisStore } from '../src/store/redis'
import {
  createRedisSessionEvents,
  type RedisSessionEvents,
  sessionEventKey,
} from '../src/store/session-events-redis'
import { call } from './support/http'
import { startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, nonceHeader } from './support/sessions'
import { evmWallet } from './support/wallets'

/**
 * Results pushed across instances: two servers on one real redis-server, each with its own store
 * and session-events connections. The callback lands on A; the long-poll waits on B.
 */
describe('long-poll across two instances on Redis', () => {
  let redis: RunningRedis
  const stores: RedisStore[] = []
  const events: RedisSessionEvents[] = []
  const servers: TestServer[] = []
  const monitor: string[] = []

  beforeAll(async () => {
    redis = await startRedis()
    for (let i = 0; i < 2; i++) {
      const store = createRedisStore(redis.url, { keyPrefix: 'lp:' })
      const bus = createRedisSessionEvents(redis.url, { keyPrefix: 'lp:' })
      await Promise.all([store.ready(), bus.ready()])
      stores.push(store)
      events.push(bus)
      servers.push(await startTestServer({ store, sessionEvents: bus }))
    }
  })

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all([...stores, ...events].map((part) => part.close()))
    await redis?.stop()
  })

  const [a, b] = [0, 1]

  it('a callback on A answers the long-poll waiting on B within ~100 ms', async () => {
    const session = await createTestSession(servers[a]!.baseUrl)
    const path = `/sessions/${session.sessionId}/result`
    const headers = bearer(session.sessionToken)
    const etag = (await call(servers[b]!.baseUrl, path, { headers })).headers.get('etag')!
    const waiting = call(servers[b]!.baseUrl, `${path}?waitMs=20000`, {
      headers: { ...headers, 'if-none-match': etag },
    }).then((answer) => ({ answer, at: performance.now() }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(events[b]!.watching()).toBe(1)

    const wallet = evmWallet()
    const callbackAt = performance.now()
    const connected = await call(servers[a]!.baseUrl, '/callback/connect', {
      body: {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      headers: nonceHeader(session.nonce),
    })
    expect(connected.status).toBe(204)
    const answeredAt = performance.now()
    const { answer, at } = await waiting
    expect(answer.status).toBe(200)
    // Across Redis pub/sub: ~100 ms at most after the callback's own answer, far from the 20 s.
    expect(at - answeredAt).toBeLessThan(100)
    expect(at - callbackAt).toBeLessThan(1000)
    expect(SessionResultResponseSchema.parse(answer.body)).toMatchObject({
      status: 'connected',
      walletAddress: wallet.address,
    })
    expect(answer.headers.get('etag')).not.toBe(etag)
  })

  it('the sign callback on B answers a long-poll on A; both instances agree on the tag', async () => {
    const session = await createTestSession(servers[b]!.baseUrl)
    const wallet = evmWallet()
    const headers = bearer(session.sessionToken)
    const path = `/sessions/${session.sessionId}/result`
    await call(servers[b]!.baseUrl, '/callback/connect', {
      body: {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      headers: nonceHeader(session.nonce),
    })
    const tagOnA = (await call(servers[a]!.baseUrl, path, { headers })).headers.get('etag')
    const tagOnB = (await call(servers[b]!.baseUrl, path, { headers })).headers.get('etag')
    expect(tagOnA).toBe(tagOnB)
    const waiting = call(servers[a]!.baseUrl, `${path}?waitMs=20000`, {
      headers: { ...headers, 'if-none-match': tagOnA! },
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const timestamp = Date.now()
    const signed = await call(servers[b]!.baseUrl, '/callback/sign', {
      body: {
        sessionId: session.sessionId,
        signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
        timestamp,
      },
      headers: nonceHeader(session.nonce),
    })
    expect(signed.status).toBe(204)
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(SessionResultResponseSchema.parse(answer.body).status).toBe('signed')
  })

  it("a change made while B's subscriber was cut off still ends B's wait once it is back", async () => {
    const { Redis } = await import('ioredis')
    const admin = new Redis(redis.url)
    try {
      const session = await createTestSession(servers[a]!.baseUrl)
      const path = `/sessions/${session.sessionId}/result`
      const headers = bearer(session.sessionToken)
      const etag = (await call(servers[b]!.baseUrl, path, { headers })).headers.get('etag')!
      const waiting = call(servers[b]!.baseUrl, `${path}?waitMs=20000`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      await new Promise((resolve) => setTimeout(resolve, 200))
      // Cut every subscriber connection; the callback's message goes out while they reconnect.
      expect(Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub'))).toBeGreaterThanOrEqual(2)
      const started = performance.now()
      const rejected = await call(servers[a]!.baseUrl, '/callback/reject', {
        body: { sessionId: session.sessionId, errorCode: 'USER_REJECTED' },
        headers: nonceHeader(session.nonce),
      })
      expect(rejected.status).toBe(204)
      const answer = await waiting
      expect(answer.status).toBe(200)
      expect(SessionResultResponseSchema.parse(answer.body).status).toBe('rejected')
      // Woken by the resubscription (backoff ~0.1 s), not by the end of its 20 s wait.
      expect(performance.now() - started).toBeLessThan(3000)
    } finally {
      admin.disconnect()
    }
  })

  it('the channel carries a hash of the session id, never the id', async () => {
    const { Redis } = await import('ioredis')
    const listener = new Redis(redis.url)
    try {
      await listener.subscribe('lp:sessions:changed')
      listener.on('message', (_channel: string, message: string) => monitor.push(message))
      const session = await createTestSession(servers[a]!.baseUrl)
      await call(servers[a]!.baseUrl, '/callback/reject', {
        body: { sessionId: session.sessionId, errorCode: 'USER_REJECTED' },
        headers: nonceHeader(session.nonce),
      })
      const deadline = Date.now() + 2000
      while (monitor.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(monitor).toHaveLength(1)
      expect(monitor[0]).toMatch(new RegExp(` ${sessionEventKey(session.sessionId)}$`))
      expect(monitor[0]).not.toContain(session.sessionId)
    } finally {
      listener.disconnect()
    }
  })
})
