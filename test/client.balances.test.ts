import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRegistry } from '../server/src/chains'
import { startEvmFixture } from '../server/test/chains/support/evm-fixture'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'
import { Client } from '../src/client'
import { isAppError } from '../src/errors'

const HOLDER = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
).address

let fx: Awaited<ReturnType<typeof startEvmFixture>>
let server: TestServer
const tokens: Address[] = []
/** Upstream JSON-RPC methods the server sent to anvil. */
const upstream: string[] = []
/** POST /balances requests the Client sent. */
let batches = 0
/** When set, the Client's next backend request fails this way (then it is cleared). */
let fault: 'down' | '500' | 'garbage' | undefined

const clientFetch: typeof fetch = async (input, init) => {
  const { method, url } = input instanceof Request ? input : new Request(input, init)
  if (method === 'POST' && url.endsWith('/balances')) batches++
  const failing = fault
  fault = undefined
  if (failing === 'down') throw new TypeError('fetch failed: connect ECONNREFUSED')
  if (failing === '500') return new Response('<h1>oops</h1>', { status: 500 })
  if (failing === 'garbage') {
    return new Response('{"balances": [{"raw"', { headers: { 'content-type': 'application/json' } })
  }
  return fetch(input, init)
}

beforeAll(async () => {
  fx = await startEvmFixture()
  await fx.deployMulticall3()
  for (const decimals of [6, 8, 18]) {
    const token = await fx.deploy('TestToken', [decimals])
    await fx.send(token, 'TestToken', 'mint', [HOLDER, 10n ** BigInt(decimals)])
    tokens.push(token)
  }
  const networks = [{ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl }]
  server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks, {
      fetch: async (input, init) => {
        upstream.push((JSON.parse(String(init?.body)) as { method: string }).method)
        return fetch(input, init)
      },
    }),
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
  await fx?.anvil.stop()
})

const client = () =>
  new Client({ baseUrl: server.baseUrl, appKey: server.appKey, fetchImpl: clientFetch })

describe('client.getBalances against the real server, anvil and Multicall3', () => {
  it('reads 150 queries in two requests and at most two upstream calls per request, in order', async () => {
    const queries = Array.from({ length: 150 }, (_, i) => ({
      chainId: fx.chainId,
      tokenAddress: i % 50 === 49 ? 'native' : tokens[i % 3]!,
      account: HOLDER,
    }))
    batches = 0
    upstream.length = 0
    const results = await client().getBalances(queries)
    expect(batches).toBe(2)
    expect(upstream.length).toBeLessThanOrEqual(4)
    expect(upstream.filter((m) => m === 'eth_call').length).toBeLessThanOrEqual(2)
    expect(results).toHaveLength(150)
    results.forEach((result, i) => {
      expect(result.status).toBe('success')
      if (result.status !== 'success') return
      expect(result.query).toBe(queries[i])
      if (queries[i]!.tokenAddress === 'native') expect(result.balance.decimals).toBe(18)
      else {
        const decimals = [6, 8, 18][i % 3]!
        expect(result.balance).toMatchObject({ raw: 10n ** BigInt(decimals), decimals })
      }
    })
  })

  it('gives a bad query its own typed error and answers the rest', async () => {
    const results = await client().getBalances([
      { chainId: fx.chainId, tokenAddress: tokens[0]!, account: HOLDER },
      { chainId: 'eip155:8453', tokenAddress: 'native', account: HOLDER },
      { chainId: fx.chainId, tokenAddress: 'native', account: '0x1234' },
    ])
    expect(results.map((r) => r.status)).toEqual(['success', 'failure', 'failure'])
    const [, disabled, malformed] = results
    expect(disabled?.status === 'failure' && disabled.error).toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      backendCode: 'CHAIN_NOT_ENABLED',
    })
    expect(malformed?.status === 'failure' && malformed.error).toMatchObject({
      code: 'RPC_ERROR',
      backendCode: 'VALIDATION_FAILED',
    })
  })

  it.each(['down', '500', 'garbage'] as const)(
    'a backend %s rejects with RPC_ERROR; the next call succeeds',
    async (kind) => {
      const reader = client()
      const query = [{ chainId: fx.chainId, tokenAddress: tokens[1]!, account: HOLDER }]
      fault = kind
      const error = await reader.getBalances(query).catch((e: unknown) => e)
      expect(isAppError(error, 'RPC_ERROR'), String(error)).toBe(true)
      const [after] = await reader.getBalances(query)
      expect(after).toMatchObject({ status: 'success', balance: { raw: 10n ** 8n, decimals: 8 } })
    },
  )
})
