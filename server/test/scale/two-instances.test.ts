import { API_PREFIX, ROUTES } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedRedis } from '../../../test/support/shared-services'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import { startTestServer, TEST_PROJECT, TEST_PROJECTS, type TestServer } from '../support/server'

const LIMIT = 100
const WINDOW_SECONDS = 60
const REQUESTS = 500

/**
 * Scale-out: two stateless instances, each with its own Redis connection, share one counter per
 * app key. The Lua window script makes every INCR atomic on Redis' own clock, so the two together
 * admit exactly the limit, however the requests interleave.
 */
describe('two instances sharing one Redis', () => {
  const redis = sharedRedis()
  const stores: RedisStore[] = []
  const servers: TestServer[] = []

  beforeAll(async () => {
    const projects = {
      ...TEST_PROJECTS,
      projects: [
        {
          ...TEST_PROJECT,
          rateLimits: { appKey: { limit: LIMIT, windowSeconds: WINDOW_SECONDS } },
        },
        ...TEST_PROJECTS.projects.slice(1),
      ],
    }
    for (let i = 0; i < 2; i++) {
      // A long command timeout: a timed-out hit would fail open and let an extra request through,
      // which is right in production but not what this test measures (atomicity across instances).
      const store = createRedisStore(redis.url, { keyPrefix: 'scale:', commandTimeoutMs: 30_000 })
      await store.ready()
      stores.push(store)
      servers.push(await startTestServer({ projects, store }))
    }
  })

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all(stores.map((store) => store.close()))
  })

  it(`lets exactly ${LIMIT} of ${REQUESTS} concurrent requests through`, async () => {
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const server = servers[i % 2]!
        const response = await fetch(`${server.baseUrl}${API_PREFIX}${ROUTES.config}`, {
          headers: { 'X-App-Key': server.appKey },
        })
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          rateLimit: response.headers.get('ratelimit'),
          body: (await response.json()) as { error?: { code: string } },
        }
      }),
    )

    const ok = responses.filter((response) => response.status === 200)
    const limited = responses.filter((response) => response.status === 429)
    expect(ok).toHaveLength(LIMIT)
    expect(limited).toHaveLength(REQUESTS - LIMIT)

    // Every admitted request saw its own count: remaining quotas 99..0, each exactly once.
    const remaining = ok.map((response) => Number(/;r=(\d+);/.exec(response.rateLimit ?? '')?.[1]))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i))

    for (const response of limited) {
      expect(response.body.error?.code).toBe('RATE_LIMITED')
      expect(response.retryAfter).toMatch(/^\d+$/)
      const retryAfter = Number(response.retryAfter)
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS)
      expect(response.rateLimit).toMatch(/^"appkey";r=0;t=\d+$/)
    }
  })
})
