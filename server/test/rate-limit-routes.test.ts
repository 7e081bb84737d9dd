import { afterEach, describe, expect, it } from 'vitest'
import { createRateLimiter, type RateLimiter } from '../src/rate-limit'
import { createMemoryStore } from '../src/store/memory'
import { call, codeOf } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { bearer, createTestSession, getResult } from './support/sessions'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const limited = (rateLimits: object, top: object = {}) => ({
  ...top,
  projects: [{ ...TEST_PROJECT, rateLimits }],
})

describe('rate limits on the routes', () => {
  it('app-key routes: 429 RATE_LIMITED with Retry-After and RateLimit headers past the limit', async () => {
    server = await startTestServer({
      projects: limited({ appKey: { limit: 3, windowSeconds: 30 } }),
    })
    const headers = { 'x-app-key': server.appKey }
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await call(server.baseUrl, '/config', { headers }))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    expect(answers[0]?.headers.get('ratelimit-policy')).toBe('"appkey";q=3;w=30')
    expect(answers[2]?.headers.get('ratelimit')).toMatch(/^"appkey";r=0;t=\d+$/)
    // balances and session creation share the app key's counter.
    const refused = await call(server.baseUrl, '/sessions', {
      headers,
      body: { caip2Chain: 'eip155:1' },
    })
    expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED'])
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(30)
    expect(refused.headers.get('ratelimit-policy')).toBe('"appkey";q=3;w=30')
  })

  it('invalid app keys are refused before any counter is touched', async () => {
    const store = createMemoryStore()
    server = await startTestServer({
      store,
      projects: limited({ appKey: { limit: 2, windowSeconds: 60 } }),
    })
    for (let i = 0; i < 10; i++) {
      const answer = await call(server.baseUrl, '/config', {
        headers: { 'x-app-key': `wrong-key-${i}` },
      })
      expect(answer.status).toBe(401)
      expect(answer.headers.get('ratelimit')).toBeNull()
    }
    expect((await call(server.baseUrl, '/config')).status).toBe(401)
    // Made-up keys create no counters; the one window is the caller's failed-auth window.
    expect(store.size().windows).toBe(1)
    const ok = await call(server.baseUrl, '/config', { headers: { 'x-app-key': server.appKey } })
    expect(ok.status).toBe(200)
    // + the caller's (app key, IP) window and the project's ceiling.
    expect(store.size().windows).toBe(3)
    await server.close()
    server = undefined
    await store.close()
  })

  it('result polling is limited per session, not per app key', async () => {
    server = await startTestServer({
      projects: limited({ session: { limit: 2, windowSeconds: 60 } }),
    })
    const a = await createTestSession(server.baseUrl)
    const b = await createTestSession(server.baseUrl)
    const poll = (s: typeof a) =>
      call(server!.baseUrl, `/sessions/${s.sessionId}/result`, { headers: bearer(s.sessionToken) })
    expect((await poll(a)).status).toBe(200)
    expect((await poll(a)).status).toBe(200)
    const third = await poll(a)
    expect([third.status, codeOf(third)]).toEqual([429, 'RATE_LIMITED'])
    expect(third.headers.get('ratelimit-policy')).toBe('"session";q=2;w=60')
    expect((await poll(b)).status).toBe(200)
    // A wrong token does not spend the session's quota (nor lock its owner out).
    const wrong = await call(server.baseUrl, `/sessions/${b.sessionId}/result`, {
      headers: bearer('z'.repeat(43)),
    })
    expect(wrong.status).toBe(404)
    expect((await poll(b)).status).toBe(200)
  })

  it('a poll from an origin the project does not list is refused before the session counter', async () => {
    const project = { ...TEST_PROJECT, allowedOrigins: ['https://dapp.example'] }
    server = await startTestServer({
      projects: {
        projects: [{ ...project, rateLimits: { session: { limit: 2, windowSeconds: 60 } } }],
      },
    })
    const session = await createTestSession(server.baseUrl)
    const poll = (origin: string) =>
      call(server!.baseUrl, `/sessions/${session.sessionId}/result`, {
        headers: { ...bearer(session.sessionToken), origin },
      })
    for (let i = 0; i < 3; i++) {
      const refused = await poll('https://evil.example')
      expect([refused.status, codeOf(refused)]).toEqual([403, 'ORIGIN_NOT_ALLOWED'])
      expect(refused.headers.get('ratelimit')).toBeNull()
    }
    expect((await poll('https://dapp.example')).headers.get('ratelimit')).toMatch(/r=1;/)
    expect((await poll('https://dapp.example')).headers.get('ratelimit')).toMatch(/r=0;/)
    const limitedPoll = await poll('https://dapp.example')
    expect([limitedPoll.status, codeOf(limitedPoll)]).toEqual([429, 'RATE_LIMITED'])
    expect(Number(limitedPoll.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('result and verify spend one session counter, one hit per request', async () => {
    server = await startTestServer({
      projects: limited({ session: { limit: 3, windowSeconds: 60 } }),
    })
    const session = await createTestSession(server.baseUrl)
    const headers = bearer(session.sessionToken)
    const result = () => call(server!.baseUrl, `/sessions/${session.sessionId}/result`, { headers })
    expect((await result()).headers.get('ratelimit')).toMatch(/^"session";r=2;t=\d+$/)
    // The counter comes before the body: an invalid verify still spends one.
    const verify = await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
      headers,
      body: {},
    })
    expect([verify.status, verify.headers.get('ratelimit')]).toEqual([
      422,
      expect.stringMatching(/r=1;/),
    ])
    expect((await result()).headers.get('ratelimit')).toMatch(/r=0;/)
    expect((await result()).status).toBe(429)
  })

  it('a custom limiter counts the polls itself', async () => {
    const store = createMemoryStore()
    const counted: string[] = []
    const inner = createRateLimiter({ store: createMemoryStore(), log: { warn: () => {} } })
    const limiter: RateLimiter = {
      stats: () => inner.stats(),
      checkAll: (checks) => inner.checkAll(checks),
      checkWithCeiling: (own, ceiling) => inner.checkWithCeiling(own, ceiling),
      check: (key, policy) => {
        counted.push(`${policy.name}:${key}`)
        return inner.check(key, policy)
      },
    }
    server = await startTestServer({ store, limiter })
    const session = await createTestSession(server.baseUrl)
    await getResult(server.baseUrl, session)
    const answer = await getResult(server.baseUrl, session)
    expect(answer.headers.get('ratelimit')).toMatch(/^"session";r=118;/)
    expect(counted.filter((key) => key.startsWith('session:'))).toEqual([
      `session:${session.sessionId}`,
      `session:${session.sessionId}`,
    ])
    // Nothing was counted in the session store itself.
    expect(store.size().windows).toBe(0)
    await server.close()
    server = undefined
    await store.close()
  })

  it('a poll the store cannot count with its read is still counted, once', async () => {
    const store = createMemoryStore()
    server = await startTestServer({
      store,
      projects: limited({ session: { limit: 5, windowSeconds: 60 } }),
    })
    const session = await createTestSession(server.baseUrl)
    // Hex in capitals: the token check still accepts it, the store's exact gate does not.
    const stored = (await store.getSession(session.sessionId))!
    await store.compareAndSetSession(session.sessionId, stored.version, {
      tokenHash: stored.tokenHash.toUpperCase(),
    })
    const remaining = []
    for (let i = 0; i < 3; i++) {
      remaining.push((await getResult(server.baseUrl, session)).headers.get('ratelimit'))
    }
    expect(remaining.map((value) => value?.match(/r=(\d+)/)?.[1])).toEqual(['4', '3', '2'])
    await server.close()
    server = undefined
    await store.close()
  })

  it('callbacks are limited per caller IP; X-Forwarded-For counts only from a trusted proxy', async () => {
    const body = { sessionId: 'C'.repeat(22), errorCode: 'USER_REJECTED' }
    const hit = (ip: string) =>
      call(server!.baseUrl, '/callback/reject', { body, headers: { 'x-forwarded-for': ip } })

    server = await startTestServer({
      projects: limited({}, { rateLimits: { callbackIp: { limit: 2, windowSeconds: 60 } } }),
    })
    // Untrusted: the header is ignored, every request counts against 127.0.0.1.
    expect((await hit('203.0.113.1')).status).toBe(404)
    expect((await hit('203.0.113.2')).status).toBe(404)
    const refused = await hit('203.0.113.3')
    expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED'])
    expect(refused.headers.get('ratelimit-policy')).toBe('"ip";q=2;w=60')
    await server.close()

    server = await startTestServer({
      trustProxy: ['127.0.0.1'],
      projects: limited({}, { rateLimits: { callbackIp: { limit: 2, windowSeconds: 60 } } }),
    })
    expect((await hit('203.0.113.1')).status).toBe(404)
    expect((await hit('203.0.113.1')).status).toBe(404)
    expect((await hit('203.0.113.1')).status).toBe(429)
    expect((await hit('203.0.113.2')).status).toBe(404)
    // IPv6 callers share one counter per /64.
    expect((await hit('2001:db8:1:2::1')).status).toBe(404)
    expect((await hit('2001:db8:1:2:ffff::9')).status).toBe(404)
    expect((await hit('2001:db8:1:2::abcd')).status).toBe(429)
    expect((await hit('2001:db8:1:3::1')).status).toBe(404)
  })
})
