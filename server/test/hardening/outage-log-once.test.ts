import type { FastifyInstance } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { buildApp } from '../../src/app'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import { HEALTH_DETAILS, HEALTH_TOKEN } from '../support/health'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let redis: RunningRedis | undefined
let store: RedisStore | undefined
let app: FastifyInstance | undefined
afterAll(async () => {
  await app?.close()
  await store?.close()
  await redis?.stop()
})

describe('a Redis outage does not flood the log (issue 16, finding 5)', () => {
  it('a real redis-server killed under load: one line when the outage starts, one when it ends, every 503 counted', async () => {
    redis = await startRedis()
    store = createRedisStore(redis.url, { keyPrefix: 'outage-log:' })
    await store.ready()
    // Every line but the access log (one line per request by design, at info).
    const lines: string[] = []
    const write = (line: string) => {
      const { msg } = JSON.parse(line) as { msg: string }
      if (msg !== 'incoming request' && msg !== 'request completed') lines.push(line)
    }
    app = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      store,
      metrics: { token: HEALTH_TOKEN },
      logger: { level: 'info', destination: { write } },
    })
    const createSession = () =>
      app!.inject({
        method: 'POST',
        url: '/api/v1/connect/sessions',
        headers: { 'x-app-key': TEST_APP_KEY },
        payload: { caip2Chain: 'eip155:1' },
      })
    expect((await createSession()).statusCode).toBe(201)

    const before = lines.length
    await redis.stop()
    const statuses: number[] = []
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, createSession))
      statuses.push(...answers.map((answer) => answer.statusCode))
    }
    expect(statuses.filter((status) => status === 503)).toHaveLength(200)
    // On the old code: 200 warnings with a full stack each, ~1.6 KB apiece.
    const storeLines = () => lines.filter((line) => line.includes('session store'))
    expect(storeLines()).toHaveLength(1)
    expect(storeLines()[0]).toContain('STORE_UNAVAILABLE')
    expect(storeLines()[0]).not.toContain('"stack"')
    expect(storeLines()[0]!.length).toBeLessThan(400)
    // Everything logged during the outage: that line and the limiter's own.
    // (In either order: the store's own connection may tell of the outage before a request.)
    expect(
      lines
        .slice(before)
        .map((line) => JSON.parse(line).msg)
        .sort(),
    ).toEqual([
      'rate limiter on its per-instance floor: shared counter store unavailable',
      'session store unavailable: answering 503 STORE_UNAVAILABLE until it is back (logged once per outage)',
    ])
    const health = (await app.inject({ url: '/healthz', headers: HEALTH_DETAILS })).json()
    expect(health.store).toMatchObject({ down: true, outages: 1, refusals: 200 })

    // Restarted on the same port: the end is logged once.
    redis = await startRedis({ port: redis.port })
    let back = false
    for (let i = 0; i < 100 && !back; i++) {
      await sleep(100)
      back =
        (await app.inject({ url: '/healthz', headers: HEALTH_DETAILS })).json().store.down === false
    }
    expect(back).toBe(true)
    expect((await createSession()).statusCode).toBe(201)
    const messages = lines.slice(before).map((line) => JSON.parse(line).msg as string)
    expect(messages.filter((msg) => msg.startsWith('session store'))).toEqual([
      'session store unavailable: answering 503 STORE_UNAVAILABLE until it is back (logged once per outage)',
      'session store back: requests served again',
    ])
    expect(messages.length).toBeLessThanOrEqual(4) // and the limiter's pair
    expect((await app.inject({ url: '/healthz', headers: HEALTH_DETAILS })).json().store).toEqual({
      down: false,
      outages: 1,
      refusals: 200,
    })
  }, 30_000)

  it('each outage is logged once at its start and once at its end', async () => {
    const { createStoreOutages } = await import('../../src/http/store-outages')
    const logged: string[] = []
    let ready = false
    const outages = createStoreOutages({
      store: { isReady: async () => ready },
      log: {
        warn: (_o, msg) => logged.push(`warn ${msg}`),
        info: (_o, msg) => logged.push(`info ${msg}`),
      },
      probeMs: 10,
      settleMs: 30,
    })
    for (let i = 0; i < 50; i++) outages.refused(new Error('redis: connection closed'))
    await sleep(50)
    ready = true
    await sleep(150)
    for (let i = 0; i < 5; i++) outages.refused(new Error('redis: connection closed'))
    ready = false
    outages.close()
    expect(logged).toEqual([
      expect.stringMatching(/^warn session store unavailable/),
      'info session store back: requests served again',
      expect.stringMatching(/^warn session store unavailable/),
    ])
    expect(outages.stats()).toEqual({ down: true, outages: 2, refusals: 55 })
  })
})

describe('a flapping outage counts once (issue 28, item 5)', () => {
  it('probes that answer, then fail, then answer within the settle delay: one outage, one start line, one end line', async () => {
    const { createStoreOutages } = await import('../../src/http/store-outages')
    const logged: string[] = []
    let ready = false
    const outages = createStoreOutages({
      store: { isReady: async () => ready },
      log: {
        warn: (_o, msg) => logged.push(`warn ${msg}`),
        info: (_o, msg) => logged.push(`info ${msg}`),
      },
      probeMs: 10,
      settleMs: 200,
    })
    // A failover as the routes met it: refused, a probe answers, refused again, and so on.
    for (let flap = 0; flap < 5; flap++) {
      ready = false
      outages.refused(new Error('redis: connection closed'))
      await sleep(30)
      ready = true
      await sleep(40)
      // On the old code each answered probe ended the outage: 5 outages, 10 lines.
      expect(outages.stats()).toMatchObject({ down: true, outages: 1 })
    }
    for (let i = 0; i < 100 && outages.stats().down; i++) await sleep(20)
    outages.close()
    expect(outages.stats()).toEqual({ down: false, outages: 1, refusals: 5 })
    expect(logged).toEqual([
      expect.stringMatching(/^warn session store unavailable/),
      'info session store back: requests served again',
    ])
  })

  it('the store itself reports an outage (Store.onUnavailable): the outage starts with no request refused', async () => {
    const { createStoreOutages } = await import('../../src/http/store-outages')
    const logged: string[] = []
    let tell: ((reason: string) => void) | undefined
    let ready = false
    const outages = createStoreOutages({
      store: {
        isReady: async () => ready,
        onUnavailable: (listener) => {
          tell = listener
          return () => {
            tell = undefined
          }
        },
      },
      log: {
        warn: (o, msg) => logged.push(`warn ${msg} ${JSON.stringify(o)}`),
        info: (_o, msg) => logged.push(`info ${msg}`),
      },
      probeMs: 10,
      settleMs: 20,
    })
    tell?.('slots 0-5460 (127.0.0.1:7000: connection reconnecting) not served')
    tell?.('slots 0-5460 (127.0.0.1:7000: connection reconnecting) not served')
    expect(outages.stats()).toEqual({ down: true, outages: 1, refusals: 0 })
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('slots 0-5460')
    ready = true
    for (let i = 0; i < 100 && outages.stats().down; i++) await sleep(10)
    outages.close()
    expect(tell).toBeUndefined()
    expect(logged.slice(1)).toEqual(['info session store back: requests served again'])
  })
})
