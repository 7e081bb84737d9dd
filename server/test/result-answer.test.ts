import { request as httpRequest } from 'node:http'
import { LONG_POLL_MAX_HEADER, SessionResultResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statusEtag } from '../src/sessions/long-poll'
import { effectiveStatus, toResultJson, toResultResponse } from '../src/sessions/view'
import { createMemoryStore, type MemoryStore } from '../src/store/memory'
import type { SessionRecord } from '../src/store/types'
import { sessionRecord } from './store/fixtures'
import { startTestServer, type TestServer } from './support/server'
import { createTestSession } from './support/sessions'

// The poll hot path answers with a string it builds itself: it must stay the same bytes as the
// object answer serialized by JSON.stringify, and the same headers.

const NOW = 1_800_000_000_000

const records: [string, SessionRecord][] = [
  ['pending', sessionRecord(NOW)],
  ['pending past its expiry (reads expired)', sessionRecord(NOW, { expiresAt: NOW - 1 })],
  [
    'connected',
    sessionRecord(NOW, {
      status: 'connected',
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    }),
  ],
  [
    'connected past its expiry (reads expired)',
    sessionRecord(NOW, { status: 'connected', walletAddress: '0xab', expiresAt: NOW }),
  ],
  [
    'signed, with values that need escaping',
    sessionRecord(NOW, {
      status: 'signed',
      walletAddress: 'Sol"ana\\address',
      signature: '0x\u2028line\nbreak\u0000',
      txSignature:
        '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
      expiresAt: NOW - 10,
    }),
  ],
  ['failed', sessionRecord(NOW, { status: 'failed', errorCode: 'USER_REJECTED' })],
  ['expired', sessionRecord(NOW, { status: 'expired', version: 7 })],
  ['rejected', sessionRecord(NOW, { status: 'rejected', errorCode: 'USER_REJECTED' })],
]

describe('toResultJson', () => {
  it.each(records)('is JSON.stringify(toResultResponse) byte for byte: %s', (_, record) => {
    const status = effectiveStatus(record, NOW)
    const json = toResultJson(record, status)
    expect(json).toBe(JSON.stringify(toResultResponse(record, NOW)))
    expect(SessionResultResponseSchema.safeParse(JSON.parse(json)).success).toBe(true)
  })

  it('tags with the version and the status as read now', () => {
    const [, record] = records[1]!
    expect(statusEtag(record, effectiveStatus(record, NOW))).toBe('"1-expired"')
  })
})

let server: TestServer
let store: MemoryStore

beforeAll(async () => {
  store = createMemoryStore()
  server = await startTestServer({ store })
})
afterAll(async () => {
  await server.close()
  await store.close()
})

/** One GET with node:http, to see the raw header list in the order it was sent. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: string[]; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the result route answer', () => {
  it('200: the documented headers in order and the JSON body of the stored record', async () => {
    const session = await createTestSession(server.baseUrl)
    const url = `${server.baseUrl}/api/v1/connect/sessions/${session.sessionId}/result`
    const answer = await rawGet(url, { authorization: `Bearer ${session.sessionToken}` })
    const record = (await store.getSession(session.sessionId))!
    const names = answer.headers.filter((_, index) => index % 2 === 0).map((h) => h.toLowerCase())
    expect(answer.status).toBe(200)
    expect(names.slice(0, 8)).toEqual([
      'x-content-type-options',
      'ratelimit-policy',
      'ratelimit',
      'cache-control',
      LONG_POLL_MAX_HEADER.toLowerCase(),
      'etag',
      'content-type',
      'content-length',
    ])
    const header = (name: string) => answer.headers[answer.headers.indexOf(name) + 1]
    expect(header('x-content-type-options')).toBe('nosniff')
    expect(header('ratelimit-policy')).toBe('"session";q=120;w=60')
    expect(header('ratelimit')).toBe('"session";r=119;t=60')
    expect(header('cache-control')).toBe('no-store')
    expect(header(LONG_POLL_MAX_HEADER.toLowerCase())).toBe('25000')
    expect(header('etag')).toBe(`"${record.version}-pending"`)
    expect(header('content-type')).toBe('application/json; charset=utf-8')
    expect(header('content-length')).toBe(String(Buffer.byteLength(answer.body)))
    expect(answer.body).toBe(JSON.stringify(toResultResponse(record, Date.now())))
  })

  it('304 with the same headers and no body when If-None-Match names the current tag', async () => {
    const session = await createTestSession(server.baseUrl)
    const url = `${server.baseUrl}/api/v1/connect/sessions/${session.sessionId}/result`
    const auth = { authorization: `Bearer ${session.sessionToken}` }
    const first = await rawGet(url, auth)
    const etag = first.headers[first.headers.indexOf('etag') + 1]!
    const again = await rawGet(url, { ...auth, 'if-none-match': etag })
    const header = (name: string) => again.headers[again.headers.indexOf(name) + 1]
    expect([again.status, again.body, header('etag')]).toEqual([304, '', etag])
    expect(header('ratelimit')).toBe('"session";r=118;t=60')
    expect(header('cache-control')).toBe('no-store')
    expect(again.headers).not.toContain('content-type')
  })
})
