import { SessionResultSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningRedis, startRedis } from '../../test/support/redis'
import { createRedisStore, type RedisStore } from '../src/store/redis'
import { call, codeOf } from './support/http'
import { OTHER_APP_KEY, startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, getResult, postCallback } from './support/sessions'
import { evmWallet } from './support/wallets'

let redis: RunningRedis
let store: RedisStore
let server: TestServer

beforeAll(async () => {
  redis = await startRedis()
  store = createRedisStore(redis.url, { connectTimeoutMs: 500, commandTimeoutMs: 500 })
  await store.ready()
  server = await startTestServer({ store })
})
afterAll(async () => {
  await server?.close()
  await store?.close()
  await redis?.stop()
})

const connect = (sessionId: string, walletAddress: string) =>
  postCallback(server.baseUrl, store, '/callback/connect', {
    sessionId,
    walletSlug: 'metamask',
    caip2Chain: 'eip155:1',
    walletAddress,
  })

describe('sessions on Redis', () => {
  it('a full flow, and racing connect callbacks: exactly one wins (Lua compare-and-set)', async () => {
    const wallet = evmWallet()
    const session = await createTestSession(server.baseUrl)
    const rival = evmWallet()
    const answers = await Promise.all([
      connect(session.sessionId, wallet.address),
      connect(session.sessionId, rival.address),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([204, 409])
    const winner = answers[0]?.status === 204 ? wallet : rival
    const timestamp = Date.now()
    const signed = await postCallback(server.baseUrl, store, '/callback/sign', {
      sessionId: session.sessionId,
      signature: await winner.signEnvelope(session.sessionId, session.nonce, timestamp),
      timestamp,
    })
    expect(signed.status).toBe(204)
    expect(
      SessionResultSchema.parse((await getResult(server.baseUrl, session)).body),
    ).toMatchObject({
      status: 'signed',
      walletAddress: winner.address,
    })
  })

  it('each poll is counted once, with its read; a wrong token or origin is not counted', async () => {
    const session = await createTestSession(server.baseUrl)
    const poll = (headers: Record<string, string>) =>
      call(server.baseUrl, `/sessions/${session.sessionId}/result`, { headers })
    const remaining = async (headers: Record<string, string>) => {
      const answer = await poll(headers)
      expect(answer.status).toBe(200)
      return answer.headers.get('ratelimit')?.match(/r=(\d+)/)?.[1]
    }
    const owner = bearer(session.sessionToken)
    expect(await remaining(owner)).toBe('119')
    expect(await remaining({ ...owner, origin: 'https://dapp.example' })).toBe('118')
    const wrongToken = await poll(bearer('z'.repeat(43)))
    expect([wrongToken.status, wrongToken.headers.get('ratelimit')]).toEqual([404, null])
    // The test project accepts any origin; other-project's origin list names only its own.
    const other = await createTestSession(
      server.baseUrl,
      { caip2Chain: 'eip155:8453' },
      OTHER_APP_KEY,
    )
    const foreign = await call(server.baseUrl, `/sessions/${other.sessionId}/result`, {
      headers: { ...bearer(other.sessionToken), origin: 'https://dapp.example' },
    })
    expect([foreign.status, codeOf(foreign)]).toEqual([403, 'ORIGIN_NOT_ALLOWED'])
    expect(await remaining(owner)).toBe('117')
    const allowed = await call(server.baseUrl, `/sessions/${other.sessionId}/result`, {
      headers: { ...bearer(other.sessionToken), origin: 'https://other.example' },
    })
    expect(allowed.headers.get('ratelimit')).toMatch(/^"session";r=119;t=\d+$/)
  })

  it('Redis down: readyz and session routes answer 503 STORE_UNAVAILABLE at once', async () => {
    const session = await createTestSession(server.baseUrl)
    await redis.stop()
    try {
      const ready = await call(server.baseUrl, '//readyz')
      expect([ready.status, codeOf(ready)]).toEqual([503, 'STORE_UNAVAILABLE'])
      const create = await call(server.baseUrl, '/sessions', {
        body: { caip2Chain: 'eip155:1' },
        headers: { 'x-app-key': server.appKey },
      })
      // The limiter fails open; the store itself cannot take the session.
      expect([create.status, codeOf(create)]).toEqual([503, 'STORE_UNAVAILABLE'])
      const result = await getResult(server.baseUrl, session)
      expect([result.status, codeOf(result)]).toEqual([503, 'STORE_UNAVAILABLE'])
      // Routes that need no store keep working.
      const config = await call(server.baseUrl, '/config', {
        headers: { 'x-app-key': server.appKey },
      })
      expect(config.status).toBe(200)
      expect((await call(server.baseUrl, '//healthz')).status).toBe(200)
    } finally {
      redis = await startRedis({ port: redis.port })
    }
  })
})
