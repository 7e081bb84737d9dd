import { Writable } from 'node:stream'
import { SessionResultSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionLogId } from '../src/logging'
import { createMemoryStore, type MemoryStore } from '../src/store/memory'
import { type Answer, call, codeOf } from './support/http'
import { startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, getResult, nonceHeader } from './support/sessions'
import { evmWallet } from './support/wallets'

// Issue 10, findings 4, 5 and the existence oracle: each test below fails on the code before it.

let server: TestServer
let store: MemoryStore
const lines: string[] = []

beforeAll(async () => {
  store = createMemoryStore()
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  server = await startTestServer({ store, logger: { level: 'info', destination } })
})
afterAll(async () => {
  await server.close()
  await store.close()
})

const NOT_FOUND = { error: { code: 'SESSION_NOT_FOUND', message: 'no such session' } }
const UNKNOWN_ID = 'Q'.repeat(22)

const callback = (path: string, body: object, headers: Record<string, string> = {}) =>
  call(server.baseUrl, path, { body, headers })
const connectBody = (sessionId: string, walletAddress: string) => ({
  sessionId,
  walletSlug: 'metamask',
  caip2Chain: 'eip155:1',
  walletAddress,
})
const statusOf = async (session: { sessionId: string; sessionToken: string }) =>
  SessionResultSchema.parse((await getResult(server.baseUrl, session as never)).body).status
const same = (answer: Answer) => [answer.status, answer.body]

describe('finding 4: the session id alone does not authorise callbacks', () => {
  it('connect, sign, transaction and reject without the nonce, or with a wrong one, answer as an unknown session and change nothing', async () => {
    const session = await createTestSession(server.baseUrl)
    const attacker = evmWallet()
    const timestamp = Date.now()
    const attempts: [string, object][] = [
      ['/callback/connect', connectBody(session.sessionId, attacker.address)],
      [
        '/callback/sign',
        {
          sessionId: session.sessionId,
          signature: await attacker.signEnvelope(session.sessionId, session.nonce, timestamp),
          timestamp,
        },
      ],
      [
        '/callback/transaction',
        { sessionId: session.sessionId, txSignature: `0x${'ab'.repeat(32)}` },
      ],
      ['/callback/reject', { sessionId: session.sessionId, errorCode: 'USER_REJECTED' }],
    ]
    const wrongNonces = [
      {},
      nonceHeader(''),
      nonceHeader('x'.repeat(session.nonce.length)),
      nonceHeader(session.nonce.slice(0, -1)),
      nonceHeader(`${session.nonce}x`),
      // Another session's nonce is no better.
      nonceHeader((await createTestSession(server.baseUrl)).nonce),
    ]
    for (const [path, body] of attempts) {
      for (const headers of wrongNonces) {
        expect(same(await callback(path, body, headers)), `${path} ${JSON.stringify(headers)}`)
          // Byte for byte the answer for a session that does not exist.
          .toEqual([404, NOT_FOUND])
      }
      const unknown = await callback(
        path,
        { ...body, sessionId: UNKNOWN_ID },
        nonceHeader(session.nonce),
      )
      expect(same(unknown)).toEqual([404, NOT_FOUND])
    }
    expect(await statusOf(session)).toBe('pending')
  })

  it('with the nonce the wallet got in its link, the same callbacks work', async () => {
    const session = await createTestSession(server.baseUrl)
    const wallet = evmWallet()
    const withNonce = nonceHeader(session.nonce)
    const connected = await callback(
      '/callback/connect',
      connectBody(session.sessionId, wallet.address),
      withNonce,
    )
    expect(connected.status).toBe(204)
    const timestamp = Date.now()
    const signed = await callback(
      '/callback/sign',
      {
        sessionId: session.sessionId,
        signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
        timestamp,
      },
      withNonce,
    )
    expect(signed.status).toBe(204)
    expect(await statusOf(session)).toBe('signed')
  })

  it('session ids and nonces never reach the log in clear: a short hash names the session', async () => {
    const session = await createTestSession(server.baseUrl)
    const wallet = evmWallet()
    await callback(
      '/callback/connect',
      connectBody(session.sessionId, wallet.address),
      nonceHeader(session.nonce),
    )
    await getResult(server.baseUrl, session)
    await call(server.baseUrl, `/sessions/${session.sessionId}/result?waitMs=0`, {
      headers: bearer(session.sessionToken),
    })
    await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
      body: { walletAddress: wallet.address, signature: '0x00', timestamp: Date.now() },
      headers: bearer(session.sessionToken),
    })
    const log = lines.join('')
    expect(log).toContain(`/sessions/${sessionLogId(session.sessionId)}/result`)
    expect(log).toContain(`/sessions/${sessionLogId(session.sessionId)}/verify`)
    expect(log).not.toContain(session.sessionId)
    expect(log).not.toContain(session.nonce)
    expect(log).not.toContain(session.sessionToken)
    expect(sessionLogId(session.sessionId)).toMatch(/^s:[0-9a-f]{12}$/)
  })
})

describe('no existence oracle: unknown session, missing or wrong token, one answer', () => {
  it('an expired session answers a callback without its nonce 404, not 410', async () => {
    let clock = Date.now()
    const local = await startTestServer({ now: () => clock })
    try {
      const session = await createTestSession(local.baseUrl)
      clock += 601_000
      const body = { sessionId: session.sessionId, errorCode: 'USER_REJECTED' }
      const without = await call(local.baseUrl, '/callback/reject', { body })
      expect(same(without)).toEqual([404, NOT_FOUND])
      const withNonce = await call(local.baseUrl, '/callback/reject', {
        body,
        headers: nonceHeader(session.nonce),
      })
      expect([withNonce.status, codeOf(withNonce)]).toEqual([410, 'SESSION_EXPIRED'])
    } finally {
      await local.close()
    }
  })

  it('result and verify answer an unknown id and a known id without its token identically', async () => {
    const session = await createTestSession(server.baseUrl)
    const other = await createTestSession(server.baseUrl)
    const verifyBody = { walletAddress: evmWallet().address, signature: '0x00', timestamp: 1 }
    for (const route of ['result', 'verify'] as const) {
      const ask = (id: string, headers: Record<string, string>) =>
        call(server.baseUrl, `/sessions/${id}/${route}`, {
          headers,
          ...(route === 'verify' ? { body: verifyBody } : {}),
        })
      const answers = [
        await ask(UNKNOWN_ID, {}),
        await ask(UNKNOWN_ID, bearer(session.sessionToken)),
        await ask(session.sessionId, {}),
        await ask(session.sessionId, bearer(other.sessionToken)),
        await ask(session.sessionId, { 'x-app-key': server.appKey }),
      ]
      for (const answer of answers) {
        expect(same(answer), route).toEqual([404, NOT_FOUND])
        expect(answer.headers.get('ratelimit'), route).toBeNull()
      }
    }
  })
})

describe('finding 5: callbacks are idempotent', () => {
  it('the same sign body twice is 204 twice (a retry after a lost answer); another signature after is 409', async () => {
    const session = await createTestSession(server.baseUrl)
    const wallet = evmWallet()
    const withNonce = nonceHeader(session.nonce)
    await callback('/callback/connect', connectBody(session.sessionId, wallet.address), withNonce)
    const timestamp = Date.now()
    const body = {
      sessionId: session.sessionId,
      signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
      timestamp,
    }
    expect((await callback('/callback/sign', body, withNonce)).status).toBe(204)
    expect((await callback('/callback/sign', body, withNonce)).status).toBe(204)
    const another = await callback(
      '/callback/sign',
      {
        ...body,
        signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp + 5),
        timestamp: timestamp + 5,
      },
      withNonce,
    )
    expect([another.status, codeOf(another)]).toEqual([409, 'NONCE_USED'])
    // The connect that preceded it, retried after the signature landed, keeps its outcome too.
    const connectAgain = await callback(
      '/callback/connect',
      connectBody(session.sessionId, wallet.address),
      withNonce,
    )
    expect(connectAgain.status).toBe(204)
    const otherConnect = await callback(
      '/callback/connect',
      connectBody(session.sessionId, evmWallet().address),
      withNonce,
    )
    expect([otherConnect.status, codeOf(otherConnect)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    expect(await statusOf(session)).toBe('signed')
  })

  it('the same reject twice is 204 twice; a different code after it is 409', async () => {
    const session = await createTestSession(server.baseUrl)
    const withNonce = nonceHeader(session.nonce)
    const body = { sessionId: session.sessionId, errorCode: 'USER_REJECTED' }
    expect((await callback('/callback/reject', body, withNonce)).status).toBe(204)
    expect((await callback('/callback/reject', body, withNonce)).status).toBe(204)
    const other = await callback(
      '/callback/reject',
      { ...body, errorCode: 'WALLET_CRASHED' },
      withNonce,
    )
    expect([other.status, codeOf(other)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    expect(await statusOf(session)).toBe('rejected')
  })

  it('racing identical rejects both answer 204', async () => {
    const session = await createTestSession(server.baseUrl)
    const body = { sessionId: session.sessionId, errorCode: 'WALLET_CRASHED' }
    const answers = await Promise.all(
      [1, 2, 3].map(() => callback('/callback/reject', body, nonceHeader(session.nonce))),
    )
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204])
    expect(await statusOf(session)).toBe('failed')
  })
})
