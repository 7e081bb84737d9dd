import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { buildApp } from '../../src/app'
import { createAppMetrics } from '../../src/metrics/app-metrics'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

const TOKEN = 'metrics-token-0123456789'
const DASHBOARD = new URL('../../../docs/grafana-dashboard.json', import.meta.url)

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const scrape = async (token = TOKEN) =>
  app!.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })

/** `name{labels} value` → value, from the Prometheus text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** Every metric name the text declares, with the series names histograms and summaries add. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!)
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s)
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name! + s)
  }
  return names
}

describe('metrics for operators (issue 16, finding 8)', () => {
  it('counts answers by route pattern and status, 429s by window; /metrics needs the token', async () => {
    app = await buildApp({
      projects: {
        projects: [{ ...TEST_PROJECT, rateLimits: { appKey: { limit: 2, windowSeconds: 60 } } }],
      },
      metrics: { token: TOKEN },
    })
    const config = () =>
      app!.inject({ url: '/api/v1/connect/config', headers: { 'x-app-key': TEST_APP_KEY } })
    expect([(await config()).statusCode, (await config()).statusCode]).toEqual([200, 200])
    expect((await config()).statusCode).toBe(429)
    const sessionId = randomBytes(16).toString('base64url')
    await app.inject({
      url: `/api/v1/connect/sessions/${sessionId}/result`,
      headers: { authorization: `Bearer ${'z'.repeat(43)}` },
    })
    await app.inject({ url: `/nowhere/${sessionId}` })

    // Without the token, or with another, there is no such route.
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
    expect((await scrape('another-token-0123456789')).statusCode).toBe(404)
    const answer = await scrape()
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = answer.body
    const requests = (route: string, method: string, status: number) =>
      sample(
        text,
        `scope_http_requests_total{route="${route}",method="${method}",status="${status}"}`,
      )
    expect(requests('/api/v1/connect/config', 'GET', 200)).toBe(2)
    expect(requests('/api/v1/connect/config', 'GET', 429)).toBe(1)
    expect(requests('/api/v1/connect/sessions/:sessionId/result', 'GET', 404)).toBe(1)
    expect(requests('unmatched', 'GET', 404)).toBe(1)
    expect(sample(text, 'scope_rate_limited_total{window="appkey"}')).toBe(1)
    expect(text).not.toContain(sessionId)
    expect(sample(text, 'scope_rate_limiter_floor')).toBe(0)
    expect(sample(text, 'scope_long_polls_open')).toBe(0)
    expect(sample(text, 'scope_relay_sockets')).toBe(0)
    expect(sample(text, 'scope_store_outages_total')).toBe(0)
    // In process: no Redis to report.
    expect(text).not.toMatch(/^scope_redis_up\{/m)
  })

  it('on a listener of its own (metrics.port): served there, not on the main port', async () => {
    app = await buildApp({ projects: { projects: [TEST_PROJECT] }, metrics: { port: 0 } })
    expect(app.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const answer = await fetch(`${app.metricsUrl}/metrics`)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain('# TYPE scope_http_requests_total counter')
    expect((await fetch(`${app.metricsUrl}/other`)).status).toBe(404)
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
  })

  describe('with Redis', () => {
    let redis: RunningRedis | undefined
    let store: RedisStore | undefined
    let mailbox: RedisMailbox | undefined
    afterAll(async () => {
      await store?.close()
      await mailbox?.close()
      await redis?.stop()
    })

    it('reports each Redis client up, then down when a real redis-server is killed', async () => {
      redis = await startRedis()
      store = createRedisStore(redis.url, { keyPrefix: 'metrics:' })
      mailbox = createRedisMailbox(redis.url, { keyPrefix: 'metrics:' })
      await Promise.all([store.ready(), mailbox.ready()])
      app = await buildApp({
        projects: { projects: [TEST_PROJECT] },
        store,
        relay: { mailbox },
        metrics: { token: TOKEN },
      })
      const up = (await scrape()).body
      expect(sample(up, 'scope_redis_up{client="session_store"}')).toBe(1)
      expect(sample(up, 'scope_redis_up{client="relay"}')).toBe(1)
      await redis.stop()
      await app.inject({
        method: 'POST',
        url: '/api/v1/connect/sessions',
        headers: { 'x-app-key': TEST_APP_KEY },
        payload: { caip2Chain: 'eip155:1' },
      })
      const down = (await scrape()).body
      expect(sample(down, 'scope_redis_up{client="session_store"}')).toBe(0)
      expect(sample(down, 'scope_redis_up{client="relay"}')).toBe(0)
      expect(sample(down, 'scope_store_down')).toBe(1)
      expect(sample(down, 'scope_store_outages_total')).toBe(1)
      expect(sample(down, 'scope_store_unavailable_responses_total')).toBe(1)
      expect(sample(down, 'scope_rate_limiter_floor')).toBe(1)
      expect(sample(down, 'scope_rate_limiter_outages_total')).toBe(1)
    }, 30_000)
  })

  it("reads the relay's stats() and counts only growth", async () => {
    const stats = {
      sockets: 3,
      subscriptions: 4,
      mailboxBytes: 1_000,
      mailboxMessages: 7,
      quotaRefusals: { publish: 5, subscribe: 1 },
      refusals: { appBytes: 5, storeUnavailable: 3 } as Record<string, number>,
      slowConsumerCloses: 2,
      redis: 'up' as const,
      redisOutages: 1,
    }
    const metrics = createAppMetrics({
      limiter: { stats: () => ({ mode: 'shared', outages: 0, floorDecisions: 0 }) },
      storeOutages: { stats: () => ({ down: false, outages: 0, refusals: 0 }) },
      connections: { refused: 0 },
      longPolls: { open: 2 },
      store: { kind: 'memory', isReady: async () => true },
      relay: { stats: () => stats },
    })
    let text = await metrics.scrape()
    expect(sample(text, 'scope_relay_sockets')).toBe(3)
    expect(sample(text, 'scope_relay_subscriptions')).toBe(4)
    expect(sample(text, 'scope_relay_mailbox_bytes')).toBe(1_000)
    expect(sample(text, 'scope_relay_mailbox_messages')).toBe(7)
    expect(sample(text, 'scope_relay_quota_refusals_total{quota="publish"}')).toBe(5)
    expect(sample(text, 'scope_relay_slow_consumer_closes_total')).toBe(2)
    expect(sample(text, 'scope_redis_up{client="relay"}')).toBe(1)
    expect(sample(text, 'scope_long_polls_open')).toBe(2)
    stats.quotaRefusals.publish = 8
    text = await metrics.scrape()
    expect(sample(text, 'scope_relay_quota_refusals_total{quota="publish"}')).toBe(8)
    expect(sample(text, 'scope_relay_quota_refusals_total{quota="subscribe"}')).toBe(1)
  })

  it('counts relay refusals by reason, and Redis outages by client, once each (issue 28, item 5)', async () => {
    const relay = {
      sockets: 0,
      subscriptions: 0,
      mailboxBytes: 0,
      mailboxMessages: 0,
      quotaRefusals: { appBytes: 2 },
      refusals: { appBytes: 2, storeUnavailable: 3 } as Record<string, number>,
      slowConsumerCloses: 0,
      redis: 'down' as 'up' | 'down',
      redisOutages: 1,
    }
    const events = { down: true, outages: 1 }
    const metrics = createAppMetrics({
      limiter: { stats: () => ({ mode: 'shared', outages: 0, floorDecisions: 0 }) },
      storeOutages: { stats: () => ({ down: true, outages: 1, refusals: 4 }) },
      connections: { refused: 0 },
      longPolls: { open: 0 },
      store: { kind: 'redis', isReady: async () => false },
      relay: { stats: () => relay },
      sessionEvents: { outages: () => events },
    })
    let text = await metrics.scrape()
    expect(sample(text, 'scope_relay_refusals_total{reason="storeUnavailable"}')).toBe(3)
    expect(sample(text, 'scope_relay_refusals_total{reason="appBytes"}')).toBe(2)
    expect(sample(text, 'scope_redis_outages_total{client="relay"}')).toBe(1)
    expect(sample(text, 'scope_redis_outages_total{client="session_events"}')).toBe(1)
    expect(sample(text, 'scope_redis_outages_total{client="session_store"}')).toBe(1)
    expect(sample(text, 'scope_redis_up{client="session_store"}')).toBe(0)
    relay.refusals.storeUnavailable = 10
    relay.refusals.socketsPerIp = 1
    text = await metrics.scrape()
    expect(sample(text, 'scope_relay_refusals_total{reason="storeUnavailable"}')).toBe(10)
    expect(sample(text, 'scope_relay_refusals_total{reason="socketsPerIp"}')).toBe(1)
    expect(sample(text, 'scope_redis_outages_total{client="relay"}')).toBe(1)
  })

  it('the Grafana dashboard (docs/grafana-dashboard.json) queries only metrics the server exports, and shows every scope_ metric', async () => {
    app = await buildApp({ projects: { projects: [TEST_PROJECT] }, metrics: { token: TOKEN } })
    const exported = exportedNames((await scrape()).body)
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as unknown
    const queries: string[] = []
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk)
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if ((key === 'expr' || key === 'query') && typeof value === 'string') queries.push(value)
          else walk(value)
        }
      }
    }
    walk(dashboard)
    expect(queries.length).toBeGreaterThan(10)
    const used = new Set(
      queries.flatMap((query) =>
        [...query.matchAll(/\b((?:scope|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!),
      ),
    )
    expect([...used].filter((name) => !exported.has(name))).toEqual([])
    const ours = [...exported].filter((name) => name.startsWith('scope_'))
    expect(ours.filter((name) => !used.has(name))).toEqual([])
  })
})
