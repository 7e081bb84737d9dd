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
import { OTHER_APP_KEY, startTestServer, TEST_APP_KEY, type TestServer } from '../support/server'

const { publish, subscribe, fetchMessages } = RELAY_METHODS

const redis = sharedRedis()
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
 * Issue 28 item 3: relay storage is shared by the limiter's "fair share once full" rule, per
 * source within an app key and per app key within the mailbox, so a flood that fills a ceiling
 * leaves a newcomer its share: a fresh pairing still gets its proposal and its answer through.
 * Scaled-down limits (the issue's attack: ten addresses × 500 four-byte messages, tag 1112, is
 * replayed in bench/relay-abuse.ts). On main's code the newcomer is refused QUOTA_EXCEEDED.
 */
describe.each([
  ['in-process', () => createMemoryMailbox()],
  ['Redis', () => createRedisMailbox(redis.url, { keyPrefix: `fair${Date.now()}:` })],
  [
    'Redis Cluster',
    () => createRedisMailbox({ cluster: cluster.nodes }, { keyPrefix: `fair${Date.now()}:` }),
  ],
] as const)('%s mailbox: storage shared fairly', (name, makeMailbox) => {
  let mailbox: RelayMailbox
  let server: TestServer
  const clients: RelayTestClient[] = []
  // Behind a trusted proxy, so each client comes from its own address.
  const from = async (address: string, appKey = TEST_APP_KEY) => {
    const { token } = await issueRelayToken(server.baseUrl, appKey)
    const client = await connectRelay(server.baseUrl, {
      token,
      headers: { 'x-forwarded-for': address },
    })
    clients.push(client)
    return client
  }
  let seed = 0
  /** Four-byte messages with the delete tag and a day's ttl, one topic each: the issue's flood. */
  const flood = async (client: RelayTestClient, count: number) => {
    const outcomes: Array<string | number> = []
    for (let i = 0; i < count; i++) {
      const n = seed++
      outcomes.push(
        await codeOf(
          client.request(publish, {
            topic: topicFor(`${name}-flood-${n}`),
            message: envelope(n, 3), // 4 base64 characters
            ttl: 86_400,
            tag: 1112,
          }),
        ),
      )
    }
    return outcomes
  }
  /** A dApp pairs with a wallet: proposal, then the answer, which the dApp receives. */
  const pairing = async (dapp: RelayTestClient, wallet: RelayTestClient, label: string) => {
    const topic = topicFor(`${name}-${label}`)
    await dapp.request(subscribe, { topic })
    const proposal = envelope(`${label}-proposal`)
    const proposed = await codeOf(
      dapp.request(publish, { topic, message: proposal, ttl: 300, tag: 1100 }),
    )
    if (proposed !== 'stored') return proposed
    const page = await wallet.request<RelayFetchResult>(fetchMessages, { topic })
    expect(page.messages.map((m) => m.message)).toEqual([proposal])
    const answer = envelope(`${label}-answer`)
    const answered = await codeOf(
      wallet.request(publish, { topic, message: answer, ttl: 300, tag: 1101 }),
    )
    if (answered !== 'stored') return answered
    const pushes = await dapp.waitForPushes(1)
    expect(pushes.map((push) => push.data.message)).toEqual([answer])
    return 'paired'
  }

  beforeAll(async () => {
    mailbox = makeMailbox()
    server = await startTestServer({
      trustProxy: ['127.0.0.1'],
      relay: {
        mailbox,
        // Five addresses × 4 fill the app key's 20; 1 KiB charged a message, the mailbox holds 24.
        limits: {
          sourceQuotaMessages: 5,
          appQuotaMessages: 20,
          mailboxQuotaBytes: 24 * 1024,
        },
      },
    })
  })
  afterAll(async () => {
    for (const client of clients) client.close()
    await server?.close()
    await mailbox?.close()
  })

  it('error: addresses flooding one app key fill its quota; a newcomer address still pairs', async () => {
    const flooders = await Promise.all(
      ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'].map((a) =>
        from(a),
      ),
    )
    for (const flooder of flooders) expect(await flood(flooder, 4)).toEqual(Array(4).fill('stored'))
    // The app key's 20 are held: the flooders are past their fair share (20 / 6 sources)...
    expect(await flood(flooders[0]!, 1)).toEqual([RELAY_ERROR_CODES.QUOTA_EXCEEDED])
    expect(server.app.relay.stats().quotaRefusals.appMessages).toBe(1)

    // ...and a dApp from a new address, and its wallet from another, pair all the same.
    const [dapp, wallet] = [await from('198.51.100.7'), await from('198.51.100.8')]
    expect(await pairing(dapp, wallet, 'newcomer')).toBe('paired')
    // Each newcomer holds one message: within its share, a second one too; the flooders not.
    expect(await flood(flooders[1]!, 1)).toEqual([RELAY_ERROR_CODES.QUOTA_EXCEEDED])
  })

  it('error: one app key filling the whole mailbox leaves another app key its share', async () => {
    // The mailbox holds 22 KiB (22 messages, 1 KiB each) after the first test; two more of the
    // first app key's addresses reach its 24 KiB.
    const more = await from('203.0.113.6')
    expect(await flood(more, 2)).toEqual(['stored', 'stored'])
    expect(server.app.relay.stats().mailboxBytes).toBe(24 * 1024)
    expect(await flood(await from('203.0.113.7'), 1)).toEqual([RELAY_ERROR_CODES.QUOTA_EXCEEDED])
    expect(server.app.relay.stats().quotaRefusals.mailboxBytes).toBe(1)

    // Another app's users pair: their app key holds nothing, within its share of 24 / 2 KiB.
    const dapp = await from('192.0.2.10', OTHER_APP_KEY)
    const wallet = await from('192.0.2.11', OTHER_APP_KEY)
    expect(await pairing(dapp, wallet, 'other-app')).toBe('paired')
  })
})
