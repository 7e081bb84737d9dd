import { RELAY_ERROR_CODES, RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedRedis, sharedRedisCluster } from '../../../test/support/shared-services'
import type { RelayMailbox } from '../../src/relay/mailbox'
import { createMemoryMailbox } from '../../src/relay/mailbox-memory'
import { createRedisMailbox } from '../../src/relay/mailbox-redis'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  type RelayCallError,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { OTHER_APP_KEY, startTestServer, type TestServer } from '../support/server'

const { publish, fetchMessages } = RELAY_METHODS
const SIZE = 1_024 // base64 text of `envelope(seed, 768)`: the least a message is charged
const QUOTAS = {
  appQuotaMessages: 6,
  appQuotaBytes: 4 * SIZE,
  mailboxQuotaBytes: 7 * SIZE,
}

const redis = sharedRedis()
// On a Redis Cluster a publish is two scripts (quotas, then the topic): the same rules must hold.
let cluster: { nodes: string[] }
beforeAll(async () => {
  cluster = await sharedRedisCluster()
}, 60_000)

const codeOf = (request: Promise<unknown>) =>
  request.then(
    () => 'stored',
    (error: RelayCallError) => error.error.code,
  )

/**
 * Issue 16: storage quotas per app key (bytes, messages) and for the whole mailbox, the same in
 * process and in Redis. Past one, a publish is QUOTA_EXCEEDED and nothing is stored; the bytes
 * come back when the messages expire.
 */
describe.each([
  ['in-process', (now: () => number) => createMemoryMailbox({ now })],
  [
    'Redis',
    (now: () => number) => createRedisMailbox(redis.url, { keyPrefix: `quota${Date.now()}:`, now }),
  ],
  [
    'Redis Cluster',
    (now: () => number) =>
      createRedisMailbox({ cluster: cluster.nodes }, { keyPrefix: `quota${Date.now()}:`, now }),
  ],
] as const)('%s mailbox: storage quotas', (name, makeMailbox) => {
  let clock = Date.now()
  const now = () => clock
  let mailbox: RelayMailbox
  let server: TestServer
  const clients: RelayTestClient[] = []
  const connect = async (appKey?: string) => {
    const token = appKey ? (await issueRelayToken(server.baseUrl, appKey)).token : undefined
    const client = await connectRelay(server.baseUrl, token ? { token } : {})
    clients.push(client)
    return client
  }
  // One topic per message: the topic's fair shares stay out of the way.
  const send = (client: RelayTestClient, seed: string, size = SIZE) =>
    codeOf(
      client.request(publish, {
        topic: topicFor(`${name}-${seed}`),
        message: envelope(seed, (size * 3) / 4),
        ttl: 60,
        tag: 1,
      }),
    )

  beforeAll(async () => {
    mailbox = makeMailbox(now)
    server = await startTestServer({ now, relay: { mailbox, limits: QUOTAS } })
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server?.close()
    await mailbox?.close()
  })

  it('refuses past the app key byte quota, stores nothing, and frees the bytes at expiry', async () => {
    const first = await connect()
    const second = await connect() // another socket, same app key: the same quota
    expect(await send(first, 'a1')).toBe('stored')
    expect(await send(second, 'a2')).toBe('stored')
    expect(await send(first, 'a3')).toBe('stored')
    expect(await send(second, 'a4')).toBe('stored')
    expect(await send(first, 'a5')).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED)
    const reader = await connect()
    const page = await reader.request<RelayFetchResult>(fetchMessages, {
      topic: topicFor(`${name}-a5`),
    })
    expect(page.messages).toEqual([])

    // Another app key has its own quota, up to the whole mailbox's.
    const other = await connect(OTHER_APP_KEY)
    expect(await send(other, 'b1')).toBe('stored')
    expect(await send(other, 'b2')).toBe('stored')
    expect(await send(other, 'b3')).toBe('stored')
    expect(await send(other, 'b4')).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED) // the mailbox's 7
    const stats = server.app.relay.stats()
    expect(stats).toMatchObject({ mailboxBytes: 7 * SIZE, mailboxMessages: 7 })
    expect(stats.quotaRefusals).toMatchObject({ appBytes: 1, mailboxBytes: 1 })

    clock += 60_000 // every message expires
    expect(await send(first, 'a6')).toBe('stored')
    expect(server.app.relay.stats()).toMatchObject({ mailboxBytes: SIZE, mailboxMessages: 1 })
  })

  it('charges every message at least 1 KiB: tiny messages fill the byte quota, not the count', async () => {
    clock += 60_000
    const client = await connect()
    // Ten bytes of text each, under the 6 messages allowed: 4 × 1 KiB is the app key's 4 KiB.
    for (let i = 0; i < 4; i++) expect(await send(client, `m${i}`, 12)).toBe('stored')
    expect(server.app.relay.stats()).toMatchObject({ mailboxBytes: 4 * SIZE, mailboxMessages: 4 })
    const more = await connect()
    expect(await send(more, 'm4', 12)).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED)
    expect(server.app.relay.stats().quotaRefusals.appBytes).toBe(2)
  })
})

/**
 * The app key is public: each source (its sockets from one address) has its own quota, and the
 * app key's is the ceiling above all of them, so one caller cannot fill the app key's for all.
 */
describe.each([
  ['in-process', () => createMemoryMailbox()],
  ['Redis', () => createRedisMailbox(redis.url, { keyPrefix: `source${Date.now()}:` })],
  [
    'Redis Cluster',
    () => createRedisMailbox({ cluster: cluster.nodes }, { keyPrefix: `source${Date.now()}:` }),
  ],
] as const)('%s mailbox: quotas per source', (name, makeMailbox) => {
  let mailbox: RelayMailbox
  let server: TestServer
  const clients: RelayTestClient[] = []
  // Behind a trusted proxy, so each client can come from its own address.
  const from = async (address: string) => {
    const client = await connectRelay(server.baseUrl, {
      headers: { 'x-forwarded-for': address },
    })
    clients.push(client)
    return client
  }
  let seed = 0
  const send = (client: RelayTestClient) =>
    codeOf(
      client.request(publish, {
        topic: topicFor(`${name}-source-${seed}`),
        message: envelope(`source-${seed++}`),
        ttl: 60,
        tag: 1,
      }),
    )

  beforeAll(async () => {
    mailbox = makeMailbox()
    server = await startTestServer({
      trustProxy: ['127.0.0.1'],
      relay: { mailbox, limits: { sourceQuotaMessages: 3, appQuotaMessages: 5 } },
    })
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server?.close()
    await mailbox?.close()
  })

  it('error: one address holds its quota, whatever its sockets; the app key’s is the ceiling', async () => {
    const first = await from('203.0.113.7')
    for (let i = 0; i < 3; i++) expect(await send(first)).toBe('stored')
    const again = await from('203.0.113.7') // another socket and token, the same address
    expect(await send(again)).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED)

    const other = await from('198.51.100.9')
    expect(await send(other)).toBe('stored')
    expect(await send(other)).toBe('stored')
    expect(await send(other)).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED) // the app key's 5
    expect(server.app.relay.stats().quotaRefusals).toMatchObject({
      sourceMessages: 1,
      appMessages: 1,
    })
  })
})
