import type { FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { sharedRedis } from '../../../test/support/shared-services'
import { buildApp } from '../../src/app'
import { fairShare } from '../../src/rate-limit/fair-ceiling'
import { createMemoryStore } from '../../src/store/memory'
import { createRedisStore } from '../../src/store/redis'
import type { Store } from '../../src/store/types'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

// Small figures, the defaults' shape: the ceiling is a hundred callers' worth.
const PER_CALLER = 10
const CEILING = 500
const ATTACKERS = 100

const redis = sharedRedis()

const stores: Array<[string, () => Promise<Store>]> = [
  ['in process', async () => createMemoryStore()],
  [
    'on a real redis-server',
    async () => {
      const store = createRedisStore(redis.url, { keyPrefix: `fair:${Date.now()}:` })
      await store.ready()
      return store
    },
  ],
]

describe.each(stores)('a fair project ceiling (issue 16, finding 4), %s', (_name, makeStore) => {
  it('a hundred callers (IPv6 /64s) fill the ceiling; a new caller still gets 200, and the hundred are held to their share', async () => {
    const store = await makeStore()
    let app: FastifyInstance | undefined
    try {
      app = await buildApp({
        projects: {
          projects: [
            {
              ...TEST_PROJECT,
              rateLimits: {
                appKey: { limit: PER_CALLER, windowSeconds: 60 },
                project: { limit: CEILING, windowSeconds: 60 },
              },
            },
          ],
        },
        store,
      })
      const config = (remoteAddress: string) =>
        app!.inject({
          url: '/api/v1/connect/config',
          headers: { 'x-app-key': TEST_APP_KEY },
          remoteAddress,
        })
      const attacker = (i: number) => `2001:db8:${i.toString(16)}::1`

      // Each of the hundred spends half its own window: the ceiling is full.
      for (let round = 0; round < CEILING / ATTACKERS; round++) {
        const answers = await Promise.all(
          Array.from({ length: ATTACKERS }, (_, i) => config(attacker(i))),
        )
        expect(answers.every((answer) => answer.statusCode === 200)).toBe(true)
      }
      // Past the ceiling, an attacker at its share (500 / 100 = 5) is refused by the project window.
      const more = await config(attacker(0))
      expect(more.statusCode).toBe(429)
      expect(more.headers['ratelimit-policy']).toBe(`"project";q=${CEILING};w=60`)

      // A new caller is within its share (500 / 101 = 4): on the old code, 429 "project".
      const newcomer = '2001:db8:ffff::1'
      const first = await config(newcomer)
      expect(first.statusCode).toBe(200)
      expect(first.headers['ratelimit-policy']).toBe(`"appkey";q=${PER_CALLER};w=60`)
      // It is held to its share: 4 requests, or 5 on Redis, whose count of distinct callers
      // (a HyperLogLog) may be off by one at this size (~0.8 %).
      let admitted = 1
      let refusal: Awaited<ReturnType<typeof config>> | undefined
      while (!refusal && admitted <= PER_CALLER) {
        const answer = await config(newcomer)
        if (answer.statusCode === 200) admitted++
        else refusal = answer
      }
      expect(fairShare(CEILING, ATTACKERS + 1)).toBe(4)
      expect(admitted).toBeGreaterThanOrEqual(4)
      expect(admitted).toBeLessThanOrEqual(5)
      // Past its share the newcomer too is refused: the ceiling still caps the project.
      expect(refusal?.statusCode).toBe(429)
      expect(refusal?.headers['ratelimit-policy']).toBe(`"project";q=${CEILING};w=60`)
      // Another newcomer, IPv4 this time, gets in as well.
      expect((await config('198.51.100.200')).statusCode).toBe(200)
    } finally {
      await app?.close()
      await store.close()
    }
  }, 30_000)
})
