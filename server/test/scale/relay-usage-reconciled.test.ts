import { RELAY_ERROR_CODES, RELAY_METHODS } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedRedisCluster } from '../../../test/support/shared-services'
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * On a Redis Cluster each instance counts the storage quotas of its own publishes and reconciles
 * them with the others' through `relay:{usage}` (mailbox-cluster.ts): what one address stored on
 * instance A counts against its quota on instance B once A has reconciled, and the totals of each
 * instance include the other's.
 */
describe('relay storage quotas across two instances on a Redis Cluster', () => {
  let cluster: { nodes: string[] }
  const mailboxes: RedisMailbox[] = []
  const servers: TestServer[] = []
  const clients: RelayTestClient[] = []
  const signingKey = generateRelaySigningKey()

  beforeAll(async () => {
    cluster = await sharedRedisCluster()
    const prefix = `reconcile${Date.now()}:`
    for (let i = 0; i < 2; i++) {
      const mailbox = createRedisMailbox(
        { cluster: cluster.nodes },
        { keyPrefix: prefix, reconcileIntervalMs: 100 },
      )
      await mailbox.ready()
      mailboxes.push(mailbox)
      servers.push(
        await startTestServer({
          trustProxy: ['127.0.0.1'],
          relay: {
            mailbox,
            signingKeys: [signingKey],
            publicUrl: 'https://relay.test',
            limits: { sourceQuotaMessages: 4 },
          },
        }),
      )
    }
  }, 60_000)
  afterAll(async () => {
    for (const client of clients) client.close()
    for (const server of servers) await server.close()
    for (const mailbox of mailboxes) await mailbox.close()
  })

  it('error: an address’s messages on A count against its quota on B', async () => {
    const { token } = await issueRelayToken(servers[0]!.baseUrl)
    const on = async (i: number) => {
      const client = await connectRelay(servers[i]!.baseUrl, {
        token,
        headers: { 'x-forwarded-for': '203.0.113.50' },
      })
      clients.push(client)
      return client
    }
    const send = (client: RelayTestClient, seed: string) =>
      client
        .request(RELAY_METHODS.publish, {
          topic: topicFor(`reconcile-${seed}`),
          message: envelope(seed),
          ttl: 60,
          tag: 1,
        })
        .then(
          () => 'stored',
          (error: RelayCallError) => error.error.code,
        )
    const [a, b] = [await on(0), await on(1)]
    for (let i = 0; i < 3; i++) expect(await send(a, `a${i}`)).toBe('stored')
    // Both instances reconcile every 100 ms.
    for (let waited = 0; mailboxes[1]!.totals().messages < 3 && waited < 5_000; waited += 50) {
      await sleep(50)
    }
    expect(mailboxes[1]!.totals()).toEqual({ bytes: 3 * 1024, messages: 3 })
    expect(await send(b, 'b0')).toBe('stored') // the 4th of the address's 4
    expect(await send(b, 'b1')).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED)
    expect(servers[1]!.app.relay.stats().quotaRefusals.sourceMessages).toBe(1)
    for (let waited = 0; mailboxes[0]!.totals().messages < 4 && waited < 5_000; waited += 50) {
      await sleep(50)
    }
    expect(await send(a, 'a3')).toBe(RELAY_ERROR_CODES.QUOTA_EXCEEDED)
  })
})
