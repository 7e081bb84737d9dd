import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { Cluster } from 'ioredis'
import { RELAY_METHODS } from 'scope-connect/wire'
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
import { connectRelay, envelope, type RelayTestClient, topicFor } from '../support/relay-client'
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

/** What /readyz answers: ready, or the documented error body. */
interface ReadyzBody {
  status?: string
  store?: string
  relay?: string
  error?: { code: string; message: string }
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
  let relayClient: RelayTestClient | undefined
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
    // Listening: a relay client publishes on the killed shard's topics, as a dApp would.
    await app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)

  afterAll(async () => {
    relayClient?.close()
    await app?.close()
    await Promise.all([store?.close(), events?.close(), mailbox?.close()])
    await cluster?.stop()
  })

  const readyz = async () => {
    const answer = await app.inject({ url: '/readyz' })
    return { status: answer.statusCode, body: answer.json() as ReadyzBody }
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
    // A relay topic on the shard that is about to lose its primary, with a publisher on it.
    const victim = await cluster.primaryPortOf(key)
    let topic = topicFor('outage-0')
    for (let i = 1; (await cluster.primaryPortOf(`{${topic}}`)) !== victim; i++) {
      topic = topicFor(`outage-${i}`)
    }
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    relayClient = await connectRelay(`http://127.0.0.1:${port}`)
    await relayClient.request(RELAY_METHODS.subscribe, { topic })
    let published = 0
    const publishOnce = () =>
      relayClient!
        .request(RELAY_METHODS.publish, {
          topic,
          message: envelope(`m${published++}`),
          ttl: 300,
          tag: 1108,
        })
        .catch(() => undefined)

    // Watch /readyz and the gauge while the primary is killed and its replica takes over.
    const seen: { status: number; message?: string }[] = []
    const gauges: number[] = []
    const health: string[] = []
    let watching = true
    // The probes in one tight loop, the traffic in another (a request may wait out a failover).
    const watch = Promise.all([
      (async () => {
        while (watching) {
          const answer = await readyz()
          seen.push({ status: answer.status, message: answer.body.error?.message })
          gauges.push(sample(await scrape(), 'scope_redis_up{client="session_store"}') ?? -1)
          health.push((await app.inject({ url: '/healthz' })).json().status)
          await sleep(20)
        }
      })(),
      (async () => {
        while (watching) {
          // Some traffic too, as under load: its 503s are counted, never logged one by one.
          await Promise.all([createSession(), publishOnce()])
          await sleep(50)
        }
      })(),
    ])
    await cluster.killPrimaryOf(key)
    await waitFor(async () => ((await readyz()).status === 200 ? true : undefined), '/readyz 200')
    watching = false
    await watch

    const refused = seen.filter((answer) => answer.status === 503)
    // On the old code: always 200 (a PING to another node answered), the gauge always 1.
    expect(refused.length).toBeGreaterThan(0)
    expect(gauges).toContain(0)
    // The store names the killed primary's range (the key's slot is in it); the relay, which met
    // the outage on its topic, is down until its own outage has settled.
    const named = refused.filter((answer) =>
      answer.message?.startsWith('the store does not serve every hash slot: slots '),
    )
    expect(named.length).toBeGreaterThan(0)
    // (Or, on a loaded machine, a command timed out meanwhile: the store is stalled until it answers.)
    for (const answer of refused) {
      if (named.includes(answer)) continue
      expect(["the relay's Redis is not reachable", 'the store is not reachable']).toContain(
        answer.message,
      )
    }
    const ranges = namedRanges(named[0]!.message!)
    expect(ranges.some(([from, to]) => slot >= from && slot <= to)).toBe(true)
    // One shard of three: the others' slots are not named.
    const slots = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0)
    expect(slots).toBeLessThan(16_384 / 2)
    expect(sample(await scrape(), 'scope_redis_up{client="session_store"}')).toBe(1)
    // /healthz went degraded once and stayed so through the failover (it flipped 3-5 times before).
    const flips = health.filter((status, i) => i > 0 && status !== health[i - 1]).length
    expect(health).toContain('degraded')
    expect(flips).toBeLessThanOrEqual(2)

    // Each client's outage ends once it has looked healthy for the settle delay (2 s).
    const ended = () =>
      logged('session store back').length > 0 &&
      logged('session events: redis is back').length > 0 &&
      logged('relay mailbox: redis is back').length > 0
    await waitFor(async () => (ended() ? true : undefined), 'the end lines').catch((err) => {
      // What was logged, to tell which client never ended its outage.
      throw new Error(`${err.message}: ${JSON.stringify(lines.map(({ msg, err }) => [msg, err]))}`)
    })
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
    // (A primary that still has a live replica: the one promoted above has none.)
    const primaries = await cluster.primaryPorts()
    const nodes = (await cli(primaries[0]!, 'CLUSTER', 'NODES'))
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
    const portOf = (fields: string[]) => Number(/:(\d+)@/.exec(fields[1] ?? '')?.[1] ?? 0)
    const replica = nodes.find(
      (fields) =>
        fields[2]!.includes('slave') &&
        !fields[2]!.includes('fail') &&
        primaries.includes(portOf(nodes.find((primary) => primary[0] === fields[3]) ?? ['', ''])),
    )!
    const victim = portOf(nodes.find((primary) => primary[0] === replica[3])!)
    const replicaPort = portOf(replica)
    await cli(replicaPort, 'SHUTDOWN', 'NOSAVE').catch(() => undefined)
    await cli(victim, 'SHUTDOWN', 'NOSAVE').catch(() => undefined)

    const ready = await waitFor(async () => {
      const answer = await readyz()
      return answer.status === 503 ? answer : undefined
    }, '/readyz 503')
    expect(ready.body.error?.code).toBe('STORE_UNAVAILABLE')
    expect(ready.body.error?.message).toContain(`127.0.0.1:${victim}`)
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
