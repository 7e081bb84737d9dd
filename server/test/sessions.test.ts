import { createHash } from 'node:crypto'
import {
  CreateSessionResponseSchema,
  SessionResultResponseSchema,
  SessionResultSchema,
} from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, type MemoryStore } from '../src/store/memory'
import { call, codeOf } from './support/http'
import { OTHER_APP_KEY, startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, getResult, postCallback } from './support/sessions'
import { evmWallet } from './support/wallets'

let server: TestServer
let store: MemoryStore
let clock = Date.now()
const now = () => clock

beforeAll(async () => {
  store = createMemoryStore({ now })
  server = await startTestServer({ store, now })
})
afterAll(async () => {
  await server.close()
  await store.close()
})

const post = (path: string, body: unknown) => postCallback(server.baseUrl, store, path, body)
const connect = (sessionId: string, walletAddress: string, extra: object = {}) =>
  post('/callback/connect', {
    sessionId,
    walletSlug: 'metamask',
    caip2Chain: 'eip155:1',
    walletAddress,
    ...extra,
  })

describe('POST /sessions', () => {
  it('201 with random id, nonce and token; only the token hash is stored', async () => {
    const answer = await call(server.baseUrl, '/sessions', {
      body: { caip2Chain: 'eip155:1' },
      headers: { 'x-app-key': server.appKey },
    })
    expect(answer.status).toBe(201)
    const created = CreateSessionResponseSchema.parse(answer.body)
    expect(Buffer.from(created.sessionId, 'base64url').length).toBeGreaterThanOrEqual(16)
    expect(Buffer.from(created.sessionToken, 'base64url').length).toBe(32)
    expect(created.expiresAt).toBe(clock + 600_000)
    const record = await store.getSession(created.sessionId)
    expect(record?.tokenHash).toBe(createHash('sha256').update(created.sessionToken).digest('hex'))
    expect(JSON.stringify(record)).not.toContain(created.sessionToken)
    expect(record).toMatchObject({ status: 'pending', intent: 'connect', nonce: created.nonce })
    const again = await createTestSession(server.baseUrl)
    expect(again.sessionId).not.toBe(created.sessionId)
    expect(again.nonce).not.toBe(created.nonce)
  })

  it('403 CHAIN_NOT_ENABLED, 422 UNSUPPORTED_CHAIN, 403 WALLET_NOT_ENABLED', async () => {
    const create = (body: object) =>
      call(server.baseUrl, '/sessions', { body, headers: { 'x-app-key': server.appKey } })
    const base = await create({ caip2Chain: 'eip155:8453' })
    expect([base.status, codeOf(base)]).toEqual([403, 'CHAIN_NOT_ENABLED'])
    const unknown = await create({ caip2Chain: 'eip155:999999' })
    expect([unknown.status, codeOf(unknown)]).toEqual([422, 'UNSUPPORTED_CHAIN'])
    const wallet = await create({ caip2Chain: 'eip155:1', walletSlug: 'okx' })
    expect([wallet.status, codeOf(wallet)]).toEqual([403, 'WALLET_NOT_ENABLED'])
    const ok = await create({ caip2Chain: 'eip155:1', walletSlug: 'metamask', intent: 'sign' })
    expect(ok.status).toBe(201)
  })
})

describe('GET /sessions/:id/result auth', () => {
  it('accepts the bearer token alone, and with X-App-Key alongside', async () => {
    const session = await createTestSession(server.baseUrl)
    const alone = await getResult(server.baseUrl, session)
    expect(alone.status).toBe(200)
    expect(SessionResultResponseSchema.parse(alone.body)).toEqual({
      sessionId: session.sessionId,
      status: 'pending',
      connected: false,
      signed: false,
      walletAddress: null,
      signature: null,
      txSignature: null,
      errorCode: null,
      expiresAt: session.expiresAt,
    })
    expect(alone.headers.get('ratelimit-policy')).toContain('"session"')
    const both = await call(server.baseUrl, `/sessions/${session.sessionId}/result`, {
      headers: { ...bearer(session.sessionToken), 'x-app-key': server.appKey },
    })
    expect(both.status).toBe(200)
  })

  it('404 SESSION_NOT_FOUND, as for an unknown id, without a token, with a wrong one, or with X-App-Key alone', async () => {
    const session = await createTestSession(server.baseUrl)
    const other = await createTestSession(server.baseUrl)
    const path = `/sessions/${session.sessionId}/result`
    for (const headers of <Array<Record<string, string>>>[
      {},
      bearer('x'.repeat(43)),
      bearer(other.sessionToken),
      { authorization: `Basic ${session.sessionToken}` },
      { 'x-app-key': server.appKey },
    ]) {
      const answer = await call(server.baseUrl, path, { headers })
      // The same answer, body included, as for a session that does not exist: no existence oracle.
      expect([answer.status, answer.body]).toEqual([
        404,
        { error: { code: 'SESSION_NOT_FOUND', message: 'no such session' } },
      ])
    }
  })

  it('404 SESSION_NOT_FOUND for an unknown id', async () => {
    const answer = await call(server.baseUrl, `/sessions/${'A'.repeat(22)}/result`, {
      headers: bearer('y'.repeat(43)),
    })
    expect([answer.status, codeOf(answer)]).toEqual([404, 'SESSION_NOT_FOUND'])
  })
})

describe('EVM connect and sign through the callbacks', () => {
  it('good signature: pending → connected → signed, visible in the result', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    expect((await connect(session.sessionId, wallet.address)).status).toBe(204)
    const connected = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
    expect(connected).toMatchObject({
      status: 'connected',
      connected: true,
      signed: false,
      walletAddress: wallet.address,
    })
    const timestamp = clock
    const signature = await wallet.signEnvelope(session.sessionId, session.nonce, timestamp)
    const signed = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature,
      timestamp,
    })
    expect(signed.status).toBe(204)
    const result = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
    expect(result).toMatchObject({ status: 'signed', connected: true, signed: true, signature })
    // A retry of the same callback (its answer was lost) gets the same outcome: 204.
    const replay = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature,
      timestamp,
    })
    expect(replay.status).toBe(204)
    // The nonce is spent: another signature, even a valid one by the same wallet, is 409.
    const other = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp + 1),
      timestamp: timestamp + 1,
    })
    expect([other.status, codeOf(other)]).toEqual([409, 'NONCE_USED'])
    expect(
      SessionResultSchema.parse((await getResult(server.baseUrl, session)).body),
    ).toMatchObject({ status: 'signed', signature })
  })

  it('the connect callback alone never completes a sign session', async () => {
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, evmWallet().address)
    const again = await connect(session.sessionId, evmWallet().address)
    expect([again.status, codeOf(again)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    const result = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
    expect(result.signed).toBe(false)
    expect(result.status).toBe('connected')
  })

  it('a repeated identical connect callback is answered 204 (wallet retry)', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    expect((await connect(session.sessionId, wallet.address)).status).toBe(204)
    expect((await connect(session.sessionId, wallet.address)).status).toBe(204)
  })

  it('wrong signer, tampered envelope, bad bytes: 422 SIGNATURE_INVALID and nothing changes', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, wallet.address)
    const timestamp = clock
    const attempts = [
      // Another key signed the right envelope.
      await evmWallet().signEnvelope(session.sessionId, session.nonce, timestamp, wallet.address),
      // The right key signed an envelope with another nonce.
      await wallet.signEnvelope(session.sessionId, 'another-nonce-value', timestamp),
      // The right key signed another timestamp than the one sent.
      await wallet.signEnvelope(session.sessionId, session.nonce, timestamp + 1),
      `0x${'11'.repeat(65)}`,
    ]
    for (const signature of attempts) {
      const answer = await post('/callback/sign', {
        sessionId: session.sessionId,
        signature,
        timestamp,
      })
      expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
    }
    const record = await store.getSession(session.sessionId)
    expect(record).toMatchObject({ status: 'connected', nonceUsed: false, signature: null })
    const good = await wallet.signEnvelope(session.sessionId, session.nonce, timestamp)
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature: good,
      timestamp,
    })
    expect(answer.status).toBe(204)
  })

  it('the timestamp must be within ±5 minutes of server time, boundary included', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, wallet.address)
    const sign = async (timestamp: number) =>
      post('/callback/sign', {
        sessionId: session.sessionId,
        timestamp,
        signature: await wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
      })
    for (const stale of [clock - 300_001, clock + 300_001]) {
      const answer = await sign(stale)
      expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
      expect((answer.body as { error: { message: string } }).error.message).toContain('5 minutes')
    }
    expect((await sign(clock - 300_000)).status).toBe(204)
  })

  it('sign before connect is 409 SESSION_STATE_CONFLICT', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    const signature = await wallet.signEnvelope(session.sessionId, session.nonce, clock)
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature,
      timestamp: clock,
    })
    expect([answer.status, codeOf(answer)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
  })

  it('racing connect callbacks with two addresses: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const session = await createTestSession(server.baseUrl)
      const a = evmWallet()
      const b = evmWallet()
      const answers = await Promise.all([
        connect(session.sessionId, a.address),
        connect(session.sessionId, b.address),
      ])
      expect(answers.map((x) => x.status).sort()).toEqual([204, 409])
      const winner = answers[0]?.status === 204 ? a.address : b.address
      expect((await store.getSession(session.sessionId))?.walletAddress).toBe(winner)
    }
  })

  it('racing sign callbacks: the same body twice is 204 twice, two signatures one 204 and one 409', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, wallet.address)
    const signature = await wallet.signEnvelope(session.sessionId, session.nonce, clock)
    const body = { sessionId: session.sessionId, signature, timestamp: clock }
    const same = await Promise.all([post('/callback/sign', body), post('/callback/sign', body)])
    expect(same.map((x) => x.status)).toEqual([204, 204])

    const racing = await createTestSession(server.baseUrl)
    await connect(racing.sessionId, wallet.address)
    const bodies = await Promise.all(
      [clock, clock + 1].map(async (timestamp) => ({
        sessionId: racing.sessionId,
        signature: await wallet.signEnvelope(racing.sessionId, racing.nonce, timestamp),
        timestamp,
      })),
    )
    const answers = await Promise.all(bodies.map((b) => post('/callback/sign', b)))
    expect(answers.map((x) => x.status).sort()).toEqual([204, 409])
  })

  it('connect callback checks: wallet enabled, same chain, same wallet, valid address', async () => {
    const session = await createTestSession(server.baseUrl, {
      caip2Chain: 'eip155:1',
      walletSlug: 'metamask',
    })
    const address = evmWallet().address
    const cases: Array<[object, number, string]> = [
      [{ walletSlug: 'okx' }, 403, 'WALLET_NOT_ENABLED'],
      [{ walletSlug: 'rainbow' }, 422, 'VALIDATION_FAILED'],
      [{ caip2Chain: 'eip155:31337' }, 422, 'VALIDATION_FAILED'],
      [{ walletAddress: `0x${'z'.repeat(40)}` }, 422, 'VALIDATION_FAILED'],
    ]
    for (const [extra, status, code] of cases) {
      const answer = await connect(session.sessionId, address, extra)
      expect([answer.status, codeOf(answer)], JSON.stringify(extra)).toEqual([status, code])
    }
    const unknown = await connect('B'.repeat(22), address)
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'SESSION_NOT_FOUND'])
  })
})

describe('POST /sessions/:id/verify (dApp-driven)', () => {
  const verify = (id: string, token: string, body: object, headers: object = {}) =>
    call(server.baseUrl, `/sessions/${id}/verify`, {
      body,
      headers: { ...bearer(token), ...headers },
    })

  it('a pending session becomes connected and signed in one step', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    const signature = await wallet.signEnvelope(session.sessionId, session.nonce, clock)
    const answer = await verify(session.sessionId, session.sessionToken, {
      walletAddress: wallet.address,
      signature,
      timestamp: clock,
    })
    expect(answer.status).toBe(200)
    expect(SessionResultSchema.parse(answer.body)).toMatchObject({
      status: 'signed',
      connected: true,
      signed: true,
      walletAddress: wallet.address,
      signature,
    })
    // The same request again (a retry after a lost answer): the same 200 and result.
    const again = await verify(session.sessionId, session.sessionToken, {
      walletAddress: wallet.address,
      signature,
      timestamp: clock,
    })
    expect([again.status, again.body]).toEqual([200, answer.body])
    const another = await verify(session.sessionId, session.sessionToken, {
      walletAddress: wallet.address,
      signature: await wallet.signEnvelope(session.sessionId, session.nonce, clock + 1),
      timestamp: clock + 1,
    })
    expect([another.status, codeOf(another)]).toEqual([409, 'NONCE_USED'])
  })

  it('refuses a wrong signer (422) and another address than the connected one (409)', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    const forged = await evmWallet().signEnvelope(
      session.sessionId,
      session.nonce,
      clock,
      wallet.address,
    )
    const bad = await verify(session.sessionId, session.sessionToken, {
      walletAddress: wallet.address,
      signature: forged,
      timestamp: clock,
    })
    expect([bad.status, codeOf(bad)]).toEqual([422, 'SIGNATURE_INVALID'])
    await connect(session.sessionId, wallet.address)
    const intruder = evmWallet()
    const other = await verify(session.sessionId, session.sessionToken, {
      walletAddress: intruder.address,
      signature: await intruder.signEnvelope(session.sessionId, session.nonce, clock),
      timestamp: clock,
    })
    expect([other.status, codeOf(other)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    // The connected address may be sent in another letter case (EIP-55 vs lower case).
    const lower = wallet.address.toLowerCase()
    const ok = await verify(session.sessionId, session.sessionToken, {
      walletAddress: lower,
      signature: await wallet.signEnvelope(
        session.sessionId,
        session.nonce,
        clock,
        lower as `0x${string}`,
      ),
      timestamp: clock,
    })
    expect(ok.status).toBe(200)
  })

  it('needs the bearer token: X-App-Key alone is 404, as for an unknown session', async () => {
    const session = await createTestSession(server.baseUrl)
    const wallet = evmWallet()
    const body = {
      walletAddress: wallet.address,
      signature: await wallet.signEnvelope(session.sessionId, session.nonce, clock),
      timestamp: clock,
    }
    const answer = await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
      body,
      headers: { 'x-app-key': server.appKey },
    })
    expect([answer.status, codeOf(answer)]).toEqual([404, 'SESSION_NOT_FOUND'])
    const withBoth = await verify(session.sessionId, session.sessionToken, body, {
      'x-app-key': OTHER_APP_KEY,
    })
    expect(withBoth.status).toBe(200)
  })
})

describe('transaction and reject callbacks', () => {
  it('records txSignature once on a connected transaction session', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl, {
      caip2Chain: 'eip155:1',
      intent: 'transaction',
    })
    const tx = { sessionId: session.sessionId, txSignature: `0x${'ab'.repeat(32)}` }
    const early = await post('/callback/transaction', tx)
    expect([early.status, codeOf(early)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    await connect(session.sessionId, wallet.address)
    expect((await post('/callback/transaction', tx)).status).toBe(204)
    expect((await post('/callback/transaction', tx)).status).toBe(204)
    const other = await post('/callback/transaction', {
      ...tx,
      txSignature: `0x${'cd'.repeat(32)}`,
    })
    expect([other.status, codeOf(other)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
    const result = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
    expect(result).toMatchObject({ status: 'connected', txSignature: tx.txSignature })
  })

  it('refuses a transaction on a session created for signing', async () => {
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, evmWallet().address)
    const answer = await post('/callback/transaction', {
      sessionId: session.sessionId,
      txSignature: `0x${'ab'.repeat(32)}`,
    })
    expect([answer.status, codeOf(answer)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
  })

  it('USER_REJECTED → rejected, another code → failed; terminal afterwards', async () => {
    const rejected = await createTestSession(server.baseUrl)
    await connect(rejected.sessionId, evmWallet().address)
    const answer = await post('/callback/reject', {
      sessionId: rejected.sessionId,
      errorCode: 'USER_REJECTED',
    })
    expect(answer.status).toBe(204)
    expect(
      SessionResultSchema.parse((await getResult(server.baseUrl, rejected)).body),
    ).toMatchObject({
      status: 'rejected',
      connected: false,
      signed: false,
      errorCode: 'USER_REJECTED',
    })
    const after = await connect(rejected.sessionId, evmWallet().address)
    expect([after.status, codeOf(after)]).toEqual([409, 'SESSION_STATE_CONFLICT'])

    const failed = await createTestSession(server.baseUrl)
    await post('/callback/reject', { sessionId: failed.sessionId, errorCode: 'WALLET_CRASHED' })
    expect(SessionResultSchema.parse((await getResult(server.baseUrl, failed)).body)).toMatchObject(
      {
        status: 'failed',
        errorCode: 'WALLET_CRASHED',
      },
    )
    const twice = await post('/callback/reject', { sessionId: failed.sessionId, errorCode: 'X' })
    expect([twice.status, codeOf(twice)]).toEqual([409, 'SESSION_STATE_CONFLICT'])
  })
})

describe('expiry on the server clock', () => {
  it('410 on callbacks and verify, status expired on the result, then 404 when gone', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, wallet.address)
    const start = clock
    try {
      clock = session.expiresAt
      const result = SessionResultResponseSchema.parse(
        (await getResult(server.baseUrl, session)).body,
      )
      expect(result).toMatchObject({ status: 'expired', connected: false, signed: false })
      const signature = await wallet.signEnvelope(session.sessionId, session.nonce, clock)
      const sign = await post('/callback/sign', {
        sessionId: session.sessionId,
        signature,
        timestamp: clock,
      })
      expect([sign.status, codeOf(sign)]).toEqual([410, 'SESSION_EXPIRED'])
      const verify = await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
        body: { walletAddress: wallet.address, signature, timestamp: clock },
        headers: bearer(session.sessionToken),
      })
      expect([verify.status, codeOf(verify)]).toEqual([410, 'SESSION_EXPIRED'])
      const reject = await post('/callback/reject', {
        sessionId: session.sessionId,
        errorCode: 'USER_REJECTED',
      })
      expect(reject.status).toBe(410)
      clock = session.expiresAt + 60 * 60_000
      const gone = await getResult(server.baseUrl, session)
      expect([gone.status, codeOf(gone)]).toEqual([404, 'SESSION_NOT_FOUND'])
    } finally {
      clock = start
    }
  })

  it('a signed session keeps reading as signed after its expiry', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    await connect(session.sessionId, wallet.address)
    const signature = await wallet.signEnvelope(session.sessionId, session.nonce, clock)
    await post('/callback/sign', { sessionId: session.sessionId, signature, timestamp: clock })
    const start = clock
    try {
      clock = session.expiresAt + 1
      const result = SessionResultSchema.parse((await getResult(server.baseUrl, session)).body)
      expect(result.status).toBe('signed')
    } finally {
      clock = start
    }
  })
})
