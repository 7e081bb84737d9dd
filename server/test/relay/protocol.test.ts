import { createHash } from 'node:crypto'
import {
  RELAY_ERROR_CODES,
  RELAY_METHODS,
  type RelayFetchResult,
  type RelayMessage,
} from 'scope-connect/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  connectRelay,
  envelope,
  RelayCallError,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { subscribe, unsubscribe, publish, fetchMessages, ping } = RELAY_METHODS
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let server: TestServer
const clients: RelayTestClient[] = []
const connect = async (options?: Parameters<typeof connectRelay>[1]) => {
  const client = await connectRelay(server.baseUrl, options)
  clients.push(client)
  return client
}

beforeAll(async () => {
  server = await startTestServer({ relay: { limits: { fetchPageBytes: 1000 } } })
})
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})
afterAll(() => server?.close())

/** Publishes and expects `true`. */
const send = (
  client: RelayTestClient,
  topic: string,
  seed: number | string,
  ttl = 60,
  tag = 1100,
) =>
  expect(client.request(publish, { topic, message: envelope(seed), ttl, tag })).resolves.toBe(true)

const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof RelayCallError ? error.error.code : String(error)),
  )

describe('relay protocol', () => {
  it('pushes a publish to the other subscriber with the documented data; the subscriber acks it', async () => {
    const topic = topicFor('push')
    const dapp = await connect()
    const wallet = await connect()
    const subscriptionId = await wallet.request<string>(subscribe, { topic })
    expect(subscriptionId).toMatch(/^[0-9a-f]{32}$/)

    const before = Date.now()
    await send(dapp, topic, 'hello', 300, 1100)
    const [push] = await wallet.waitForPushes(1)
    expect(push!.subscriptionId).toBe(subscriptionId)
    expect(push!.data).toEqual({
      topic,
      message: envelope('hello'),
      messageId: sha256(envelope('hello')),
      publishedAt: expect.any(Number),
      tag: 1100,
    } satisfies RelayMessage)
    expect(push!.data.publishedAt).toBeGreaterThanOrEqual(before - 5)
    expect(await dapp.request(ping)).toBe(true)
  })

  it('does not echo a message to the connection that published it', async () => {
    const topic = topicFor('echo')
    const both = await connect()
    const other = await connect()
    await both.request(subscribe, { topic })
    await other.request(subscribe, { topic })
    await send(both, topic, 'mine')
    await other.waitForPushes(1)
    // The other subscriber's push has arrived; a ping round trip later the publisher has none.
    await both.request(ping)
    expect(both.pushes).toHaveLength(0)
    // Not later from the mailbox either: subscribing again finds nothing new for it.
    await both.request(subscribe, { topic })
    await both.request(ping)
    expect(both.pushes).toHaveLength(0)
  })

  it('keeps messages in the mailbox for a subscriber that comes later, oldest first', async () => {
    const topic = topicFor('mailbox')
    const dapp = await connect()
    for (const seed of ['m1', 'm2', 'm3']) await send(dapp, topic, seed)

    const late = await connect()
    await late.request(subscribe, { topic })
    const pushes = await late.waitForPushes(3)
    expect(pushes.map((push) => push.data.message)).toEqual(
      ['m1', 'm2', 'm3'].map((s) => envelope(s)),
    )

    // And every other later subscriber gets them too: an ack is per connection.
    const later = await connect()
    await later.request(subscribe, { topic })
    expect(await later.waitForPushes(3)).toHaveLength(3)
  })

  it('pushes again on a new subscribe what the connection did not ack, never what it acked', async () => {
    const topic = topicFor('acks')
    const dapp = await connect()
    await send(dapp, topic, 'acked')
    await send(dapp, topic, 'unacked')

    const wallet = await connect({ autoAck: false })
    const id = await wallet.request<string>(subscribe, { topic })
    const [first] = await wallet.waitForPushes(2)
    wallet.ack(first!)
    await wallet.request(unsubscribe, { topic, id })
    await wallet.request(subscribe, { topic })
    const pushes = await wallet.waitForPushes(3)
    expect(pushes[2]!.data.message).toBe(envelope('unacked'))
    await wallet.request(ping)
    expect(wallet.pushes).toHaveLength(3)
  })

  it('an error answer to a push is not an ack', async () => {
    const topic = topicFor('nack')
    const dapp = await connect()
    await send(dapp, topic, 'refused')
    const wallet = await connect({ autoAck: false })
    await wallet.request(subscribe, { topic })
    const [push] = await wallet.waitForPushes(1)
    wallet.socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: push!.pushId, error: { code: -1, message: 'no' } }),
    )
    await wallet.request(subscribe, { topic })
    expect((await wallet.waitForPushes(2))[1]!.data.messageId).toBe(push!.data.messageId)
  })

  it('fetches what the connection does not have, in pages (hasMore), each message once', async () => {
    const topic = topicFor('fetch')
    const dapp = await connect()
    // fetchPageBytes is 1000 on this server: each 400-byte envelope is ~536 base64 characters.
    const seeds = ['f1', 'f2', 'f3']
    for (const seed of seeds) {
      await expect(
        dapp.request(publish, { topic, message: envelope(seed, 400), ttl: 60, tag: 1 }),
      ).resolves.toBe(true)
    }
    const wallet = await connect()
    const pages: RelayFetchResult[] = []
    do pages.push(await wallet.request<RelayFetchResult>(fetchMessages, { topic }))
    while (pages.at(-1)!.hasMore)
    expect(pages.map((page) => page.messages.length)).toEqual([1, 1, 1])
    expect(pages.flatMap((page) => page.messages.map((m) => m.message))).toEqual(
      seeds.map((seed) => envelope(seed, 400)),
    )
    expect(pages[0]!.messages[0]).toMatchObject({ topic, messageId: sha256(envelope('f1', 400)) })
    // Fetched counts as had: a subscribe afterwards pushes nothing, a new publish still arrives.
    await wallet.request(subscribe, { topic })
    await send(dapp, topic, 'f4')
    const [push] = await wallet.waitForPushes(1)
    expect(push!.data.message).toBe(envelope('f4'))
    expect(await wallet.request(fetchMessages, { topic })).toEqual({ messages: [], hasMore: false })
  })

  it('stores a message published twice once; the second publish reaches subscribers that lack it', async () => {
    const topic = topicFor('dup')
    const dapp = await connect()
    await send(dapp, topic, 'twice')
    const wallet = await connect({ autoAck: false })
    await wallet.request(subscribe, { topic })
    await wallet.waitForPushes(1)
    // A publisher retrying after a lost answer: same message, same id.
    await send(dapp, topic, 'twice')
    await wallet.request(ping)
    expect(wallet.pushes).toHaveLength(1) // pushed already on this subscription
    const fresh = await connect()
    const page = await fresh.request<RelayFetchResult>(fetchMessages, { topic })
    expect(page.messages.map((m) => m.messageId)).toEqual([sha256(envelope('twice'))])
  })

  it('subscribing twice returns the same id; unsubscribe needs that id', async () => {
    const topic = topicFor('ids')
    const client = await connect()
    const id = await client.request<string>(subscribe, { topic })
    expect(await client.request(subscribe, { topic })).toBe(id)
    expect(await errorCode(client.request(unsubscribe, { topic, id: 'f'.repeat(32) }))).toBe(
      RELAY_ERROR_CODES.UNKNOWN_SUBSCRIPTION,
    )
    expect(await errorCode(client.request(unsubscribe, { topic: topicFor('other'), id }))).toBe(
      RELAY_ERROR_CODES.UNKNOWN_SUBSCRIPTION,
    )
    expect(await client.request(unsubscribe, { topic, id })).toBe(true)
    expect(await errorCode(client.request(unsubscribe, { topic, id }))).toBe(
      RELAY_ERROR_CODES.UNKNOWN_SUBSCRIPTION,
    )
    // Unsubscribed: no more pushes.
    const dapp = await connect()
    await send(dapp, topic, 'after')
    await sleep(50)
    await client.request(ping)
    expect(client.pushes).toHaveLength(0)
  })

  it('never lets a message cross topics: 2 topics, 20 clients, every client sees exactly its topic', async () => {
    const topics = [topicFor('iso-a'), topicFor('iso-b')]
    const subscribers = await Promise.all(Array.from({ length: 16 }, () => connect()))
    await Promise.all(
      subscribers.map((client, i) => client.request(subscribe, { topic: topics[i % 2] })),
    )
    const publishers = await Promise.all(Array.from({ length: 4 }, () => connect()))
    const perPublisher = 10
    await Promise.all(
      publishers.map(async (publisher, p) => {
        for (let n = 0; n < perPublisher; n++) {
          await send(publisher, topics[p % 2]!, `${p}-${n}`)
        }
      }),
    )
    const expected = (t: number) =>
      publishers
        .flatMap((_, p) =>
          p % 2 === t ? Array.from({ length: perPublisher }, (_, n) => envelope(`${p}-${n}`)) : [],
        )
        .sort()
    for (const [i, client] of subscribers.entries()) {
      const pushes = await client.waitForPushes(20)
      await client.request(ping)
      expect(pushes.every((push) => push.data.topic === topics[i % 2])).toBe(true)
      expect(pushes.map((push) => push.data.message).sort()).toEqual(expected(i % 2))
    }
  })
})
