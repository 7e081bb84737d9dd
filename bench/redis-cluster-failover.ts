/**
 * A Redis Cluster primary killed under load: what is lost, and how long the service takes to
 * answer again. Two backend instances (A and B, in this process) on a local cluster (three
 * primaries, three replicas; `test/support/redis-cluster.ts`, `cluster-node-timeout` from
 * `--node-timeout`). The load, on both instances: sessions created on A and read back on B, and
 * relay messages published on A to subscribers on B, over many topics (so every shard holds
 * some). After `--before` s the primary serving one of the sessions is killed (SIGKILL); the load
 * goes on for `--after` s more. Then:
 *
 * - sessions lost: created (201) but no longer found (404) on either instance;
 * - messages lost: published (answered `true`) but neither pushed to the subscriber nor in the
 *   topic's mailbox (`scr_fetchMessages`);
 * - recovery: from the kill to the last failed call (503 / STORE_UNAVAILABLE) of each kind, and the
 *   cluster's own takeover (a replica serving the slot, every live node `cluster_state:ok`).
 *
 * - publishes to topics on healthy shards: of the publishes made while the killed shard failed
 *   over, those to topics another shard serves, and how many of them failed (issue 28: none may).
 *
 * `--kill usage` kills the primary serving the relay's `relay:{usage}` slot instead (the slot
 * every publish touched before issue 28); `--kill session` (the default) the latest session's.
 *
 * Prints a table; the figures are in docs/redis.md and docs/benchmarks.md.
 *
 *   npx tsx bench/redis-cluster-failover.ts [--node-timeout 1000] [--before 3] [--after 10]
 *     [--rounds 3] [--kill session|usage]
 */
import { performance } from 'node:perf_hooks'
import { RELAY_METHODS } from 'scope-connect/wire'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import { createRedisMailbox } from '../server/src/relay/mailbox-redis'
import { generateRelaySigningKey } from '../server/src/relay/token'
import { startServer } from '../server/src/server'
import { createRedisStore } from '../server/src/store/redis'
import { storeKeys } from '../server/src/store/redis-keys'
import { createRedisSessionEvents } from '../server/src/store/session-events-redis'
import { call } from '../server/test/support/http'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  type RelayTestClient,
  topicFor,
} from '../server/test/support/relay-client'
import { TEST_PROJECT } from '../server/test/support/server'
import { startRedisCluster } from '../test/support/redis-cluster'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const NODE_TIMEOUT_MS = option('node-timeout', 1_000)
const BEFORE_S = option('before', 3)
const AFTER_S = option('after', 10)
const ROUNDS = option('rounds', 3)
const KILL_USAGE = args[args.indexOf('--kill') + 1] === 'usage' && args.includes('--kill')
/** Session creators on A, each one session at a time (every 20 ms at most). */
const CREATORS = 8
/** Publisher sockets on A, each with a subscriber socket on B, over TOPICS_EACH topics. */
const PUBLISHERS = 8
const TOPICS_EACH = 8
const PUBLISH_EVERY_MS = 100
const PREFIX = 'scope:'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// The bench measures loss and recovery, not the limiter: quotas far above what it offers.
const PROJECTS: ProjectsConfig = {
  projects: [
    {
      ...TEST_PROJECT,
      rateLimits: {
        appKey: { limit: 1_000_000, windowSeconds: 60 },
        project: { limit: 1_000_000, windowSeconds: 60 },
      },
    },
  ],
}

// Every bench socket comes from 127.0.0.1 under one app key: storage quotas above the load.
const RELAY_LIMITS = {
  sourceQuotaMessages: 1_000_000,
  sourceQuotaBytes: 1_000_000_000,
  appQuotaMessages: 1_000_000,
  appQuotaBytes: 1_000_000_000,
}

interface Outcome {
  at: number
  ok: boolean
  /** A publish to a topic served by a shard that was not killed. */
  healthy?: boolean
}

interface Round {
  takeoverMs: number
  sessions: { created: number; lost: number; failedCreates: number }
  messages: { published: number; lost: number; viaMailbox: number; failedPublishes: number }
  /** From the kill to the last failed call, per kind (0: none failed). */
  recoveryMs: { create: number; read: number; publish: number }
  /** Publishes to topics on the other shards between the kill and the takeover. */
  healthyShards: { published: number; failed: number }
}

async function round(): Promise<Round> {
  const cluster = await startRedisCluster({ nodeTimeoutMs: NODE_TIMEOUT_MS })
  const target = { cluster: cluster.nodes }
  const signingKey = generateRelaySigningKey()
  const parts: Array<{ close(): Promise<void> }> = []
  const urls: string[] = []
  for (let i = 0; i < 2; i++) {
    const store = createRedisStore(target, { keyPrefix: PREFIX })
    const sessionEvents = createRedisSessionEvents(target, { keyPrefix: PREFIX })
    const mailbox = createRedisMailbox(target, { keyPrefix: PREFIX })
    await Promise.all([store.ready(), sessionEvents.ready(), mailbox.ready()])
    const server = await startServer({
      projects: PROJECTS,
      store,
      sessionEvents,
      port: 0,
      logger: false,
      http: { maxConnectionsPerIp: 1_000_000 },
      relay: {
        mailbox,
        signingKeys: [signingKey],
        publicUrl: 'http://relay.bench',
        limits: RELAY_LIMITS,
      },
    })
    urls.push(server.url)
    parts.push(server, store, sessionEvents, mailbox)
  }
  const [a, b] = urls as [string, string]
  const appKey = { 'x-app-key': TEST_PROJECT.appKeys[0]! }

  const clients: RelayTestClient[] = []
  const pairs: Array<{
    publisher: RelayTestClient
    subscriber: RelayTestClient
    topics: string[]
  }> = []
  const token = (await issueRelayToken(a)).token
  for (let p = 0; p < PUBLISHERS; p++) {
    const topics = Array.from({ length: TOPICS_EACH }, (_, t) =>
      topicFor(`failover-${Date.now()}-${p}-${t}`),
    )
    const publisher = await connectRelay(a, { token })
    const subscriber = await connectRelay(b, { token })
    clients.push(publisher, subscriber)
    for (const topic of topics) await subscriber.request(RELAY_METHODS.subscribe, { topic })
    pairs.push({ publisher, subscriber, topics })
  }

  // Which primary serves each topic, and the one that will be killed.
  const usageKey = `${PREFIX}relay:{usage}`
  const victimOf = async (sessionId?: string) =>
    KILL_USAGE || !sessionId
      ? cluster.primaryPortOf(usageKey)
      : cluster.primaryPortOf(storeKeys(PREFIX, true).session(sessionId))
  const shardOf = new Map<string, number>()
  for (const { topics } of pairs) {
    for (const topic of topics) shardOf.set(topic, await cluster.primaryPortOf(`{${topic}}`))
  }
  let victim = KILL_USAGE ? await victimOf() : -1

  const creates: Outcome[] = []
  const reads: Outcome[] = []
  const publishes: Outcome[] = []
  const created: Array<{ sessionId: string; sessionToken: string }> = []
  const published: Array<{ topic: string; message: string; subscriber: RelayTestClient }> = []
  let running = true
  const started = performance.now()
  const now = () => performance.now() - started

  const creators = Array.from({ length: CREATORS }, async () => {
    while (running) {
      const answer = await call(a, '/sessions', {
        body: { caip2Chain: 'eip155:1', intent: 'sign' },
        headers: appKey,
      }).catch(() => undefined)
      creates.push({ at: now(), ok: answer?.status === 201 })
      if (answer?.status === 201) {
        const session = answer.body as { sessionId: string; sessionToken: string }
        created.push(session)
        const read = await call(b, `/sessions/${session.sessionId}/result`, {
          headers: { authorization: `Bearer ${session.sessionToken}` },
        }).catch(() => undefined)
        reads.push({ at: now(), ok: read?.status === 200 })
      }
      await sleep(20)
    }
  })
  let sequence = 0
  const publishers = pairs.map(async ({ publisher, subscriber, topics }) => {
    for (let n = 0; running; n++) {
      const topic = topics[n % topics.length]!
      const message = envelope(`m${sequence++}`)
      const ok = await publisher
        .request(RELAY_METHODS.publish, { topic, message, ttl: 300, tag: 1108 })
        .then(
          (result) => result === true,
          () => false,
        )
      publishes.push({ at: now(), ok, healthy: shardOf.get(topic) !== victim })
      if (ok) published.push({ topic, message, subscriber })
      await sleep(PUBLISH_EVERY_MS)
    }
  })

  await sleep(BEFORE_S * 1000)
  // A primary that holds sessions of the load: the one serving the latest session's slot.
  if (!KILL_USAGE) victim = await victimOf(created.at(-1)!.sessionId)
  const killedAt = now()
  await cluster.killPrimaryOf(
    KILL_USAGE ? usageKey : storeKeys(PREFIX, true).session(created.at(-1)!.sessionId),
  )
  const takeoverMs = now() - killedAt
  await sleep(AFTER_S * 1000)
  running = false
  await Promise.all([...creators, ...publishers])
  await sleep(1_000) // the last pushes on their way

  // Sessions: every acknowledged one must still be found, on either instance.
  let lost = 0
  for (const { sessionId, sessionToken } of created) {
    const headers = { authorization: `Bearer ${sessionToken}` }
    const found = await Promise.all(
      [a, b].map((url) => call(url, `/sessions/${sessionId}/result`, { headers })),
    )
    if (!found.some((answer) => answer.status === 200)) lost++
  }
  // Messages: pushed to the subscriber, or still in the topic's mailbox.
  const pushed = new Set(
    clients.flatMap((client) => client.pushes.map((push) => push.data.message)),
  )
  const stored = new Set<string>()
  for (const { subscriber, topics } of pairs) {
    for (const topic of topics) {
      const result = (await subscriber.request(RELAY_METHODS.fetchMessages, { topic })) as {
        messages: Array<{ message: string }>
      }
      for (const { message } of result.messages) stored.add(message)
    }
  }
  const missing = published.filter(({ message }) => !pushed.has(message))
  const recovery = (outcomes: Outcome[]) => {
    const failed = outcomes.filter((outcome) => !outcome.ok && outcome.at >= killedAt)
    return failed.length === 0 ? 0 : failed.at(-1)!.at - killedAt
  }

  for (const client of clients) client.close()
  for (const part of parts) await part.close()
  await cluster.stop()
  return {
    takeoverMs,
    sessions: {
      created: created.length,
      lost,
      failedCreates: creates.filter((outcome) => !outcome.ok).length,
    },
    messages: {
      published: published.length,
      lost: missing.filter(({ message }) => !stored.has(message)).length,
      viaMailbox: missing.filter(({ message }) => stored.has(message)).length,
      failedPublishes: publishes.filter((outcome) => !outcome.ok).length,
    },
    recoveryMs: { create: recovery(creates), read: recovery(reads), publish: recovery(publishes) },
    healthyShards: (() => {
      const during = publishes.filter(
        (o) => o.healthy && o.at >= killedAt && o.at <= killedAt + takeoverMs,
      )
      return { published: during.length, failed: during.filter((o) => !o.ok).length }
    })(),
  }
}

async function main() {
  const rounds: Round[] = []
  for (let n = 1; n <= ROUNDS; n++) {
    console.log(`round ${n} of ${ROUNDS}`)
    const result = await round()
    console.log(JSON.stringify(result))
    rounds.push(result)
  }
  const ms = (value: number) => (value / 1000).toFixed(1)
  console.log(
    [
      `\ncluster-node-timeout ${NODE_TIMEOUT_MS} ms; load ${BEFORE_S} s before the kill and ${AFTER_S} s after; killed: the primary of ${KILL_USAGE ? 'relay:{usage}' : 'a session'}`,
      '| Round | takeover (s) | sessions created | sessions lost | failed creates | recovery: create / read / publish (s) | messages published | messages lost | delivered from the mailbox | failed publishes | failed of the publishes to healthy shards during the failover |',
      '|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${ms(r.takeoverMs)} | ${r.sessions.created} | ${r.sessions.lost} | ${r.sessions.failedCreates} | ${ms(r.recoveryMs.create)} / ${ms(r.recoveryMs.read)} / ${ms(r.recoveryMs.publish)} | ${r.messages.published} | ${r.messages.lost} | ${r.messages.viaMailbox} | ${r.messages.failedPublishes} | ${r.healthyShards.failed} of ${r.healthyShards.published} |`,
      ),
    ].join('\n'),
  )
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
