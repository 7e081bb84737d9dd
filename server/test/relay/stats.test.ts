import { RELAY_METHODS } from 'scope-connect/wire'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { createRedisMailbox, type RedisMailbox } from '../../src/relay/mailbox-redis'
import { connectRelay, envelope, topicFor } from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `app.relay.stats()`: what the metrics and `/healthz` read. The names are an interface. */
describe('relay stats', () => {
  const servers: TestServer[] = []
  let redis: RunningRedis | undefined
  let mailbox: RedisMailbox | undefined
  afterAll(async () => {
    for (const server of servers) await server.close()
    await mailbox?.close()
    await redis?.stop()
  })

  it('default: counts sockets, subscriptions and the mailbox in process', async () => {
    const server = await startTestServer()
    servers.push(server)
    const client = await connectRelay(server.baseUrl)
    const topic = topicFor('stats')
    await client.request(RELAY_METHODS.subscribe, { topic })
    await client.request(RELAY_METHODS.publish, { topic, message: envelope(1), ttl: 60, tag: 1 })
    expect(server.app.relay.stats()).toEqual({
      sockets: 1,
      subscriptions: 1,
      mailboxBytes: 1024, // a message is charged at least 1 KiB (64 bytes of text here)
      mailboxMessages: 1,
      quotaRefusals: {
        topicFull: 0,
        publisherShare: 0,
        sourceMessages: 0,
        sourceBytes: 0,
        appMessages: 0,
        appBytes: 0,
        mailboxBytes: 0,
      },
      refusals: {},
      slowConsumerCloses: 0,
      redis: 'none',
      redisOutages: 0,
    })
    client.close()
  })

  it('behavior: with Redis, says whether its connections are up', async () => {
    redis = await startRedis()
    mailbox = createRedisMailbox(redis.url, { keyPrefix: 'stats:' })
    await mailbox.ready()
    const server = await startTestServer({ relay: { mailbox } })
    servers.push(server)
    expect(server.app.relay.stats().redis).toBe('up')
    await redis.stop()
    for (let waited = 0; server.app.relay.stats().redis === 'up' && waited < 5_000; waited += 20) {
      await sleep(20)
    }
    expect(server.app.relay.stats().redis).toBe('down')
  })
})

describe('relay mailbox: a Redis outage in the log', () => {
  it('error: logged once when it starts and once when it ends, however long it lasts', async () => {
    let redis = await startRedis()
    const lines: string[] = []
    const log = {
      warn: (_obj: object, msg: string) => lines.push(`warn ${msg}`),
      info: (_obj: object, msg: string) => lines.push(`info ${msg}`),
    }
    const mailbox = createRedisMailbox(redis.url, { keyPrefix: 'outage:', log })
    await mailbox.ready()
    const topic = topicFor('outage')
    await redis.stop()
    // Requests during the outage fail at once; none of them is a log line.
    for (let i = 0; i < 20; i++) {
      await mailbox.read(topic).catch(() => undefined)
      await sleep(25)
    }
    redis = await startRedis({ port: redis.port })
    for (let waited = 0; !lines.some((l) => l.startsWith('info')) && waited < 10_000; waited += 50)
      await sleep(50)
    await mailbox.close()
    await redis.stop()
    expect(lines).toEqual([
      'warn relay mailbox: redis unavailable; reconnecting',
      'info relay mailbox: redis is back',
    ])
  }, 30_000)
})

describe('relay refusals by reason (issue 28, item 5)', () => {
  it('counts each refusal under its reason: a cap, the store away; the next call works', async () => {
    let redis = await startRedis()
    const mailbox = createRedisMailbox(redis.url, { keyPrefix: 'refusals:' })
    await mailbox.ready()
    const server = await startTestServer({
      relay: { mailbox, limits: { maxSubscriptionsPerConnection: 1 } },
    })
    try {
      const client = await connectRelay(server.baseUrl)
      await client.request(RELAY_METHODS.subscribe, { topic: topicFor('first') })
      await expect(
        client.request(RELAY_METHODS.subscribe, { topic: topicFor('second') }),
      ).rejects.toThrow()
      await redis.stop()
      const publish = () =>
        client.request(RELAY_METHODS.publish, {
          topic: topicFor('first'),
          message: envelope('while away'),
          ttl: 60,
          tag: 1,
        })
      await expect(publish()).rejects.toThrow(/store is not reachable/)
      // On the old code a refusal for want of the store was counted nowhere.
      expect(server.app.relay.stats().refusals).toEqual({
        tooManySubscriptions: 1,
        storeUnavailable: 1,
      })
      redis = await startRedis({ port: redis.port })
      let answered: unknown
      for (let i = 0; i < 100 && answered !== true; i++) {
        answered = await publish().catch(() => undefined)
        if (answered !== true) await sleep(100)
      }
      expect(answered).toBe(true)
      expect(server.app.relay.stats().redisOutages).toBe(1)
      client.close()
    } finally {
      await server.close()
      await mailbox.close()
      await redis.stop()
    }
  }, 30_000)
})
