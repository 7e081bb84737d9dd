import type { Socket } from 'node:net'
import { RELAY_CLOSE_CODES, RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRelay, envelope, topicFor } from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { subscribe, publish, fetchMessages } = RELAY_METHODS
const TOPICS = 4
const PER_TOPIC = 40 // the publisher's share of each topic
const MESSAGE = 90 * 1024 // bytes of base64 text
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Issue 16: a subscriber that never reads cannot make the server buffer without end. Past the
 * send-buffer ceiling (1 MiB) its socket is closed with 1013; its messages stay in the mailbox
 * and a fetch after the reconnect brings them all.
 */
describe('relay slow consumer', () => {
  let server: TestServer
  beforeAll(async () => {
    // One publisher sends 14 MiB here: above its address's quota (8 MiB), which is not under test.
    // The slow socket reads again only after the last publish: a grace (2 s by default) shorter
    // than the publishing would cut it before its 1013 is read (1006), on a loaded machine.
    server = await startTestServer({
      relay: { limits: { sourceQuotaBytes: 64 * 1024 * 1024, closeGraceMs: 60_000 } },
    })
  })
  afterAll(() => server?.close())

  it('error: a subscriber that stops reading is closed 1013 and fetches everything after', async () => {
    const topics = Array.from({ length: TOPICS }, (_, i) => topicFor(`slow-${i}`))
    const slow = await connectRelay(server.baseUrl)
    for (const topic of topics) await slow.request(subscribe, { topic })
    // The client stops reading: the kernel buffers fill, then the server's.
    const tcp = (slow.socket as unknown as { _socket: Socket })._socket
    tcp.pause()

    const publisher = await connectRelay(server.baseUrl)
    const sent: string[] = []
    const rssBefore = process.memoryUsage().rss
    for (let n = 0; n < PER_TOPIC; n++) {
      for (const topic of topics) {
        const message = envelope(`slow-${n}-${topic.slice(0, 4)}`, (MESSAGE * 3) / 4)
        sent.push(message)
        expect(await publisher.request(publish, { topic, message, ttl: 300, tag: 1 })).toBe(true)
      }
    }
    for (let waited = 0; server.app.relay.stats().slowConsumerCloses === 0 && waited < 5_000; ) {
      await sleep(20)
      waited += 20
    }
    expect(server.app.relay.stats().slowConsumerCloses).toBe(1)
    // 14 MiB were published; the server kept at most its ceiling of them for the slow socket.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024)

    tcp.resume()
    expect((await slow.closed).code).toBe(RELAY_CLOSE_CODES.TRY_AGAIN_LATER)

    const back = await connectRelay(server.baseUrl)
    const fetched: string[] = []
    for (const topic of topics) {
      let page: RelayFetchResult
      do {
        page = await back.request<RelayFetchResult>(fetchMessages, { topic })
        fetched.push(...page.messages.map((m) => m.message))
      } while (page.hasMore)
    }
    expect(fetched.sort()).toEqual(sent.sort())
    publisher.close()
    back.close()
  })
})
