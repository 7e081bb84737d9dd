import { RELAY_METHODS, SessionResultResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedisCluster, startRedisCluster } from '../../../test/support/redis-cluster'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { generateRelaySigningKey } from '../../src/relay/token'
import { createRedisStore, type RedisStore } from '../../src/store/redis'
import type { RedisTarget } from '../../src/store/redis-connection'
import { storeKeys } from '../../src/store/redis-keys'
import {
  createRedisSessionEvents,
  type RedisSessionEvents,
} from '../../src/store/session-events-redis'
import { type Answer, call, codeOf } from '../support/http'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { startTestServer, TEST_PROJECT, TEST_PROJECTS, type TestServer } from '../support/server'
import { bearer, createTestSession, nonceHeader } from '../support/sessions'
import { evmWallet } from '../support/wallets'

const { subscribe, publish, ping } = RELAY_METHODS
const PREFIX = 'scope:'
const LIMITED_APP_KEY = 'limited-app-key'
const LIMIT = 100
const POLL_LIMIT = 120 // the session policy (SPEC 4): result and verify, per session
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

interface Instance {
  server: TestServer
  store: RedisStore
  events: RedisSessionEvents
  mailbox: RedisMailbox
}

/**
 * Two backend instances on one real Redis Cluster (six redis-server processes: three primaries,
 * three replicas; `test/support/redis-cluster.ts`), as behind a load balancer: every store, the
 * session events and the relay mailbox on the cluster. Limits stay exact across instances, a
 * session made on one is answered and long-polled on the other, relay messages cross, and when a
 * primary is killed its replica takes over and the service answers again.
 */
describe('two instances on a Redis Cluster', () => {
  let cluster: RunningRedisCluster
  const instances: Instance[] = []
  const clients: RelayTestClient[] = []
  const signingKey = generateRelaySigningKey()
  const projects = {
    ...TEST_PROJECTS,
    projects: [
      ...TEST_PROJECTS.projects,
      {
        ...TEST_PROJECT,
        projectId: 'limited-project',
        appKeys: [LIMITED_APP_KEY],
        rateLimits: { appKey: { limit: LIMIT, windowSeconds: 60 } },
      },
    ],
  }

  beforeAll(async () => {
    cluster = await startRedisCluster({ nodeTimeoutMs: 1_000 })
    const target: RedisTarget = { cluster: cluster.nodes }
    for (let i = 0; i < 2; i++) {
      const store = createRedisStore(target, { keyPrefix: PREFIX })
      const events = createRedisSessionEvents(target, { keyPrefix: PREFIX })
      const mailbox = createRedisMailbox(target, { keyPrefix: PREFIX })
      await Promise.all([store.ready(), events.ready(), mailbox.ready()])
      const server = await startTestServer({
        projects,
        store,
        sessionEvents: events,
        relay: { mailbox, signingKeys: [signingKey], publicUrl: 'https://relay.test' },
      })
      instances.push({ server, store, events, mailbox })
    }
  }, 60_000)

  afterAll(async () => {
    for (const client of clients) client.close()
    for (const { server, store, events, mailbox } of instances) {
      await server.close()
      await Promise.all([store.close(), events.close(), mailbox.close()])
    }
    await cluster?.stop()
  })

  const url = (i: number) => instances[i]!.server.baseUrl
  const connect = async (i: number, token?: string) => {
    const client = await connectRelay(url(i), token ? { token } : {})
    clients.push(client)
    return client
  }
  const poll = (i: number, session: { sessionId: string; sessionToken: string }) =>
    call(url(i), `/sessions/${session.sessionId}/result`, { headers: bearer(session.sessionToken) })
  const connectWallet = (i: number, session: { sessionId: string; nonce: string }) =>
    call(url(i), '/callback/connect', {
      body: {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: evmWallet().address,
      },
      headers: nonceHeader(session.nonce),
    })

  it('names each script’s keys in one hash slot', async () => {
    const keys = storeKeys(PREFIX, true)
    const { Cluster } = await import('ioredis')
    const admin = new Cluster(
      cluster.nodes.map((node) => ({ host: '127.0.0.1', port: +node.split(':')[1]! })),
    )
    try {
      const slot = (key: string) => admin.cluster('KEYSLOT', key) as Promise<number>
      const id = 'abc_123'
      expect(await slot(keys.session(id))).toBe(await slot(keys.pollWindow(id, `session:${id}`)))
      const ceiling = keys.ceiling({
        callerKey: 'appkey:k|127.0.0.1',
        callerWindowMs: 1,
        callerLimit: 1,
        ceilingKey: 'project:p',
        ceilingWindowMs: 1,
        ceiling: 1,
      })
      const slots = await Promise.all(Object.values(ceiling).map(slot))
      expect(new Set(slots).size).toBe(1)
    } finally {
      admin.disconnect()
    }
  })

  it(`lets exactly ${LIMIT} of 500 concurrent app-key requests through, over both instances`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        call(url(i % 2), '/config', { headers: { 'x-app-key': LIMITED_APP_KEY } }),
      ),
    )
    const ok = answers.filter((answer) => answer.status === 200)
    expect(ok).toHaveLength(LIMIT)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(500 - LIMIT)
    // Every admitted request saw its own count: remaining 99..0, each once.
    const remaining = ok.map((answer) =>
      Number(/;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]),
    )
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i))
  })

  it(`counts a session's polls exactly: ${POLL_LIMIT} of 150 concurrent polls over both instances`, async () => {
    const session = await createTestSession(url(0))
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => poll(i % 2, session)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(POLL_LIMIT)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(150 - POLL_LIMIT)
    expect(refused.map(codeOf)).toEqual(refused.map(() => 'RATE_LIMITED'))
  })

  it('a session made on A is answered on B, and a long-poll on B wakes on a callback on A', async () => {
    const session = await createTestSession(url(0))
    const path = `/sessions/${session.sessionId}/result`
    const headers = bearer(session.sessionToken)
    const first = await call(url(1), path, { headers })
    expect(first.status).toBe(200)
    expect(SessionResultResponseSchema.parse(first.body).status).toBe('pending')
    const etag = first.headers.get('etag')!
    const waiting = call(url(1), `${path}?waitMs=20000`, {
      headers: { ...headers, 'if-none-match': etag },
    })
    await waitFor(async () => instances[1]!.events.watching() === 1 || undefined, 'the waiter')
    const started = performance.now()
    expect((await connectWallet(0, session)).status).toBe(204)
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(SessionResultResponseSchema.parse(answer.body).status).toBe('connected')
    // Woken by the sharded message, not by the end of its 20 s wait.
    expect(performance.now() - started).toBeLessThan(10_000)

    // And the other way round: the sign callback on B answers a long-poll on A.
    const tag = (await call(url(0), path, { headers })).headers.get('etag')!
    const onA = call(url(0), `${path}?waitMs=20000`, {
      headers: { ...headers, 'if-none-match': tag },
    })
    await waitFor(async () => instances[0]!.events.watching() === 1 || undefined, 'the waiter')
    const rejected = await call(url(1), '/callback/reject', {
      body: { sessionId: session.sessionId, errorCode: 'USER_REJECTED' },
      headers: nonceHeader(session.nonce),
    })
    expect(rejected.status).toBe(204)
    expect(SessionResultResponseSchema.parse((await onA).body).status).toBe('rejected')
  })

  it('relays messages between a dApp on A and a wallet on B, mailbox and fan-out', async () => {
    const pairing = topicFor('cluster-pairing')
    const dapp = await connect(0)
    const wallet = await connect(1, (await issueRelayToken(url(0))).token)
    await dapp.request(subscribe, { topic: pairing })
    // Published before the wallet subscribes: it comes from the mailbox.
    await dapp.request(publish, {
      topic: pairing,
      message: envelope('proposal'),
      ttl: 300,
      tag: 1100,
    })
    await wallet.request(subscribe, { topic: pairing })
    expect((await wallet.waitForPushes(1))[0]!.data.message).toBe(envelope('proposal'))
    // Published while both listen: fan-out over the topic's sharded channel.
    await wallet.request(publish, {
      topic: pairing,
      message: envelope('approve'),
      ttl: 300,
      tag: 1101,
    })
    expect((await dapp.waitForPushes(1))[0]!.data.message).toBe(envelope('approve'))
    await dapp.request(ping)
    expect(dapp.pushes).toHaveLength(1) // no echo of its own publish
    // The quotas counted both messages: each instance its own, the other's by reconciliation
    // (mailbox-cluster.ts; the publish path touches no slot but its topic's).
    await waitFor(
      async () => (instances[1]!.mailbox.totals().messages >= 2 ? true : undefined),
      'the usage reconciled',
    )
  })

  it('a primary killed under load: its replica takes over and both instances answer again', async () => {
    const session = await createTestSession(url(0))
    const keys = storeKeys(PREFIX, true)
    const victim = await cluster.primaryPortOf(keys.session(session.sessionId))
    // A relay topic served by the same primary, with a dApp on A and a wallet on B.
    let topic = topicFor('failover-0')
    for (let i = 1; (await cluster.primaryPortOf(`{${topic}}`)) !== victim; i++) {
      topic = topicFor(`failover-${i}`)
    }
    const dapp = await connect(0)
    const wallet = await connect(1, (await issueRelayToken(url(0))).token)
    await dapp.request(subscribe, { topic })
    await wallet.request(subscribe, { topic })

    // Load on both instances: polls of sessions on every shard, until told to stop.
    const sessions = [
      session,
      ...(await Promise.all([1, 2, 3, 4].map(() => createTestSession(url(1))))),
    ]
    const statuses = new Map<number, number>()
    let loading = true
    const load = Promise.all(
      sessions.map(async (s, i) => {
        while (loading) {
          const answer: Answer = await poll(i % 2, s)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          await sleep(100) // well under the session's 120 polls a minute
        }
      }),
    )
    await sleep(500)
    expect(await cluster.killPrimaryOf(keys.session(session.sessionId))).toBe(victim)

    // The next calls succeed, on both instances: the session (replicated before the kill) reads
    // back, a change lands, and relay messages cross again.
    for (const i of [0, 1]) {
      await waitFor(
        async () => ((await poll(i, session)).status === 200 ? true : undefined),
        `a poll on ${i}`,
      )
    }
    expect((await connectWallet(1, session)).status).toBe(204)
    const read = await poll(0, session)
    expect(SessionResultResponseSchema.parse(read.body).status).toBe('connected')
    await waitFor(
      async () =>
        (await wallet.request(publish, {
          topic,
          message: envelope('after failover'),
          ttl: 300,
          tag: 1108,
        })) === true || undefined,
      'a publish',
    )
    const pushes = await dapp.waitForPushes(1, 30_000)
    expect(pushes.map((push) => push.data.message)).toContain(envelope('after failover'))

    loading = false
    await load
    // Under the failover: answers or 503 STORE_UNAVAILABLE, never a 500 or a hang.
    expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true)
    expect(statuses.get(200)).toBeGreaterThan(0)
  }, 90_000)
})
