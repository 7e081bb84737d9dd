import { RELAY_ERROR_CODES, RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedRedis } from '../../../test/support/shared-services'
import type { RelayMailbox } from '../../src/relay/mailbox'
import { createMemoryMailbox } from '../../src/relay/mailbox-memory'
import { createRedisMailbox } from '../../src/relay/mailbox-redis'
import { connectRelay, envelope, type RelayCallError, topicFor } from '../support/relay-client'
import { startTestServer } from '../support/server'

const { subscribe, publish, fetchMessages, ping } = RELAY_METHODS

const redis = sharedRedis()

/** The same checks on both mailboxes, on a clock the test moves (the server's `now`). */
describe.each([
  ['in-process', (now: () => number) => createMemoryMailbox({ now })],
  [
    'Redis',
    (now: () => number) =>
      createRedisMailbox(redis.url, { keyPrefix: `expiry${Date.now()}:`, now }),
  ],
] as const)('%s mailbox: a message lives until its ttl', (_name, makeMailbox) => {
  let clock = Date.now()
  const now = () => clock
  let mailbox: RelayMailbox
  let server: Awaited<ReturnType<typeof startTestServer>>

  beforeAll(async () => {
    mailbox = makeMailbox(now)
    server = await startTestServer({
      now,
      relay: { mailbox, limits: { mailboxPerTopic: 2 } },
    })
  })
  afterAll(async () => {
    await server?.close()
    await mailbox?.close()
  })

  it('is delivered before its ttl, gone after it, and frees its mailbox slot', async () => {
    const topic = topicFor(`ttl-${_name}`)
    // Two publishers: one alone may hold only its share of the mailbox (fair-share.test.ts).
    const dapp = await connectRelay(server.baseUrl)
    const wallet = await connectRelay(server.baseUrl)
    const send = (seed: string, ttl: number, from = dapp) =>
      from.request(publish, { topic, message: envelope(seed), ttl, tag: 1 })
    expect(await send('short', 10)).toBe(true)
    expect(await send('long', 60, wallet)).toBe(true)
    await expect(send('third', 60, wallet)).rejects.toSatisfy(
      (error: RelayCallError) => error.error.code === RELAY_ERROR_CODES.MAILBOX_FULL,
    )

    clock += 9_999
    const early = await connectRelay(server.baseUrl)
    const page = await early.request<RelayFetchResult>(fetchMessages, { topic })
    expect(page.messages.map((m) => m.message)).toEqual([envelope('short'), envelope('long')])

    clock += 1
    const late = await connectRelay(server.baseUrl)
    await late.request(subscribe, { topic })
    await late.waitForPushes(1)
    await late.request(ping)
    expect(late.pushes.map((push) => push.data.message)).toEqual([envelope('long')])
    // The expired message no longer counts against the limit.
    expect(await send('third', 60)).toBe(true)

    // `early` fetched the first two already; what is left for it is the one still alive.
    clock += 50_000
    const fetched = await early.request<RelayFetchResult>(fetchMessages, { topic })
    expect(fetched.messages.map((m) => m.message)).toEqual([envelope('third')])
    for (const client of [dapp, wallet, early, late]) client.close()
  })
})
