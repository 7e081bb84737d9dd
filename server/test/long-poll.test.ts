import { request as httpRequest } from 'node:http'
import { LONG_POLL_MAX_HEADER, SessionResultResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, type MemoryStore } from '../src/store/memory'
import { createMemorySessionEvents, type SessionEvents } from '../src/store/session-events'
import { call, codeOf } from './support/http'
import { startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, nonceHeader } from './support/sessions'
import { evmWallet } from './support/wallets'

// Results pushed: GET /sessions/{id}/result?waitMs=… with If-None-Match, on one instance.

let server: TestServer
let store: MemoryStore
let events: SessionEvents

beforeAll(async () => {
  store = createMemoryStore()
  events = createMemorySessionEvents()
  server = await startTestServer({ store, sessionEvents: events })
})
afterAll(async () => {
  await server.close()
  await store.close()
})

type Session = Awaited<ReturnType<typeof createTestSession>>

const result = (session: Session, query = '', headers: Record<string, string> = {}) =>
  call(server.baseUrl, `/sessions/${session.sessionId}/result${query}`, {
    headers: { ...bearer(session.sessionToken), ...headers },
  })

const connect = (session: Session, address = evmWallet().address) =>
  call(server.baseUrl, '/callback/connect', {
    body: {
      sessionId: session.sessionId,
      walletSlug: 'metamask',
      caip2Chain: 'eip155:1',
      walletAddress: address,
    },
    headers: nonceHeader(session.nonce),
  })

const remaining = (headers: Headers) => Number(headers.get('ratelimit')?.match(/r=(\d+)/)?.[1])

describe('long-poll on one instance', () => {
  it('every answer carries an ETag and X-Long-Poll-Max-Ms: 25000', async () => {
    const session = await createTestSession(server.baseUrl)
    const answer = await result(session)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('etag')).toMatch(/^"\d+-pending"$/)
    expect(answer.headers.get(LONG_POLL_MAX_HEADER)).toBe('25000')
    expect(answer.headers.get('cache-control')).toBe('no-store')
  })

  it('answers within ~100 ms of the callback that changed the session', async () => {
    const session = await createTestSession(server.baseUrl)
    const first = await result(session)
    const etag = first.headers.get('etag')!
    const started = performance.now()
    const waiting = result(session, '?waitMs=20000', { 'if-none-match': etag }).then((answer) => ({
      answer,
      at: performance.now(),
    }))
    // The request is held: nothing has changed yet.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(events.watching()).toBe(1)
    const wallet = evmWallet()
    const callbackAt = performance.now()
    expect((await connect(session, wallet.address)).status).toBe(204)
    const answeredAt = performance.now()
    const { answer, at } = await waiting
    expect(answer.status).toBe(200)
    expect(at - started).toBeGreaterThanOrEqual(300)
    // Pushed with the write: at most ~100 ms after the callback's own answer (often before it),
    // and far from the 20 s the request could wait (a busy CI machine slows both alike).
    expect(at - answeredAt).toBeLessThan(100)
    expect(at - callbackAt).toBeLessThan(1000)
    expect(SessionResultResponseSchema.parse(answer.body)).toMatchObject({
      status: 'connected',
      walletAddress: wallet.address,
    })
    expect(answer.headers.get('etag')).toMatch(/^"\d+-connected"$/)
    expect(answer.headers.get('etag')).not.toBe(etag)
    expect(events.watching()).toBe(0)
  })

  it('many long-polls waiting at once are normal: no MaxListenersExceededWarning', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.name)
    process.on('warning', onWarning)
    try {
      const sessions = await Promise.all(
        Array.from({ length: 12 }, () => createTestSession(server.baseUrl)),
      )
      const answers = await Promise.all(
        sessions.map(async (session) => {
          const etag = (await result(session)).headers.get('etag')!
          return result(session, '?waitMs=300', { 'if-none-match': etag })
        }),
      )
      expect(answers.map((answer) => answer.status)).toEqual(sessions.map(() => 304))
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(warnings).not.toContain('MaxListenersExceededWarning')
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('304 with the same ETag when nothing changed within waitMs', async () => {
    const session = await createTestSession(server.baseUrl)
    const etag = (await result(session)).headers.get('etag')!
    const started = performance.now()
    const answer = await result(session, '?waitMs=400', { 'if-none-match': etag })
    const took = performance.now() - started
    expect(answer.status).toBe(304)
    expect(answer.body).toBeUndefined()
    expect(answer.headers.get('etag')).toBe(etag)
    expect(answer.headers.get(LONG_POLL_MAX_HEADER)).toBe('25000')
    expect(took).toBeGreaterThanOrEqual(380)
    expect(took).toBeLessThan(2000)
  })

  it('answers at once when the client holds an old ETag, and 304 at once without waitMs', async () => {
    const session = await createTestSession(server.baseUrl)
    const old = (await result(session)).headers.get('etag')!
    await connect(session)
    const started = performance.now()
    const changed = await result(session, '?waitMs=20000', { 'if-none-match': old })
    expect(changed.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(500)
    const current = changed.headers.get('etag')!
    const conditional = await result(session, '', { 'if-none-match': `W/${current}, "x"` })
    expect([conditional.status, conditional.headers.get('etag')]).toEqual([304, current])
  })

  it('each long-poll counts once in the session budget, however long it waits', async () => {
    const session = await createTestSession(server.baseUrl)
    const first = await result(session)
    const etag = first.headers.get('etag')!
    const before = remaining(first.headers)
    const held = await result(session, '?waitMs=300', { 'if-none-match': etag })
    expect(held.status).toBe(304)
    expect(remaining(held.headers)).toBe(before - 1)
  })

  it('422 VALIDATION_FAILED for a waitMs outside 0..25000', async () => {
    const session = await createTestSession(server.baseUrl)
    for (const waitMs of ['25001', '-1', '1.5', 'abc', '']) {
      const answer = await result(session, `?waitMs=${waitMs}`)
      expect([answer.status, codeOf(answer)], waitMs).toEqual([422, 'VALIDATION_FAILED'])
    }
    expect((await result(session, '?waitMs=25000')).status).toBe(200)
  })

  it('a waiting request without the token is the same 404, and nothing waits', async () => {
    const session = await createTestSession(server.baseUrl)
    const etag = (await result(session)).headers.get('etag')!
    const started = performance.now()
    const answer = await call(server.baseUrl, `/sessions/${session.sessionId}/result?waitMs=5000`, {
      headers: { 'if-none-match': etag, ...bearer('q'.repeat(43)) },
    })
    expect([answer.status, codeOf(answer)]).toEqual([404, 'SESSION_NOT_FOUND'])
    expect(performance.now() - started).toBeLessThan(1000)
    expect(events.watching()).toBe(0)
  })

  it('a session that expires while a long-poll waits is answered at its expiry, status expired', async () => {
    let clock = Date.now()
    const local = await startTestServer({ now: () => clock, sessionTtlSeconds: 1 })
    try {
      const session = await createTestSession(local.baseUrl)
      const ask = (headers: Record<string, string>) =>
        call(local.baseUrl, `/sessions/${session.sessionId}/result?waitMs=10000`, {
          headers: { ...bearer(session.sessionToken), ...headers },
        })
      const etag = (await ask({})).headers.get('etag')!
      const started = performance.now()
      const waiting = ask({ 'if-none-match': etag })
      await new Promise((resolve) => setTimeout(resolve, 200))
      // The test clock moves past expiresAt; the route's timer, armed for the expiry, fires ~1 s later.
      clock += 1_001
      const answer = await waiting
      const took = performance.now() - started
      expect(took).toBeGreaterThanOrEqual(800)
      expect(took).toBeLessThan(3000)
      expect(answer.status).toBe(200)
      expect(SessionResultResponseSchema.parse(answer.body).status).toBe('expired')
      expect(answer.headers.get('etag')).toMatch(/-expired"$/)
    } finally {
      await local.close()
    }
  })

  it('closing the server answers waiting long-polls at once (304), within the shutdown grace', async () => {
    const local = await startTestServer()
    const session = await createTestSession(local.baseUrl)
    const headers = bearer(session.sessionToken)
    const path = `/sessions/${session.sessionId}/result`
    const etag = (await call(local.baseUrl, path, { headers })).headers.get('etag')!
    const waiting = call(local.baseUrl, `${path}?waitMs=25000`, {
      headers: { ...headers, 'if-none-match': etag },
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = performance.now()
    await local.close()
    const answer = await waiting
    expect(performance.now() - started).toBeLessThan(2000)
    expect([answer.status, answer.headers.get('etag')]).toEqual([304, etag])
  })

  it('a client that goes away stops its wait (no watcher left behind)', async () => {
    const session = await createTestSession(server.baseUrl)
    const etag = (await result(session)).headers.get('etag')!
    // node:http, so the socket is really gone when the client gives up (and nothing reconnects).
    const request = httpRequest(
      `${server.baseUrl}/api/v1/connect/sessions/${session.sessionId}/result?waitMs=20000`,
      { headers: { ...bearer(session.sessionToken), 'if-none-match': etag }, agent: false },
    )
    request.on('error', () => {})
    request.end()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(events.watching()).toBe(1)
    request.destroy()
    const deadline = Date.now() + 2000
    while (events.watching() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(events.watching()).toBe(0)
  })

  it('a browser page may long-poll and a web wallet may call back: CORS allows and exposes the headers', async () => {
    const origin = 'https://dapp.example'
    const session = await createTestSession(server.baseUrl)
    const preflight = (path: string, headers: string) =>
      call(server.baseUrl, path, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': path.includes('callback') ? 'POST' : 'GET',
          'access-control-request-headers': headers,
        },
      })
    const poll = await preflight(
      `/sessions/${session.sessionId}/result`,
      'authorization, if-none-match',
    )
    expect(poll.headers.get('access-control-allow-headers')).toContain('if-none-match')
    const wallet = await preflight('/callback/connect', 'content-type, x-session-nonce')
    expect(wallet.headers.get('access-control-allow-headers')).toContain('x-session-nonce')
    const answer = await result(session, '', { origin })
    const exposed = answer.headers.get('access-control-expose-headers') ?? ''
    expect(exposed).toContain('etag')
    expect(exposed).toContain('x-long-poll-max-ms')
  })

  it('the OpenAPI document describes the long-poll and the callback nonce', async () => {
    const doc = (await call(server.baseUrl, '/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: object }>>
    }
    const prefix = '/api/v1/connect'
    const result = doc.paths[`${prefix}/sessions/{sessionId}/result`]!.get!
    expect(result.parameters?.map((p) => p.name)).toEqual(['sessionId', 'waitMs', 'If-None-Match'])
    expect(Object.keys(result.responses)).toContain('304')
    for (const path of ['connect', 'sign', 'transaction', 'reject']) {
      const post = doc.paths[`${prefix}/callback/${path}`]!.post!
      expect(post.parameters?.map((p) => p.name)).toEqual(['x-session-nonce'])
    }
  })

  it('a change whose announcement was lost is still answered 200 (not 304) when the wait ends', async () => {
    const deaf = createMemorySessionEvents()
    const local = await startTestServer({ sessionEvents: { ...deaf, publish: async () => {} } })
    try {
      const session = await createTestSession(local.baseUrl)
      const path = `/sessions/${session.sessionId}/result`
      const headers = bearer(session.sessionToken)
      const etag = (await call(local.baseUrl, path, { headers })).headers.get('etag')!
      const waiting = call(local.baseUrl, `${path}?waitMs=600`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
      await call(local.baseUrl, '/callback/reject', {
        body: { sessionId: session.sessionId, errorCode: 'USER_REJECTED' },
        headers: nonceHeader(session.nonce),
      })
      const answer = await waiting
      expect(answer.status).toBe(200)
      expect(SessionResultResponseSchema.parse(answer.body).status).toBe('rejected')
    } finally {
      await local.close()
    }
  })

  it('waitMs is real time: with the app clock standing still the wait still ends (304)', async () => {
    const frozen = Date.now()
    const local = await startTestServer({ now: () => frozen })
    try {
      const session = await createTestSession(local.baseUrl)
      const path = `/sessions/${session.sessionId}/result`
      const headers = bearer(session.sessionToken)
      const etag = (await call(local.baseUrl, path, { headers })).headers.get('etag')!
      const started = performance.now()
      const answer = await call(local.baseUrl, `${path}?waitMs=300`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      expect([answer.status, answer.headers.get('etag')]).toEqual([304, etag])
      expect(performance.now() - started).toBeGreaterThanOrEqual(280)
      expect(performance.now() - started).toBeLessThan(2000)
    } finally {
      await local.close()
    }
  })
})
