import { Redis } from 'ioredis'
import { RELAY_ERROR_CODES, RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { generateRelaySigningKey } from '../../src/relay/token'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  type RelayCallError,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { subscribe, unsubscribe, publish, fetchMessages, ping } = RELAY_METHODS
const PREFIX = 'relaytest:'
const MAILBOX_LIMIT = 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Scale-out: relay instances sharing one real redis-server, as behind a load balancer (one
 * signing key, one public URL). A client on one instance talks to a client on another.
 */
describe('relay instances sharing Redis', () => {
  let redis: RunningRedis
  let admin: Redis
  const signingKey = generateRelaySigningKey()
  const instances: Array<{ server: TestServer; mailbox: RedisMailbox }> = []
  const clients: RelayTestClient[] = []

  const startInstance = async () => {
    const mailbox = createRedisMailbox(redis.url, { keyPrefix: PREFIX })
    await mailbox.ready()
    const server = await startTestServer({
      relay: {
        mailbox,
        signingKeys: [signingKey],
        publicUrl: 'https://relay.test',
        limits: { mailboxPerTopic: MAILBOX_LIMIT },
      },
    })
    const instance = { server, mailbox }
    instances.push(instance)
    return instance
  }
  const connect = async (instance: { server: TestServer }, token?: string) => {
    const client = await connectRelay(instance.server.baseUrl, token ? { token } : {})
    clients.push(client)
    return client
  }
  const numsub = async (topic: string) => {
    const reply = (await admin.pubsub('NUMSUB', `${PREFIX}relay:ch:${topic}`)) as [string, number]
    return Number(reply[1])
  }
  const waitFor = async (check: () => Promise<boolean>, what: string) => {
    // Generous: the machine may be busy, and reconnects back off up to 2 s.
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      if (await check()) return
      await sleep(25)
    }
    throw new Error(`timed out waiting for ${what}`)
  }

  beforeAll(async () => {
    redis = await startRedis()
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 })
    admin.on('error', () => {})
    await startInstance()
    await startInstance()
  })
  afterEach(() => {
    for (const client of clients.splice(0)) client.close()
  })
  afterAll(async () => {
    for (const { server, mailbox } of instances) {
      await server.close()
      await mailbox.close()
    }
    admin?.disconnect()
    await redis?.stop()
  })

  it('a dApp on one instance and a wallet on another pair and talk both ways', async () => {
    const [a, b] = instances
    const pairing = topicFor('pairing')
    const session = topicFor('session')
    const dapp = await connect(a!)
    // One grant serves every instance behind the load balancer.
    const wallet = await connect(b!, (await issueRelayToken(a!.server.baseUrl)).token)
    await dapp.request(subscribe, { topic: pairing })
    await dapp.request(subscribe, { topic: session })
    await wallet.request(subscribe, { topic: session })

    // The wallet joins the pairing after the proposal was published: the mailbox has it.
    await dapp.request(publish, {
      topic: pairing,
      message: envelope('proposal'),
      ttl: 300,
      tag: 1100,
    })
    await wallet.request(subscribe, { topic: pairing })
    const [proposal] = await wallet.waitForPushes(1)
    expect(proposal!.data).toMatchObject({
      topic: pairing,
      message: envelope('proposal'),
      tag: 1100,
    })

    await wallet.request(publish, {
      topic: pairing,
      message: envelope('approve'),
      ttl: 300,
      tag: 1101,
    })
    expect((await dapp.waitForPushes(1))[0]!.data.message).toBe(envelope('approve'))

    await dapp.request(publish, {
      topic: session,
      message: envelope('request'),
      ttl: 300,
      tag: 1108,
    })
    expect((await wallet.waitForPushes(2))[1]!.data.message).toBe(envelope('request'))
    await wallet.request(publish, {
      topic: session,
      message: envelope('answer'),
      ttl: 300,
      tag: 1109,
    })
    expect((await dapp.waitForPushes(2))[1]!.data.message).toBe(envelope('answer'))

    // No echo across instances either.
    await dapp.request(ping)
    await wallet.request(ping)
    expect(dapp.pushes.map((push) => push.data.message)).toEqual([
      envelope('approve'),
      envelope('answer'),
    ])
    expect(wallet.pushes).toHaveLength(2)
  })

  it('a subscriber offline while a message is published gets it from the mailbox on any instance', async () => {
    const [a, b] = instances
    const topic = topicFor('offline')
    const publisher = await connect(a!)
    await publisher.request(publish, { topic, message: envelope('while-away'), ttl: 60, tag: 1 })

    const fetcher = await connect(b!)
    const page = await fetcher.request<RelayFetchResult>(fetchMessages, { topic })
    expect(page.messages.map((m) => m.message)).toEqual([envelope('while-away')])
    const subscriber = await connect(b!)
    await subscriber.request(subscribe, { topic })
    expect((await subscriber.waitForPushes(1))[0]!.data.message).toBe(envelope('while-away'))
    // In Redis: one hash per topic, with a TTL so an idle topic vanishes (an hour past its last
    // message: the trim takes the messages out on time, the TTL is a backstop).
    const key = `${PREFIX}relay:mb:${topic}`
    expect(await admin.hlen(key)).toBe(1)
    const ttl = await admin.pttl(key)
    expect(ttl).toBeGreaterThan(3_600_000 + 50_000)
    expect(ttl).toBeLessThanOrEqual(3_600_000 + 60_000)
  })

  it('the mailbox limit holds across instances: of 30 concurrent publishes exactly 10 are stored', async () => {
    const topic = topicFor('full-shared')
    // Four publishers, two per instance: two parties fill their shares (4 each), the two others
    // the rest (1 each; admission.ts).
    const publishers = await Promise.all(
      [...instances, ...instances].map((instance) => connect(instance)),
    )
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        publishers[i % 4]!.request(publish, {
          topic,
          message: envelope(`race-${i}`),
          ttl: 60,
          tag: 1,
        }).then(
          () => 'stored',
          (error: RelayCallError) => error.error.code,
        ),
      ),
    )
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(MAILBOX_LIMIT)
    expect(outcomes.filter((o) => o === RELAY_ERROR_CODES.MAILBOX_FULL)).toHaveLength(
      30 - MAILBOX_LIMIT,
    )
    expect(await admin.hlen(`${PREFIX}relay:mb:${topic}`)).toBe(MAILBOX_LIMIT)
  })

  it('an instance listens on a topic channel only while it has a local subscriber', async () => {
    const [a, b] = instances
    const topic = topicFor('listen')
    const first = await connect(b!)
    const second = await connect(b!)
    expect(await numsub(topic)).toBe(0)
    const id1 = await first.request<string>(subscribe, { topic })
    const id2 = await second.request<string>(subscribe, { topic })
    expect(await numsub(topic)).toBe(1) // one channel subscription per instance, not per client
    const onA = await connect(a!)
    await onA.request(subscribe, { topic })
    expect(await numsub(topic)).toBe(2)
    await first.request(unsubscribe, { topic, id: id1 })
    expect(await numsub(topic)).toBe(2)
    await second.request(unsubscribe, { topic, id: id2 })
    await waitFor(async () => (await numsub(topic)) === 1, 'instance b to unsubscribe')
    onA.close()
    await waitFor(async () => (await numsub(topic)) === 0, 'instance a to unsubscribe')
  })

  it('two topics, many clients over two instances: nothing leaks between topics', async () => {
    const topics = [topicFor('iso-1'), topicFor('iso-2')]
    const subscribers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => connect(instances[i % 2]!)),
    )
    // Client i is on instance i % 2 and topic floor(i / 2) % 2: every pairing of instance and topic.
    const topicOf = (i: number) => topics[Math.floor(i / 2) % 2]!
    await Promise.all(
      subscribers.map((client, i) => client.request(subscribe, { topic: topicOf(i) })),
    )
    // Per topic a publisher on each instance, each within its share (4 of 10).
    const publishers = await Promise.all(
      [...instances, ...instances].map((instance) => connect(instance)),
    )
    for (let n = 0; n < 8; n++) {
      await Promise.all(
        [0, 1].map((p) =>
          publishers[p * 2 + (n % 2)]!.request(publish, {
            topic: topics[p]!,
            message: envelope(`iso-${p}-${n}`),
            ttl: 60,
            tag: 1,
          }),
        ),
      )
    }
    for (const [i, client] of subscribers.entries()) {
      const pushes = await client.waitForPushes(8)
      await client.request(ping)
      const p = topics.indexOf(topicOf(i))
      expect(pushes.map((push) => push.data.message).sort()).toEqual(
        Array.from({ length: 8 }, (_, n) => envelope(`iso-${p}-${n}`)).sort(),
      )
    }
  })

  it('a lost pub/sub connection is made good from the mailbox once it is back', async () => {
    const [a, b] = instances
    const topic = topicFor('resync')
    const wallet = await connect(b!)
    await wallet.request(subscribe, { topic })
    const dapp = await connect(a!)
    // Publish while no instance listens on the channel (every pub/sub connection was just cut):
    // the NUMSUB reads around the publish prove it went out to nobody. Retried if a reconnect
    // beat the publish.
    let missed: string | undefined
    for (let attempt = 0; attempt < 10 && !missed; attempt++) {
      await waitFor(async () => (await numsub(topic)) === 1, 'the subscription')
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub')
      const message = envelope(`gap-${attempt}`)
      const before = await numsub(topic)
      await dapp.request(publish, { topic, message, ttl: 60, tag: 1 })
      if (before === 0 && (await numsub(topic)) === 0) missed = message
    }
    expect(missed).toBeDefined()
    await waitFor(
      async () => wallet.pushes.some((push) => push.data.message === missed),
      'the missed message',
    )
  })

  it('Redis down: STORE_UNAVAILABLE, the socket stays open; Redis back: it all works again', async () => {
    const [a, b] = instances
    const topic = topicFor('outage')
    const wallet = await connect(b!)
    await wallet.request(subscribe, { topic })
    const dapp = await connect(a!)
    const port = redis.port
    await redis.stop()

    const codeOf = (request: Promise<unknown>) =>
      request.then(
        () => 'ok',
        (error: RelayCallError) => error.error.code,
      )
    expect(
      await codeOf(dapp.request(publish, { topic, message: envelope('down'), ttl: 60, tag: 1 })),
    ).toBe(RELAY_ERROR_CODES.STORE_UNAVAILABLE)
    expect(await codeOf(dapp.request(subscribe, { topic: topicFor('outage-2') }))).toBe(
      RELAY_ERROR_CODES.STORE_UNAVAILABLE,
    )
    expect(await codeOf(dapp.request(fetchMessages, { topic }))).toBe(
      RELAY_ERROR_CODES.STORE_UNAVAILABLE,
    )
    expect(await dapp.request(ping)).toBe(true)

    redis = await startRedis({ port })
    // The instances reconnect in the background (backoff up to 2 s).
    await waitFor(
      () =>
        codeOf(dapp.request(publish, { topic, message: envelope('back'), ttl: 60, tag: 1 })).then(
          (c) => c === 'ok',
        ),
      'publish to work again',
    )
    await waitFor(async () => (await numsub(topic)) === 1, 'instance b to resubscribe')
    await dapp.request(publish, { topic, message: envelope('live'), ttl: 60, tag: 1 })
    await waitFor(
      async () => wallet.pushes.some((push) => push.data.message === envelope('live')),
      'the live message',
    )
    expect(await dapp.request(subscribe, { topic: topicFor('outage-2') })).toEqual(
      expect.any(String),
    )
  })
})
