import { RELAY_METHODS, type RelayFetchResult } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SESSION_MESSAGE_TAGS,
  SESSION_MESSAGE_TTL_SECONDS,
} from '../../../src/relay/peer/message-tags'
import { createMemoryMailbox } from '../../src/relay/mailbox-memory'
import { clampTtl, UNKNOWN_TAG_TTL_CEILING_SECONDS } from '../../src/relay/ttl-ceilings'
import { connectRelay, envelope, topicFor } from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const { publish, fetchMessages } = RELAY_METHODS

/**
 * Issue 16: a ttl is clamped to its tag's ceiling (SPEC 5's TTLs for the library's tags, 300 s
 * for any other), so nobody parks a message for a week.
 */
describe('relay ttl ceilings by tag', () => {
  let clock = Date.now()
  const now = () => clock
  const mailbox = createMemoryMailbox({ now })
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ now, relay: { mailbox } })
  })
  afterAll(async () => {
    await server?.close()
    await mailbox.close()
  })

  it('never clamps what the library publishes', () => {
    for (const [method, tag] of Object.entries(SESSION_MESSAGE_TAGS)) {
      const ttl = SESSION_MESSAGE_TTL_SECONDS[method as keyof typeof SESSION_MESSAGE_TAGS]
      expect(clampTtl(ttl, tag)).toBe(ttl)
      expect(clampTtl(ttl, tag + 1)).toBe(ttl) // its answer
    }
  })

  it('keeps a message at most its tag’s ceiling, whatever ttl was asked', async () => {
    const client = await connectRelay(server.baseUrl)
    const cases = [
      { tag: 1, ttl: 604_800, lives: UNKNOWN_TAG_TTL_CEILING_SECONDS },
      { tag: 1100, ttl: 604_800, lives: 300 },
      // Alone on its topic: 5 min (a day only between two parties: long-ttl.test.ts).
      { tag: 1112, ttl: 604_800, lives: UNKNOWN_TAG_TTL_CEILING_SECONDS },
      { tag: 1108, ttl: 120, lives: 120 }, // under the ceiling: as asked
    ]
    const start = clock
    for (const { tag, ttl } of cases) {
      const message = envelope(`ttl-${tag}`)
      expect(
        await client.request(publish, { topic: topicFor(`ttl-${tag}`), message, ttl, tag }),
      ).toBe(true)
    }
    // A fresh reader per look: fetched messages count as had.
    const alive = async (tag: number) => {
      const reader = await connectRelay(server.baseUrl)
      const page = await reader.request<RelayFetchResult>(fetchMessages, {
        topic: topicFor(`ttl-${tag}`),
      })
      reader.close()
      return page.messages.length > 0
    }
    for (const lives of [...new Set(cases.map((c) => c.lives))].sort((a, b) => a - b)) {
      const tags = cases.filter((c) => c.lives === lives).map((c) => c.tag)
      clock = start + lives * 1000 - 1
      for (const tag of tags) expect(await alive(tag), `tag ${tag} before ${lives} s`).toBe(true)
      clock = start + lives * 1000
      for (const tag of tags) expect(await alive(tag), `tag ${tag} at ${lives} s`).toBe(false)
    }
    client.close()
  })
})
