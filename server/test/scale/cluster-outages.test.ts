import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { Cluster } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedisCluster, startRedisCluster } from '../../../test/support/redis-cluster'
import { buildApp } from '../../src/app'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import type { RedisTarget } from '../../src/store/redis-connection'
import { storeKeys } from '../../src/store/redis-keys'
import {
  createRedisSessionEvents,
  type RedisSessionEvents,
} from '../../src/store/session-events-redis'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

const run = promisify(execFile)
const PREFIX = 'scope:'
const TOKEN = 'metrics-token-0123456789'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits on a condition, generously: a loaded 2-core machine, a failover, reconnect backoffs. */
async function waitFor<T>(attempt: () => Promise<T | undefined>, what: string): Promise<T> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const value = await attempt().catch(() => undefined)
    if (value !== undefined) return value
    await sleep(50)
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** `name{labels} value` → value, from the Prometheus text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** The slot ranges a /readyz message names (`slots 0-5460 (…), 10923-16383 (…) not served`). */
function namedRanges(message: string): [number, number][] {
  return [...message.matchAll(/(?:slots |\), )(\d+)(?:-(\d+))? \(/g)].map((m) => [
    Number(m[1]),
    Number(m[2] ?? m[1]),
  ])
}

/**
 * A Redis Cluster that reports its own failures (issue 28, item 5): one instance (store, session
 * events and relay mailbox on a real 3+3 cluster, `test/support/redis-cluster.ts`). A primary
 * killed: `/readyz` answers 503 naming the slot range it served and `scope_redis_up` drops, until
 * its replica took over; each Redis client logs the outage once at its start and once at its end
 * and counts it once. A shard lost for good: `/readyz` and `/healthz` say so, as session
 * creation does. On the old code `/readyz` stayed 200 and the gauge 1 (a PING to any node
 * answers), the relay's warning latched and outages were counted several times each.
 */
describe('a Redis Cluster that reports its own failures', () => {
  let cluster: RunningRedisCluster
  let store: RedisStore
  let events: RedisSessionEvents
  let mailbox: RedisMailbox
  let app: FastifyInstance
  const lines: { level: number; msg: string; err?: unknown }[] = []

  beforeAll(async () => {
    cluster = await startRedisCluster({ nodeTimeoutMs: 1_000 })
    const target: RedisTarget = { cluster: cluster.nodes }
    // The clients log through the app's logger, as the CLI wires them.
    const log = {
      warn: (obj: object, msg: string) => app?.log.warn(obj, msg),
      info: (obj: object, msg: string) => app?.log.info(obj, msg),
    }
    store = createRedisStore(target, { keyPrefix: PREFIX })
    events = createRedisSessionEvents(target, { keyPrefix: PREFIX, log })
    mailbox = createRedisMailbox(target, { keyPrefix: PREFIX, log })
    // (Retried: a first connection on a loaded machine may take longer than its 1 s bound.)
    await waitFor(async () => {
      await Promise.all([store.ready(), events.ready(), mailbox.ready()])
      return true
    }, 'the clients')
    app = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      store,
      sessionEvents: events,
      relay: { mailbox },
      metrics: { token: TOKEN },
      logger: {
        level: 'info',
        destination: {
          write: (line: string) => {
            const entry = JSON.parse(line) as { level: number; msg: string; err?: unknown }
            if (entry.msg !== 'incoming request' && entry.msg !== 'request completed') {
              lines.push(entry)
            }
          },
        },
      },
    })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await Promise.all([store?.close(), events?.close(), mailbox?.close()])
    await cluster?.stop()
  })

  const readyz = async () => {
    const answer = await app.inject({ url: '/readyz' })
    return { status: answer.statusCode, body: answer.json() as Record<string, any> }
  }
  const scrape = async () =>
    (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body
  const createSession = () =>
    app.inject({
      method: 'POST',
      url: '/api/v1/connect/sessions',
      headers: { 'x-app-key': TEST_APP_KEY },
      payload: { caip2Chain: 'eip155:1' },
    })
  const logged = (prefix: string) => lines.filter((line) => line.msg.startsWith(prefix))

  it('a primary killed: /readyz 503 names its slot range and scope_redis_up drops until the replica took over; one outage, one start line and one end line per client', async () => {
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', store: 'redis', relay: 'up' },
    })
    expect(sample(await scrape(), 'scope_redis_up{client="session_store"}')).toBe(1)
    const key = storeKeys(PREFIX, true).session('victim')
    const admin = new Cluster([
      { host: '127.0.0.1', port: Number(cluster.nodes[0]!.split(':')[1]) },
    ])
    const slot = Number(await admin.cluster('KEYSLOT', key))
    admin.disconnect()

    // Watch /readyz and the gauge while the primary is killed and its replica takes over.
    const seen: { status: number; message?: string }[] = []
    const gauges: number[] = []
    let watching = true
    const watch = (async () => {
      while (watching) {
        const answer = await readyz()
        seen.push({ status: answer.status, message: answer.body.error?.message })
        gauges.push(sample(await scrape(), 'scope_redis_up{client="session_store"}') ?? -1)
        // Some traffic too, as under load: its 503s are counted, never logged one by one.
        await createSession()
        await sleep(50)
      }
    })()
    await cluster.killPrimaryOf(key)
    await waitFor(async () => ((await readyz()).status === 200 ? true : undefined), '/readyz 200')
    watching = false
    await watch

    const refused = seen.filter((answer) => answer.status === 503)
    // On the old code: always 200 (a PING to another node answered), the gauge always 1.
    expect(refused.length).toBeGreaterThan(0)
    expect(gauges).toContain(0)
    const ranges = namedRanges(refused[0]!.message!)
    expect(refused[0]!.message).toMatch(/^the store does not serve every hash slot: slots /)
    expect(ranges.some(([from, to]) => slot >= from && slot <= to)).toBe(true)
    // One shard of three: the others' slots are not named.
    const named = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0)
    expect(named).toBeLessThan(16_384 / 2)
    expect(sample(await scrape(), 'scope_redis_up{client="session_store"}')).toBe(1)

    // Each client's outage ends once it has looked healthy for the settle delay (2 s).
    const ended = () =>
      logged('session store back').length > 0 &&
      logged('session events: redis is back').length > 0 &&
      logged('relay mailbox: redis is back').length > 0
    await waitFor(async () => (ended() ? true : undefined), 'the end lines')
    await sleep(2_500) // a late flap would log a second pair
    expect(logged('session store unavailable')).toHaveLength(1)
    expect(logged('session store back')).toHaveLength(1)
    expect(logged('session events: redis unavailable')).toHaveLength(1)
    expect(logged('session events: redis is back')).toHaveLength(1)
    expect(logged('relay mailbox: redis unavailable')).toHaveLength(1)
    expect(logged('relay mailbox: redis is back')).toHaveLength(1)
    // The start lines name the cause, a string: the terminal format prints it too.
    expect(logged('relay mailbox: redis unavailable')[0]!.err).toEqual(expect.any(String))
    const metrics = await scrape()
    expect(sample(metrics, 'scope_store_outages_total')).toBe(1)
    expect(sample(metrics, 'scope_redis_outages_total{client="session_store"}')).toBe(1)
    expect(sample(metrics, 'scope_redis_outages_total{client="session_events"}')).toBe(1)
    expect(sample(metrics, 'scope_redis_outages_total{client="relay"}')).toBe(1)
    expect((await app.inject({ url: '/healthz' })).json()).toMatchObject({ status: 'ok' })
  }, 90_000)

  it('a shard lost for good (primary and replica): /readyz and /healthz agree with session creation', async () => {
    // The shard of one primary, and its replica: both shut down, nobody takes over.
    const primaries = await cluster.primaryPorts()
    const victim = primaries[0]!
    const nodes = (await cli(victim, 'CLUSTER', 'NODES')).trim().split('\n')
    const victimId = nodes.find((line) => line.includes(`:${victim}@`))!.split(' ')[0]!
    const replica = nodes
      .map((line) => line.split(' '))
      .find((fields) => fields[3] === victimId && !fields[2]!.includes('fail'))
    const replicaPort = Number(/:(\d+)@/.exec(replica![1]!)![1])
    await cli(replicaPort, 'SHUTDOWN', 'NOSAVE').catch(() => undefined)
    await cli(victim, 'SHUTDOWN', 'NOSAVE').catch(() => undefined)

    const ready = await waitFor(async () => {
      const answer = await readyz()
      return answer.status === 503 ? answer : undefined
    }, '/readyz 503')
    expect(ready.body.error.code).toBe('STORE_UNAVAILABLE')
    expect(ready.body.error.message).toContain(`127.0.0.1:${victim}`)
    const answers = await Promise.all(Array.from({ length: 30 }, createSession))
    const statuses = answers.map((answer) => answer.statusCode)
    // Sessions hashed to the lost shard are refused, the others created.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(0)
    // And the probes say so (on the old code /healthz said ok and /readyz 200 throughout).
    const health = (await app.inject({ url: '/healthz' })).json()
    expect(health.status).toBe('degraded')
    expect((await readyz()).status).toBe(503)
    expect(sample(await scrape(), 'scope_redis_up{client="session_store"}')).toBe(0)
    await sleep(3_000)
    expect((await readyz()).status).toBe(503)
    expect((await app.inject({ url: '/healthz' })).json().status).toBe('degraded')
  }, 60_000)
})

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.env.REDIS_CLI_BIN ?? 'redis-cli', [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    ...args,
  ])
  return stdout
}
