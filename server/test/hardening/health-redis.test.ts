import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { buildApp } from '../../src/app'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { HEALTH_DETAILS, HEALTH_TOKEN } from '../support/health'
import { TEST_PROJECT } from '../support/server'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let redis: RunningRedis | undefined
let mailbox: RedisMailbox | undefined
let app: FastifyInstance | undefined
afterAll(async () => {
  await app?.close()
  await mailbox?.close()
  await redis?.stop()
})

describe("/healthz and /readyz report the relay's Redis (issue 16, finding 7)", () => {
  it('a real redis-server behind the relay killed: /healthz degraded with relay.redis down, /readyz 503; restarted, both recover', async () => {
    redis = await startRedis()
    mailbox = createRedisMailbox(redis.url, { keyPrefix: 'health:' })
    await mailbox.ready()
    // Sessions in process, the relay on Redis: only the relay's Redis can go down here.
    app = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      relay: { mailbox },
      metrics: { token: HEALTH_TOKEN },
    })
    const probe = async () => {
      const health = await app!.inject({ url: '/healthz', headers: HEALTH_DETAILS })
      const ready = await app!.inject({ url: '/readyz' })
      return { health: health.json(), ready: ready.statusCode, readyBody: ready.json() }
    }

    const before = await probe()
    expect([before.health.status, before.ready]).toEqual(['ok', 200])

    await redis.stop()
    const during = await probe()
    // On the old code: "ok" and 200, the relay's Redis unseen.
    expect([during.health.status, during.ready]).toEqual(['degraded', 503])
    expect(during.health.relay.redis).toBe('down')
    expect(during.readyBody.error).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: "the relay's Redis is not reachable",
    })
    expect(before.health.relay).toEqual({ redis: 'up', sockets: 0, subscriptions: 0 })
    expect(before.readyBody).toEqual({ status: 'ready', store: 'memory', relay: 'up' })

    redis = await startRedis({ port: redis.port })
    let after = await probe()
    for (let i = 0; i < 100 && after.ready !== 200; i++) {
      await sleep(100)
      after = await probe()
    }
    expect(after.ready).toBe(200)
    expect(after.health).toMatchObject({ status: 'ok', relay: { redis: 'up' } })
  }, 30_000)

  it('an in-process relay reports no Redis and never holds readiness back', async () => {
    const local = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      metrics: { token: HEALTH_TOKEN },
    })
    try {
      expect(
        (await local.inject({ url: '/healthz', headers: HEALTH_DETAILS })).json(),
      ).toMatchObject({
        status: 'ok',
        relay: { redis: 'none' },
      })
      expect((await local.inject({ url: '/readyz' })).json()).toEqual({
        status: 'ready',
        store: 'memory',
        relay: 'none',
      })
    } finally {
      await local.close()
    }
  })
})
