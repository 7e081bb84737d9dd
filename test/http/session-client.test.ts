import { beforeAll, describe, expect, it } from 'vitest'
import { GenericWalletSessionClient } from '../../src/session/client'
import { expectAppError, expectThrownAppError } from './support/expect-error'
import { backendError, hang, json, refusedBaseUrl, text, useLoopback } from './support/loopback'

const SESSION_ID = 'sess_AAAAAAAAAAAAAAAAAAAAAA'
const TOKEN = 'tok_secret_SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS'
const SIGNATURE = `0x${'ab'.repeat(65)}`
const RESULT = {
  sessionId: SESSION_ID,
  status: 'pending',
  connected: false,
  signed: false,
  walletAddress: null,
  signature: null,
  txSignature: null,
  errorCode: null,
}

const server = useLoopback()
let client: GenericWalletSessionClient
beforeAll(() => {
  client = new GenericWalletSessionClient(`${server.baseUrl}/api/v1`, 'pk_session')
})

describe('GenericWalletSessionClient: construction', () => {
  it('normalises baseUrl and exposes it read-only', () => {
    expect(client.baseUrl).toBe(server.baseUrl)
    expect(new GenericWalletSessionClient('https://b.example.com/api/v1/', 'k').baseUrl).toBe(
      'https://b.example.com',
    )
  })

  it.each([
    ['http on a remote host', 'http://b.example.com', 'k'],
    ['an empty baseUrl', '', 'k'],
    ['an empty clientId', 'https://b.example.com', ''],
  ])('throws INVALID_CONFIG for %s', (_name, baseUrl, clientId) => {
    expectThrownAppError(() => new GenericWalletSessionClient(baseUrl, clientId), 'INVALID_CONFIG')
  })
})

describe('GenericWalletSessionClient: requests', () => {
  it('createSession POSTs caip2Chain, walletSlug and intent with X-App-Key', async () => {
    server.handle(
      json(201, {
        sessionId: SESSION_ID,
        nonce: 'n'.repeat(32),
        sessionToken: TOKEN,
        expiresAt: 1_900_000_000_000,
      }),
    )
    const session = await client.createSession('eip155:1', {
      walletSlug: 'metamask',
      intent: 'sign',
    })
    expect(session).toEqual({
      sessionId: SESSION_ID,
      nonce: 'n'.repeat(32),
      sessionToken: TOKEN,
      expiresAt: 1_900_000_000_000,
    })
    const [request] = server.requests
    expect(request?.method).toBe('POST')
    expect(request?.url.pathname).toBe('/api/v1/connect/sessions')
    expect(request?.headers['x-app-key']).toBe('pk_session')
    expect(request?.headers['content-type']).toContain('application/json')
    expect(JSON.parse(request?.body ?? '')).toEqual({
      caip2Chain: 'eip155:1',
      walletSlug: 'metamask',
      intent: 'sign',
    })
  })

  it('createSession sends only caip2Chain when no options are given', async () => {
    server.handle(
      json(201, {
        sessionId: SESSION_ID,
        nonce: 'n'.repeat(32),
        sessionToken: TOKEN,
        expiresAt: 1,
      }),
    )
    await client.createSession('eip155:31337')
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ caip2Chain: 'eip155:31337' })
  })

  it('getResult sends the Bearer token alone (no X-App-Key)', async () => {
    server.handle(json(200, { ...RESULT, expiresAt: 1_900_000_000_000 }))
    const result = await client.getResult(SESSION_ID, TOKEN)
    expect(result).toEqual({ ...RESULT, expiresAt: 1_900_000_000_000 })
    const [request] = server.requests
    expect(request?.method).toBe('GET')
    expect(request?.url.pathname).toBe(`/api/v1/connect/sessions/${SESSION_ID}/result`)
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(request?.headers['x-app-key']).toBeUndefined()
  })

  it('verify POSTs the signature with the Bearer token alone', async () => {
    server.handle(
      json(200, {
        ...RESULT,
        status: 'signed',
        connected: true,
        signed: true,
        signature: SIGNATURE,
      }),
    )
    const body = {
      walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      signature: SIGNATURE,
      timestamp: 1,
    }
    const result = await client.verify(SESSION_ID, TOKEN, body)
    expect(result.signed).toBe(true)
    const [request] = server.requests
    expect(request?.url.pathname).toBe(`/api/v1/connect/sessions/${SESSION_ID}/verify`)
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(request?.headers['x-app-key']).toBeUndefined()
    expect(JSON.parse(request?.body ?? '')).toEqual(body)
  })

  it.each([
    [
      'postConnect',
      '/callback/connect',
      {
        sessionId: SESSION_ID,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: '0xabc',
      },
    ],
    [
      'postSignMsg',
      '/callback/sign',
      { sessionId: SESSION_ID, signature: SIGNATURE, timestamp: 5 },
    ],
    [
      'postSignMsg',
      '/callback/sign',
      { sessionId: SESSION_ID, signature: SIGNATURE, timestamp: 5, publicKey: 'Pk' },
    ],
    ['postTransaction', '/callback/transaction', { sessionId: SESSION_ID, txSignature: '5sig' }],
    ['postReject', '/callback/reject', { sessionId: SESSION_ID, errorCode: 'USER_REJECTED' }],
  ] as const)('%s POSTs %s without credentials', async (method, path, body) => {
    server.handle((_req, res) => {
      res.statusCode = 204
      res.end()
    })
    await (client[method] as (b: unknown) => Promise<void>)(body)
    const [request] = server.requests
    expect(request?.url.pathname).toBe(`/api/v1/connect${path}`)
    expect(request?.headers.authorization).toBeUndefined()
    expect(request?.headers['x-app-key']).toBeUndefined()
    expect(JSON.parse(request?.body ?? '')).toEqual(body)
  })
})

describe('GenericWalletSessionClient: errors are BACKEND_ERROR', () => {
  it.each([
    [401, 'INVALID_SESSION_TOKEN'],
    [404, 'SESSION_NOT_FOUND'],
    [410, 'SESSION_EXPIRED'],
    [500, 'INTERNAL_ERROR'],
    [502, 'UPSTREAM_ERROR'],
  ])('%d %s', async (status, code) => {
    server.handle(backendError(status, code, 'failed'))
    const error = await expectAppError(client.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    expect(error).toMatchObject({ status, backendCode: code })
  })

  it('422 with details', async () => {
    const details = [{ field: 'caip2Chain', reason: 'has an invalid format' }]
    server.handle(backendError(422, 'VALIDATION_FAILED', 'invalid body', { details }))
    const error = await expectAppError(client.createSession('nope'), 'BACKEND_ERROR')
    expect(error.details).toEqual(details)
    expect(error.backendCode).toBe('VALIDATION_FAILED')
  })

  it('429 with Retry-After in seconds and as an HTTP-date', async () => {
    server.handle(
      backendError(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': '2' } }),
    )
    const a = await expectAppError(client.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    expect(a).toMatchObject({ status: 429, backendCode: 'RATE_LIMITED', retryAfterMs: 2000 })
    const date = new Date(Date.now() + 30_000).toUTCString()
    server.handle(
      backendError(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': date } }),
    )
    const b = await expectAppError(
      client.postConnect({
        sessionId: SESSION_ID,
        walletSlug: 'm',
        caip2Chain: 'eip155:1',
        walletAddress: '0x1',
      }),
      'BACKEND_ERROR',
    )
    expect(b.retryAfterMs).toBeGreaterThan(25_000)
  })

  it('invalid body and invalid JSON', async () => {
    server.handle(json(200, { ...RESULT, status: 'weird', expiresAt: 1 }))
    await expectAppError(client.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    server.handle(text(200, '<html>', 'text/html'))
    await expectAppError(client.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
  })

  it('connection refused and timeout', async () => {
    const refused = new GenericWalletSessionClient(await refusedBaseUrl(), 'k')
    await expectAppError(refused.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    server.handle(hang)
    const slow = new GenericWalletSessionClient(server.baseUrl, 'k', { timeoutMs: 150 })
    const error = await expectAppError(slow.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    expect(error.message).toContain('150 ms')
  })

  it('never puts the session token or the signature into error messages', async () => {
    // A hostile or buggy backend echoing secrets back.
    server.handle(
      backendError(401, 'INVALID_SESSION_TOKEN', `token ${TOKEN} / sig ${SIGNATURE} refused`),
    )
    const a = await expectAppError(client.getResult(SESSION_ID, TOKEN), 'BACKEND_ERROR')
    const b = await expectAppError(
      client.verify(SESSION_ID, TOKEN, {
        walletAddress: '0x1',
        signature: SIGNATURE,
        timestamp: 1,
      }),
      'BACKEND_ERROR',
    )
    for (const error of [a, b]) {
      expect(error.message).not.toContain(TOKEN)
      expect(error.message).not.toContain(SIGNATURE)
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(TOKEN)
    }
  })

  it('uses an injected fetchImpl', async () => {
    const seen: string[] = []
    const injected = new GenericWalletSessionClient('https://backend.example.com', 'k', {
      fetchImpl: async (input) => {
        seen.push(input instanceof Request ? input.url : String(input))
        return new Response(null, { status: 204 })
      },
    })
    await injected.postReject({ sessionId: SESSION_ID, errorCode: 'USER_REJECTED' })
    expect(seen).toEqual(['https://backend.example.com/api/v1/connect/callback/reject'])
  })
})
