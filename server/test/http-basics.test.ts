import { ConfigResponseSchema, ErrorBodySchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../src/store/memory'
import { type Answer, call, codeOf } from './support/http'
import { OTHER_APP_KEY, startTestServer, type TestServer } from './support/server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const appKey = { 'x-app-key': 'test-app-key' }

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(ErrorBodySchema.safeParse(answer.body).success).toBe(true)
  expect(codeOf(answer)).toBe(code)
}

describe('health', () => {
  it('healthz and readyz answer 200 outside the prefix', async () => {
    expect((await call(server.baseUrl, '//healthz')).status).toBe(200)
    const ready = await call(server.baseUrl, '//readyz')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ready', store: 'memory', relay: 'none' })
  })

  it('readyz is 503 STORE_UNAVAILABLE when the store does not answer', async () => {
    const store = createMemoryStore()
    const down = await startTestServer({ store: { ...store, isReady: async () => false } })
    try {
      expectError(await call(down.baseUrl, '//readyz'), 503, 'STORE_UNAVAILABLE')
      expect((await call(down.baseUrl, '//healthz')).status).toBe(200)
    } finally {
      await down.close()
      await store.close()
    }
  })
})

describe('GET /config', () => {
  it("answers the project's networks and wallets, without the backend's rpcUrls", async () => {
    const answer = await call(server.baseUrl, '/config', { headers: appKey })
    expect(answer.status).toBe(200)
    const config = ConfigResponseSchema.parse(answer.body)
    expect(config.projectId).toBe('test-project')
    expect(config.networks.map((n) => n.networkId)).toEqual([
      'eip155:1',
      'eip155:31337',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    ])
    expect(config.networks[0]).toMatchObject({
      namespace: 'eip155',
      name: 'Ethereum',
      testnet: false,
    })
    expect(config.wallets.map((w) => w.walletId)).toContain('phantom')
    // Public RPC URLs for wallets (the registry's for a built-in chain), never the backend's
    // `rpcUrl` (server/test/custom-chains.test.ts checks one on a port of its own).
    expect(config.networks[0]?.rpcUrls).toEqual(['https://ethereum.reth.rs/rpc'])
    expect(JSON.stringify(answer.body)).not.toContain('"rpcUrl"')
    expect(answer.headers.get('ratelimit-policy')).toContain('"appkey"')
  })

  it('401 MISSING_APP_KEY without the header, INVALID_APP_KEY with an unknown one', async () => {
    expectError(await call(server.baseUrl, '/config'), 401, 'MISSING_APP_KEY')
    expectError(
      await call(server.baseUrl, '/config', { headers: { 'x-app-key': 'nope-nope-nope' } }),
      401,
      'INVALID_APP_KEY',
    )
  })
})

describe('origins and CORS', () => {
  it('a project without allowedOrigins accepts any origin and gets CORS headers', async () => {
    const answer = await call(server.baseUrl, '/config', {
      headers: { ...appKey, origin: 'https://dapp.example' },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://dapp.example')
    expect(answer.headers.get('access-control-expose-headers')).toContain('retry-after')
  })

  it('403 ORIGIN_NOT_ALLOWED when the origin is not in the project list', async () => {
    const other = { 'x-app-key': OTHER_APP_KEY }
    expectError(
      await call(server.baseUrl, '/config', {
        headers: { ...other, origin: 'https://evil.example' },
      }),
      403,
      'ORIGIN_NOT_ALLOWED',
    )
    const allowed = await call(server.baseUrl, '/config', {
      headers: { ...other, origin: 'https://other.example' },
    })
    expect(allowed.status).toBe(200)
    // No Origin header: not a browser, nothing to refuse.
    expect((await call(server.baseUrl, '/config', { headers: other })).status).toBe(200)
  })

  it('answers a preflight with the allowed methods and headers', async () => {
    const answer = await call(server.baseUrl, '/sessions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-app-key',
      },
    })
    expect(answer.status).toBe(204)
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://dapp.example')
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST')
    expect(answer.headers.get('access-control-allow-headers')).toContain('x-app-key')
    expectError(await call(server.baseUrl, '/nowhere', { method: 'OPTIONS' }), 404, 'NOT_FOUND')
  })
})

describe('error mapping', () => {
  it('404 NOT_FOUND for an unknown route, 405 METHOD_NOT_ALLOWED with Allow for a known path', async () => {
    expectError(await call(server.baseUrl, '/nope'), 404, 'NOT_FOUND')
    expectError(await call(server.baseUrl, '//'), 404, 'NOT_FOUND')
    const wrong = await call(server.baseUrl, '/config', { method: 'DELETE', headers: appKey })
    expectError(wrong, 405, 'METHOD_NOT_ALLOWED')
    expect(wrong.headers.get('allow')).toContain('GET')
    expectError(
      await call(server.baseUrl, '/sessions/abc/result', { method: 'PUT' }),
      405,
      'METHOD_NOT_ALLOWED',
    )
  })

  it('400 BAD_REQUEST for malformed or empty JSON', async () => {
    expectError(
      await call(server.baseUrl, '/sessions', { body: '{"caip2Chain":', headers: appKey }),
      400,
      'BAD_REQUEST',
    )
    expectError(
      await call(server.baseUrl, '/callback/connect', {
        body: '',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'BAD_REQUEST',
    )
    expectError(
      await call(server.baseUrl, '/callback/connect', { body: '{"__proto__":{"x":1}}' }),
      400,
      'BAD_REQUEST',
    )
  })

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    expectError(
      await call(server.baseUrl, '/sessions', {
        body: 'caip2Chain=eip155:1',
        headers: { ...appKey, 'content-type': 'text/plain' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    expectError(
      await call(server.baseUrl, '/callback/sign', {
        body: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
  })

  it('413 PAYLOAD_TOO_LARGE above 16 KiB', async () => {
    const body = JSON.stringify({ caip2Chain: 'eip155:1', pad: 'x'.repeat(17 * 1024) })
    expectError(
      await call(server.baseUrl, '/sessions', { body, headers: appKey }),
      413,
      'PAYLOAD_TOO_LARGE',
    )
  })

  it('422 VALIDATION_FAILED with one reason per field, details only then', async () => {
    const answer = await call(server.baseUrl, '/callback/connect', {
      body: { sessionId: 'short', walletSlug: 'Meta Mask', caip2Chain: 'eip155:1' },
    })
    expectError(answer, 422, 'VALIDATION_FAILED')
    const details = (answer.body as { error: { details: Array<{ field: string }> } }).error.details
    expect(details.map((d) => d.field).sort()).toEqual(['sessionId', 'walletAddress', 'walletSlug'])
    const unknownKey = await call(server.baseUrl, '/sessions', {
      body: { caip2Chain: 'eip155:1', extra: true },
      headers: appKey,
    })
    expectError(unknownKey, 422, 'VALIDATION_FAILED')
    // A 401 carries no details key at all.
    const unauthorized = await call(server.baseUrl, '/config')
    expect(Object.keys((unauthorized.body as { error: object }).error).sort()).toEqual([
      'code',
      'message',
    ])
  })

  it('422 on a malformed session id in the path', async () => {
    const answer = await call(server.baseUrl, '/sessions/bad/result', {
      headers: { authorization: 'Bearer x' },
    })
    expectError(answer, 422, 'VALIDATION_FAILED')
  })
})

describe('GET /openapi.json', () => {
  it('lists every route with the wire schemas as components', async () => {
    const answer = await call(server.baseUrl, '/openapi.json')
    expect(answer.status).toBe(200)
    const doc = answer.body as {
      openapi: string
      paths: Record<string, Record<string, unknown>>
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> }
    }
    expect(doc.openapi).toBe('3.1.0')
    const prefix = '/api/v1/connect'
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        `${prefix}/balances`,
        `${prefix}/config`,
        `${prefix}/sessions`,
        `${prefix}/sessions/{sessionId}/result`,
        `${prefix}/sessions/{sessionId}/verify`,
        `${prefix}/callback/connect`,
        `${prefix}/callback/sign`,
        `${prefix}/callback/transaction`,
        `${prefix}/transactions`,
        `${prefix}/callback/reject`,
        `${prefix}/relay/token`,
        `${prefix}/relay`,
        `${prefix}/sign-in/nonce`,
        `${prefix}/sign-in/verify`,
        `${prefix}/openapi.json`,
        '/healthz',
        '/readyz',
      ].sort(),
    )
    expect(Object.keys(doc.components.schemas.ErrorBody?.properties ?? {})).toEqual(['error'])
    expect(doc.components.schemas.SessionResultResponse?.properties).toHaveProperty('expiresAt')
    expect(Object.keys(doc.components.schemas.RelayTokenResponse?.properties ?? {})).toEqual([
      'token',
      'expiresAt',
    ])
    const balances = doc.paths[`${prefix}/balances`]?.get as { parameters: Array<{ name: string }> }
    expect(balances.parameters.map((p) => p.name)).toEqual([
      'chainId',
      'tokenAddress',
      'account',
      'decimals',
    ])
  })
})
