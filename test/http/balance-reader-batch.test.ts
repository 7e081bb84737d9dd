import { describe, expect, it } from 'vitest'
import { createBalanceReader, type TokenBalanceQuery } from '../../src/balance'
import { expectAppError } from './support/expect-error'
import {
  backendError,
  type Handler,
  json,
  refusedBaseUrl,
  text,
  useLoopback,
} from './support/loopback'

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const APP_KEY = 'pk_test_balances'

const server = useLoopback()

const reader = () => createBalanceReader({ baseUrl: server.baseUrl, appKey: APP_KEY })
const queries = (n: number): TokenBalanceQuery[] =>
  Array.from({ length: n }, (_, i) => ({
    chainId: 'eip155:1',
    tokenAddress: USDC,
    account: ACCOUNT,
    decimals: i % 7,
  }))

type WireQuery = { chainId: string; tokenAddress: string; account: string; decimals?: number }

/** A backend that answers each query with its `decimals` as the raw balance, at block 7. */
const echoing: Handler = (request, res) => {
  const body = JSON.parse(request.body) as { queries: WireQuery[] }
  const balances = body.queries.map((q) => ({
    chainId: q.chainId,
    tokenAddress: q.tokenAddress,
    account: q.account,
    raw: String(q.decimals ?? 0),
    decimals: q.decimals ?? 18,
    blockNumber: '7',
  }))
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ balances }))
}

describe('reader.getBalances', () => {
  it('POSTs the queries to /api/v1/connect/balances with X-App-Key and answers in order', async () => {
    server.handle(echoing)
    const results = await reader().getBalances(queries(3))
    expect(results).toEqual(
      [0, 1, 2].map((i) => ({
        status: 'success',
        query: queries(3)[i],
        balance: { raw: BigInt(i), decimals: i, chainId: 'eip155:1', blockNumber: 7n },
      })),
    )
    const [request] = server.requests
    expect([request?.method, request?.url.pathname]).toEqual(['POST', '/api/v1/connect/balances'])
    expect(request?.headers['x-app-key']).toBe(APP_KEY)
    expect(JSON.parse(request!.body)).toEqual({ queries: queries(3) })
  })

  it('sends one request per 100 queries and keeps the order across them', async () => {
    server.handle(echoing)
    const all = queries(250)
    const results = await reader().getBalances(all)
    expect(
      server.requests
        .map((r) => (JSON.parse(r.body) as { queries: unknown[] }).queries.length)
        .sort(),
    ).toEqual([100, 100, 50])
    expect(results.map((r) => (r.status === 'success' ? Number(r.balance.raw) : -1))).toEqual(
      all.map((q) => q.decimals),
    )
  })

  it('answers [] for no queries without a request', async () => {
    expect(await reader().getBalances([])).toEqual([])
    expect(server.requests).toHaveLength(0)
  })

  it('gives a query the backend could not answer its own typed AppError', async () => {
    server.handle(
      json(200, {
        balances: [
          { chainId: 'eip155:1', tokenAddress: USDC, account: ACCOUNT, raw: '5', decimals: 6 },
          {
            chainId: 'eip155:8453',
            tokenAddress: USDC,
            account: ACCOUNT,
            error: { code: 'CHAIN_NOT_ENABLED', message: 'chain eip155:8453 is not enabled' },
          },
          {
            chainId: 'eip155:1',
            tokenAddress: 'nope',
            account: ACCOUNT,
            error: {
              code: 'VALIDATION_FAILED',
              message: 'tokenAddress is not a valid EVM address',
            },
          },
          {
            chainId: 'eip155:1',
            tokenAddress: USDC,
            account: ACCOUNT,
            error: { code: 'UPSTREAM_ERROR', message: 'the chain RPC failed' },
          },
        ],
      }),
    )
    const asked = [
      { chainId: 'eip155:1', tokenAddress: USDC, account: ACCOUNT },
      { chainId: 'eip155:8453', tokenAddress: USDC, account: ACCOUNT },
      { chainId: 'eip155:1', tokenAddress: 'nope', account: ACCOUNT },
      { chainId: 'eip155:1', tokenAddress: USDC, account: ACCOUNT },
    ]
    const results = await reader().getBalances(asked)
    expect(results[0]).toMatchObject({ status: 'success', balance: { raw: 5n, decimals: 6 } })
    const failures = results.slice(1).map((r) => {
      if (r.status !== 'failure') throw new Error('expected a failure')
      return [r.error.code, r.error.backendCode, r.error.status, r.query]
    })
    expect(failures).toEqual([
      ['UNSUPPORTED_CHAIN', 'CHAIN_NOT_ENABLED', 403, asked[1]],
      ['RPC_ERROR', 'VALIDATION_FAILED', 422, asked[2]],
      ['RPC_ERROR', 'UPSTREAM_ERROR', 502, asked[3]],
    ])
    expect(results[2]?.status === 'failure' && results[2].error.message).toContain(
      'tokenAddress is not a valid EVM address',
    )
  })
})

describe('reader.getBalances: a request that fails as a whole, then the next call succeeds', () => {
  it.each<[string, Handler, number | undefined, RegExp]>([
    ['a 5xx', backendError(503, 'STORE_UNAVAILABLE', 'down'), 503, /POST \/balances/],
    [
      'a 429',
      backendError(429, 'RATE_LIMITED', 'slow', { headers: { 'retry-after': '3' } }),
      429,
      /POST \/balances/,
    ],
    [
      'a 422',
      backendError(422, 'VALIDATION_FAILED', 'bad', {
        details: [{ field: 'queries', reason: 'must be at most 100 long' }],
      }),
      422,
      /must be at most 100/,
    ],
    ['a garbage body', text(200, '{"balances": [', 'application/json'), 200, /invalid JSON/],
    ['a body of the wrong shape', json(200, { balances: [{ raw: 'lots' }] }), 200, /invalid body/],
    ['too few answers', json(200, { balances: [] }), 200, /0 balances for 2 queries/],
  ])('%s: RPC_ERROR', async (_, handler, status, message) => {
    server.handle(handler)
    const error = await expectAppError(reader().getBalances(queries(2)), 'RPC_ERROR')
    expect(error.status).toBe(status)
    expect(error.message).toMatch(message)
    if (status === 429) expect(error.retryAfterMs).toBe(3000)
    server.handle(echoing)
    expect(await reader().getBalances(queries(2))).toHaveLength(2)
  })

  it('a backend that is down: RPC_ERROR without a status', async () => {
    const down = createBalanceReader({ baseUrl: await refusedBaseUrl(), appKey: APP_KEY })
    const error = await expectAppError(down.getBalances(queries(1)), 'RPC_ERROR')
    expect(error.status).toBeUndefined()
    expect(error.message).toContain('POST /balances failed')
  })

  it('one failing chunk of several rejects the call', async () => {
    let seen = 0
    server.handle((request, res) => {
      if (++seen === 2) return backendError(502, 'UPSTREAM_ERROR', 'x')(request, res)
      echoing(request, res)
    })
    await expectAppError(reader().getBalances(queries(150)), 'RPC_ERROR')
    server.handle(echoing)
    expect(await reader().getBalances(queries(150))).toHaveLength(150)
  })
})

// Issue 30 item 7 re-expressed these checks without zod's own classes (z.union, z.int, the
// bounds, the lengths); each keeps its verdict and reason, end to end.
describe('reader: the checks of answers and queries, field by field', () => {
  const balance = {
    chainId: 'eip155:1',
    tokenAddress: USDC,
    account: ACCOUNT,
    raw: '5',
    decimals: 6,
  }

  it.each([
    [
      'an entry of neither shape',
      { raw: 'lots' },
      'balances.0',
      'matches none of the allowed shapes',
    ],
    [
      'decimals that are no integer',
      { ...balance, decimals: 6.5 },
      'balances.0',
      'matches none of the allowed shapes',
    ],
    [
      'decimals out of range (the balance alone is near)',
      { ...balance, decimals: 300 },
      'balances.0.decimals',
      'must be at most 255',
    ],
    [
      'a raw balance that is no decimal',
      { ...balance, raw: '0x5' },
      'balances.0.raw',
      'has an invalid format (expected /^(0|[1-9][0-9]{0,77})$/)',
    ],
  ])('error: %s in a batch answer: RPC_ERROR naming the field', async (_, entry, field, reason) => {
    server.handle(json(200, { balances: [entry, balance] }))
    const error = await expectAppError(reader().getBalances(queries(2)), 'RPC_ERROR')
    expect(error.shortMessage).toBe(
      'POST /balances failed: the backend answered with an invalid body.',
    )
    expect(error.status).toBe(200)
    expect(error.details).toEqual([{ field, reason }])
  })

  it('behavior: an entry with both shapes is read as the balance it is', async () => {
    server.handle(
      json(200, { balances: [{ ...balance, error: { code: 'RPC_ERROR', message: 'x' } }] }),
    )
    const [result] = await reader().getBalances(queries(1))
    expect(result?.status).toBe('success')
  })

  it.each([
    [6.5, 'must be int', 1],
    [-1, 'must be at least 0', 1],
    [2 ** 53, 'must be at most 9007199254740991', 2],
  ])('error: getBalance with decimals %s: INVALID_CONFIG "%s"', async (decimals, reason, count) => {
    const error = await expectAppError(
      reader().getBalance({ ...queries(1)[0]!, decimals }),
      'INVALID_CONFIG',
    )
    expect(error.shortMessage).toBe(`Invalid query.decimals: ${reason}.`)
    expect(error.details).toHaveLength(count)
    expect(server.requests).toHaveLength(0)
  })

  it('error: getBalances with a chain id over 64 characters: INVALID_CONFIG, no request', async () => {
    const long = { ...queries(1)[0]!, chainId: `eip155:${'1'.repeat(58)}` }
    const error = await expectAppError(reader().getBalances([long]), 'INVALID_CONFIG')
    expect(error.shortMessage).toBe('Invalid queries.0.chainId: must be at most 64 long.')
    expect(server.requests).toHaveLength(0)
  })

  it('error: an error body with empty details is no error body (the status alone describes it)', async () => {
    server.handle(json(502, { error: { code: 'UPSTREAM_ERROR', message: 'down', details: [] } }))
    const error = await expectAppError(reader().getBalances(queries(1)), 'RPC_ERROR')
    expect(error.backendCode).toBeUndefined()
    expect(error.details).toBeUndefined()
  })
})
