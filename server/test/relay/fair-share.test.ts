import { RELAY_ERROR_CODES, RELAY_METHODS } from 'scope-connect/wire'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sharedRedis, sharedRedisCluster } from '../../../test/support/shared-services'
import type { RelayMailbox } from '../../src/relay/mailbox'
import { createMemoryMailbox } from '../../src/relay/mailbox-memory'
import { createRedisMailbox } from '../../src/relay/mailbox-redis'
import {
  connectRelay,
  envelope,
  type RelayCallError,
  type RelayTestClient,
  topicFor,
} from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { subscribe, publish, ping } = RELAY_METHODS

const redis = sharedRedis()
// On a Redis Cluster the shares are the topic's own script (mailbox-cluster.ts): the same rules.
let cluster: { nodes: string[] }
beforeAll(async () => {
  cluster = await sharedRedisCluster()
}, 60_000)

const outcomeOf = (request: Promise<unknown>) =>
  request.then(
    () => 'stored',
    (error: RelayCallError) => error.error.code,
  )

/**
 * Issue 16: nobody jams a topic. Its first two publishers (the parties) keep 40 of the 100
 * slots each whatever others do; every other publisher gets at most 10, all of them 20
 * (admission.ts). Default limits, both mailboxes.
 */
describe.each([
  ['in-process', () => createMemoryMailbox()],
  ['Redis', () => createRedisMailbox(redis.url, { keyPrefix: `share${Date.now()}:` })],
  [
    'Redis Cluster',
    () => createRedisMailbox({ cluster: cluster.nodes }, { keyPrefix: `share${Date.now()}:` }),
  ],
] as const)('%s mailbox: fair shares of a topic', (name, makeMailbox) => {
  let mailbox: RelayMailbox
  let server: TestServer
  const clients: RelayTestClient[] = []
  const connect = async () => {
    const client = await connectRelay(server.baseUrl)
    clients.push(client)
    return client
  }
  const flood = async (attacker: RelayTestClient, topic: string, seed: string) => {
    const outcomes: unknown[] = []
    for (let i = 0; i < 100; i++) {
      const message = envelope(`${seed}-${i}`)
      outcomes.push(
        await outcomeOf(attacker.request(publish, { topic, message, ttl: 604_800, tag: 1 })),
      )
    }
    return outcomes
  }
  const messagesOf = (client: RelayTestClient) => client.pushes.map((push) => push.data.message)

  beforeAll(async () => {
    mailbox = makeMailbox()
    server = await startTestServer({ relay: { mailbox } })
  })
  afterEach(() => {
    for (const client of clients.splice(0)) client.close()
  })
  afterAll(async () => {
    await server?.close()
    await mailbox?.close()
  })

  it('an attacker flooding a pairing topic (100 messages, ttl 604800) leaves the pair room', async () => {
    const topic = topicFor(`${name}-pairing`)
    const dapp = await connect()
    await dapp.request(subscribe, { topic })
    const proposal = envelope('proposal')
    expect(await dapp.request(publish, { topic, message: proposal, ttl: 300, tag: 1100 })).toBe(
      true,
    )

    const outcomes = await flood(await connect(), topic, 'junk')
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(40) // the second party's share
    expect(new Set(outcomes.filter((o) => o !== 'stored'))).toEqual(
      new Set([RELAY_ERROR_CODES.MAILBOX_FULL]),
    )

    // The wallet scans the QR code late: it still gets the proposal, and its answer gets through.
    const wallet = await connect()
    await wallet.request(subscribe, { topic })
    await wallet.waitForPushes(41)
    expect(messagesOf(wallet)).toContain(proposal)
    const answer = envelope('answer')
    expect(await wallet.request(publish, { topic, message: answer, ttl: 300, tag: 1101 })).toBe(
      true,
    )
    await dapp.request(ping)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(messagesOf(dapp)).toContain(answer)
  })

  it('many fresh subjects cannot take the parties’ slots', async () => {
    const topic = topicFor(`${name}-session`)
    const [dapp, wallet] = [await connect(), await connect()]
    await dapp.request(subscribe, { topic })
    await wallet.request(subscribe, { topic })
    expect(
      await dapp.request(publish, { topic, message: envelope('hello'), ttl: 300, tag: 1108 }),
    ).toBe(true)
    expect(
      await wallet.request(publish, { topic, message: envelope('hi'), ttl: 300, tag: 1109 }),
    ).toBe(true)

    // Ten attackers, each with its own token (a fresh `sub`), flood the topic.
    let stored = 0
    for (let k = 0; k < 10; k++) {
      const outcomes = await flood(await connect(), topic, `junk${k}`)
      stored += outcomes.filter((o) => o === 'stored').length
    }
    expect(stored).toBe(20) // the others' pool, 10 each

    // Each party still publishes up to its share of 40, and the other receives every message.
    for (let i = 1; i < 40; i++) {
      const request = { topic, message: envelope(`dapp-${i}`), ttl: 300, tag: 1108 }
      expect(await dapp.request(publish, request)).toBe(true)
      const answer = { topic, message: envelope(`wallet-${i}`), ttl: 300, tag: 1109 }
      expect(await wallet.request(publish, answer)).toBe(true)
    }
    expect(
      await outcomeOf(
        dapp.request(publish, { topic, message: envelope('dapp-40'), ttl: 300, tag: 1108 }),
      ),
    ).toBe(RELAY_ERROR_CODES.MAILBOX_FULL)
    await wallet.request(ping)
    await dapp.request(ping)
    expect(messagesOf(wallet)).toEqual(
      expect.arrayContaining([envelope('hello'), envelope('dapp-39')]),
    )
    expect(messagesOf(dapp)).toEqual(
      expect.arrayContaining([envelope('hi'), envelope('wallet-39')]),
    )
  })
})
