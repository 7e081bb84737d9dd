import { describe, expect, it, vi } from 'vitest'
import { createBalanceReader } from '../../src/balance'
import { expectAppError, expectThrownAppError } from './support/expect-error'
import { backendError, hang, json, refusedBaseUrl, text, useLoopback } from './support/loopback'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const APP_KEY = 'pk_test_balance'

const server = useLoopback()

const reader = () => createBalanceReader({ baseUrl: `${server.baseUrl}/api/v1/`, appKey: APP_KEY })
const query = { chainId: 'eip155:1', tokenAddress: USDC, account: ACCOUNT, decimals: 6 }

describe('createBalanceReader: success', () => {
  it('GETs /api/v1/connect/balances with X-App-Key and the query, and returns bigints', async () => {
    server.handle(
      json(200, {
        chainId: 'eip155:1',
        tokenAddress: USDC,
        account: ACCOUNT,
        raw: '123456789012345678901234567890',
        decimals: 6,
        blockNumber: '20000000',
      }),
    )
    const balance = await reader().getBalance(query)
    expect(balance).toEqual({
      raw: 123456789012345678901234567890n,
      decimals: 6,
      chainId: 'eip155:1',
      blockNumber: 20000000n,
    })
    const [request] = server.requests
    expect(request?.method).toBe('GET')
    expect(request?.url.pathname).toBe('/api/v1/connect/balances')
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      chainId: 'eip155:1',
      tokenAddress: USDC,
      account: ACCOUNT,
      decimals: '6',
    })
    expect(request?.headers['x-app-key']).toBe(APP_KEY)
    expect(request?.headers.authorization).toBeUndefined()
  })

  it('omits decimals when not given and takes the backend value', async () => {
    server.handle(
      json(200, {
        chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        tokenAddress: 'native',
        account: 'x',
        raw: '0',
        decimals: 9,
      }),
    )
    const balance = await reader().getBalance({
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      tokenAddress: 'native',
      account: 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy',
    })
    expect(balance).toEqual({
      raw: 0n,
      decimals: 9,
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    })
    expect(server.requests[0]?.url.searchParams.has('decimals')).toBe(false)
  })

  it('uses an injected fetchImpl instead of the global fetch', async () => {
    const fetchImpl = vi.fn(async (input: Request | URL | string) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      expect(url.origin).toBe('https://backend.example.com')
      return new Response(
        JSON.stringify({
          chainId: 'eip155:1',
          tokenAddress: 'native',
          account: ACCOUNT,
          raw: '5',
          decimals: 18,
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      )
    })
    const global = vi.spyOn(globalThis, 'fetch')
    const r = createBalanceReader({
      baseUrl: 'https://backend.example.com',
      appKey: APP_KEY,
      fetchImpl,
    })
    const balance = await r.getBalance({
      chainId: 'eip155:1',
      tokenAddress: 'native',
      account: ACCOUNT,
    })
    expect(balance.raw).toBe(5n)
    expect(fetchImpl).toHaveBeenCalledTimes(1)
    expect(global).not.toHaveBeenCalled()
    global.mockRestore()
  })
})

describe('createBalanceReader: errors', () => {
  it('maps 422 UNSUPPORTED_CHAIN to UNSUPPORTED_CHAIN', async () => {
    server.handle(backendError(422, 'UNSUPPORTED_CHAIN', 'chain eip155:999 is not supported'))
    const error = await expectAppError(
      reader().getBalance({ ...query, chainId: 'eip155:999' }),
      'UNSUPPORTED_CHAIN',
    )
    expect(error.status).toBe(422)
    expect(error.backendCode).toBe('UNSUPPORTED_CHAIN')
  })

  it('maps 403 CHAIN_NOT_ENABLED to UNSUPPORTED_CHAIN, keeping the backend code', async () => {
    server.handle(backendError(403, 'CHAIN_NOT_ENABLED', 'chain not enabled for this project'))
    const error = await expectAppError(reader().getBalance(query), 'UNSUPPORTED_CHAIN')
    expect(error.status).toBe(403)
    expect(error.backendCode).toBe('CHAIN_NOT_ENABLED')
  })

  it('maps 422 VALIDATION_FAILED to RPC_ERROR with the field details', async () => {
    const details = [{ field: 'decimals', reason: 'must be at most 255' }]
    server.handle(backendError(422, 'VALIDATION_FAILED', 'invalid query', { details }))
    // (A query the reader itself refuses, decimals 999, never gets this far: INVALID_CONFIG.)
    const error = await expectAppError(reader().getBalance({ ...query, decimals: 18 }), 'RPC_ERROR')
    expect(error.details).toEqual(details)
    expect(error.message).toContain('- decimals: must be at most 255')
  })

  it.each([
    [401, 'INVALID_APP_KEY'],
    [404, 'NOT_FOUND'],
    [500, 'INTERNAL_ERROR'],
    [502, 'UPSTREAM_ERROR'],
    [503, 'STORE_UNAVAILABLE'],
  ])('maps %d %s to RPC_ERROR with status and backend code', async (status, code) => {
    server.handle(backendError(status, code, 'nope'))
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error.status).toBe(status)
    expect(error.backendCode).toBe(code)
    expect(error.retryAfterMs).toBeUndefined()
  })

  it('maps 429 to RPC_ERROR with retryAfterMs from delta-seconds', async () => {
    server.handle(
      backendError(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': '7' } }),
    )
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error).toMatchObject({ status: 429, backendCode: 'RATE_LIMITED', retryAfterMs: 7000 })
  })

  it('parses an HTTP-date Retry-After', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString()
    server.handle(
      backendError(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': at } }),
    )
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error.retryAfterMs).toBeGreaterThan(55_000)
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000)
  })

  it('maps a non-JSON error page to RPC_ERROR with the status only', async () => {
    server.handle(text(502, '<html>Bad gateway</html>', 'text/html'))
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error.status).toBe(502)
    expect(error.backendCode).toBeUndefined()
  })

  it('rejects an invalid body with RPC_ERROR and field reasons', async () => {
    server.handle(json(200, { chainId: 'eip155:1', raw: 'lots', decimals: 6 }))
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error.message).toContain('invalid body')
    expect(error.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['raw']))
  })

  it('rejects invalid JSON with RPC_ERROR', async () => {
    server.handle(text(200, '{"raw": ', 'application/json'))
    const error = await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(error.message).toContain('invalid JSON')
  })

  it('maps a refused connection to RPC_ERROR without a status', async () => {
    const r = createBalanceReader({ baseUrl: await refusedBaseUrl(), appKey: APP_KEY })
    const error = await expectAppError(r.getBalance(query), 'RPC_ERROR')
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('GET /balances failed')
  })

  it('maps a timeout to RPC_ERROR', async () => {
    server.handle(hang)
    const r = createBalanceReader({ baseUrl: server.baseUrl, appKey: APP_KEY, timeoutMs: 150 })
    const error = await expectAppError(r.getBalance(query), 'RPC_ERROR')
    expect(error.message).toContain('no answer within 150 ms')
  })

  it('does not retry by itself (retries belong to the machines)', async () => {
    server.handle(backendError(503, 'STORE_UNAVAILABLE', 'down'))
    await expectAppError(reader().getBalance(query), 'RPC_ERROR')
    expect(server.requests).toHaveLength(1)
  })
})

describe('createBalanceReader: INVALID_CONFIG', () => {
  it.each([
    ['missing baseUrl', { appKey: APP_KEY }],
    ['empty baseUrl', { baseUrl: '', appKey: APP_KEY }],
    ['missing appKey', { baseUrl: 'https://x.example.com' }],
    ['empty appKey', { baseUrl: 'https://x.example.com', appKey: ' ' }],
    ['plain http on a remote host', { baseUrl: 'http://x.example.com', appKey: APP_KEY }],
    [
      'a non-function fetchImpl',
      { baseUrl: 'https://x.example.com', appKey: APP_KEY, fetchImpl: 1 },
    ],
  ])('%s', (_name, options) => {
    expectThrownAppError(() => createBalanceReader(options as never), 'INVALID_CONFIG')
  })

  it('no fetch available at all', () => {
    vi.stubGlobal('fetch', undefined)
    try {
      expectThrownAppError(
        () => createBalanceReader({ baseUrl: 'https://x.example.com', appKey: APP_KEY }),
        'INVALID_CONFIG',
      )
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
