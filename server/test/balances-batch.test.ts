import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createChainRegistry } from '../src/chains'
import { closedPortUrl } from './chains/support/black-hole'
import {
  DEV_ACCOUNT_BALANCE,
  startEvmFixture,
  UNTOUCHED_DEV_ACCOUNT,
} from './chains/support/evm-fixture'
import { randomAddress } from './chains/support/solana-keys'
import { call, codeOf } from './support/http'
import { SOLANA_DEVNET, startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>

const HOLDER = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
).address
/** The chain's configured block time: its block number is reused for a quarter of it, 1 s. */
const BLOCK_TIME_MS = 4_000

let fx: Fixture
let solana: SolanaRpcDouble
let server: TestServer
/** Every upstream JSON-RPC method the server sent, EVM and Solana, in order. */
const upstream: string[] = []
const tokens: Address[] = []
let bare: Address

const countingFetch: typeof fetch = async (input, init) => {
  upstream.push((JSON.parse(String(init?.body)) as { method: string }).method)
  return fetch(input, init)
}

beforeAll(async () => {
  // Date alone is faked, and runs at the wall clock's pace: the server's block clock (created below,
  // so it reads the fake Date) can be moved past its 1 s reuse between tests without waiting it out.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
  fx = await startEvmFixture()
  await fx.deployMulticall3()
  for (let i = 0; i < 3; i++) {
    const token = await fx.deploy('TestToken', [6 + i])
    await fx.send(token, 'TestToken', 'mint', [HOLDER, 1_000n * BigInt(i + 1)])
    tokens.push(token)
  }
  bare = await fx.deploy('BareToken', [])
  await fx.send(bare, 'BareToken', 'mint', [HOLDER, 77n])
  solana = await startSolanaRpcDouble({ slot: 555 })
  const networks = [
    { chainId: 'eip155:1', rpcUrl: await closedPortUrl() }, // nothing listens: upstream failure
    { chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl, blockTimeMs: BLOCK_TIME_MS },
    { chainId: SOLANA_DEVNET, rpcUrl: solana.url },
  ]
  server = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks,
          rateLimits: { appKey: { limit: 1_000, windowSeconds: 60 } },
        },
      ],
    },
    chains: createChainRegistry(networks, { fetch: countingFetch }),
  })
}, 60_000)
afterAll(async () => {
  vi.useRealTimers()
  await server?.close()
  await solana?.close()
  await fx?.anvil.stop()
})
beforeEach(async () => {
  // A new block per test, seen once the block number's 1 s has passed (on the faked Date): nothing
  // a test reads comes from an earlier test's cache.
  await fx.testClient.mine({ blocks: 1 })
  vi.setSystemTime(Date.now() + BLOCK_TIME_MS / 4 + 50)
  upstream.length = 0
})

const batch = (queries: unknown[], appKey = 'test-app-key') =>
  call(server.baseUrl, '/balances', {
    method: 'POST',
    headers: { 'x-app-key': appKey },
    body: { queries },
  })
const balancesOf = (answer: { body: unknown }) =>
  (answer.body as { balances: Array<Record<string, unknown>> }).balances

describe('POST /balances', () => {
  it('answers every query in order, each its balance or its own error, in one 200', async () => {
    const owner = randomAddress()
    solana.setBalance(owner, 1_500_000_000n)
    const queries = [
      { chainId: fx.chainId, tokenAddress: tokens[1]!, account: HOLDER },
      { chainId: fx.chainId, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
      { chainId: fx.chainId, tokenAddress: tokens[0]!, account: HOLDER, decimals: 2 },
      { chainId: fx.chainId, tokenAddress: 'native', account: 'not-an-address-at-all' },
      { chainId: 'eip155:8453', tokenAddress: 'native', account: HOLDER },
      { chainId: 'eip155:777777', tokenAddress: 'native', account: HOLDER },
      { chainId: 'eip155:1', tokenAddress: 'native', account: HOLDER },
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: owner },
      { chainId: fx.chainId, tokenAddress: bare, account: HOLDER },
      { chainId: fx.chainId, tokenAddress: bare, account: HOLDER, decimals: 0 },
      { chainId: fx.chainId, tokenAddress: UNTOUCHED_DEV_ACCOUNT, account: HOLDER },
      { chainId: fx.chainId, tokenAddress: 'native', account: HOLDER, decimals: 256 },
    ]
    const answer = await batch(queries)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const balances = balancesOf(answer)
    expect(balances).toHaveLength(queries.length)
    const block = (await fx.publicClient.getBlockNumber()).toString()
    const echo = (i: number) => ({
      chainId: queries[i]!.chainId,
      tokenAddress: queries[i]!.tokenAddress,
      account: queries[i]!.account,
    })
    expect(balances[0]).toEqual({ ...echo(0), raw: '2000', decimals: 7, blockNumber: block })
    expect(balances[1]).toEqual({
      ...echo(1),
      raw: DEV_ACCOUNT_BALANCE.toString(),
      decimals: 18,
      blockNumber: block,
    })
    expect(balances[2]).toEqual({ ...echo(2), raw: '1000', decimals: 2, blockNumber: block })
    const codes = balances.map((b) => (b.error as { code?: string } | undefined)?.code)
    expect(codes).toEqual([
      undefined,
      undefined,
      undefined,
      'VALIDATION_FAILED',
      'CHAIN_NOT_ENABLED',
      'UNSUPPORTED_CHAIN',
      'UPSTREAM_ERROR',
      undefined,
      'VALIDATION_FAILED',
      undefined,
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
    ])
    expect(balances[3]).toMatchObject({
      ...echo(3),
      error: { message: expect.stringMatching(/^account /) },
    })
    expect(balances[7]).toEqual({ ...echo(7), raw: '1500000000', decimals: 9, blockNumber: '555' })
    expect((balances[8]!.error as { message: string }).message).toMatch(/has no decimals\(\)/)
    expect(balances[9]).toMatchObject({ raw: '77', decimals: 0 })
    expect((balances[10]!.error as { message: string }).message).toMatch(/is not a contract/)
    expect((balances[11]!.error as { message: string }).message).toMatch(/^decimals /)
  })

  it('reads 50 ERC-20 balances of one account in 1 upstream call: one aggregate3 that names its block', async () => {
    const queries = Array.from({ length: 50 }, (_, i) => ({
      chainId: fx.chainId,
      tokenAddress: tokens[i % tokens.length]!,
      account: i < 25 ? HOLDER : randomEvmAddress(i),
    }))
    const answer = await batch(queries)
    expect(answer.status).toBe(200)
    const balances = balancesOf(answer)
    expect(balances.slice(0, 3).map((b) => b.raw)).toEqual(['1000', '2000', '3000'])
    expect(balances.slice(25).every((b) => b.raw === '0')).toBe(true)
    expect(upstream).toEqual(['eth_call'])
  })

  it('answers a repeated batch within the block from the per-block cache', async () => {
    const queries = tokens.map((token) => ({
      chainId: fx.chainId,
      tokenAddress: token,
      account: HOLDER,
    }))
    const first = await batch(queries)
    const second = await batch(queries)
    expect(second.body).toEqual(first.body)
    expect(upstream).toEqual(['eth_call'])
  })

  it('makes 10 sequential identical GET reads cost 1 upstream call, not 20', async () => {
    const query = new URLSearchParams({
      chainId: fx.chainId,
      tokenAddress: 'native',
      account: HOLDER,
    })
    for (let i = 0; i < 10; i++) {
      const answer = await call(server.baseUrl, `/balances?${query}`, {
        headers: { 'x-app-key': 'test-app-key' },
      })
      expect(answer.status).toBe(200)
    }
    expect(upstream).toEqual(['eth_call'])
  })

  it('reads Solana items with getMultipleAccounts and getTokenAccountsByOwner', async () => {
    const [alice, bob, usdc, bonk] = [
      randomAddress(),
      randomAddress(),
      randomAddress(),
      randomAddress(),
    ]
    solana.setMint(usdc, { decimals: 6 })
    solana.setMint(bonk, { decimals: 5 })
    solana.setBalance(alice, 42n)
    solana.setTokenAccounts(alice, [
      { pubkey: randomAddress(), mint: usdc, amount: 1_000n },
      { pubkey: randomAddress(), mint: usdc, amount: 234n },
    ])
    const notAMint = randomAddress()
    const answer = await batch([
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: alice },
      { chainId: SOLANA_DEVNET, tokenAddress: usdc, account: alice },
      { chainId: SOLANA_DEVNET, tokenAddress: bonk, account: alice },
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: bob },
      { chainId: SOLANA_DEVNET, tokenAddress: notAMint, account: alice },
    ])
    const balances = balancesOf(answer)
    expect(balances.map((b) => [b.raw, b.decimals])).toEqual([
      ['42', 9],
      ['1234', 6],
      ['0', 5],
      ['0', 9],
      [undefined, undefined],
    ])
    expect((balances[4]!.error as { code: string }).code).toBe('VALIDATION_FAILED')
    expect(upstream.sort()).toEqual([
      'getMultipleAccounts',
      'getTokenAccountsByOwner',
      'getTokenAccountsByOwner',
    ])
  })

  it('gives every query of a failing chain its UPSTREAM_ERROR, the others still answer', async () => {
    solana.setFailure({ code: -32005, message: 'Node is behind by 42 slots' })
    try {
      const answer = await batch([
        { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: randomAddress() },
        { chainId: fx.chainId, tokenAddress: 'native', account: HOLDER },
        { chainId: SOLANA_DEVNET, tokenAddress: randomAddress(), account: randomAddress() },
      ])
      const balances = balancesOf(answer)
      expect(balances.map((b) => (b.error as { code?: string } | undefined)?.code)).toEqual([
        'UPSTREAM_ERROR',
        undefined,
        'UPSTREAM_ERROR',
      ])
    } finally {
      solana.setFailure(undefined)
    }
    const after = await batch([
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: randomAddress() },
    ])
    expect(balancesOf(after)[0]).toMatchObject({ raw: '0' })
  })

  it.each([
    ['no queries', { queries: [] }],
    [
      '101 queries',
      {
        queries: Array.from({ length: 101 }, () => ({
          chainId: 'eip155:1',
          tokenAddress: 'native',
          account: HOLDER,
        })),
      },
    ],
    ['queries not a list', { queries: 'all of them' }],
    ['a query without an account', { queries: [{ chainId: 'eip155:1', tokenAddress: 'native' }] }],
    ['a query that is not an object', { queries: [42] }],
  ])('422 VALIDATION_FAILED for %s', async (_, body) => {
    const answer = await call(server.baseUrl, '/balances', {
      method: 'POST',
      headers: { 'x-app-key': 'test-app-key' },
      body,
    })
    expect([answer.status, codeOf(answer)]).toEqual([422, 'VALIDATION_FAILED'])
    expect(upstream).toEqual([])
  })

  it('400 BAD_REQUEST for malformed JSON, 401 without an app key', async () => {
    const garbled = await call(server.baseUrl, '/balances', {
      method: 'POST',
      headers: { 'x-app-key': 'test-app-key', 'content-type': 'application/json' },
      body: '{"queries": [',
    })
    expect([garbled.status, codeOf(garbled)]).toEqual([400, 'BAD_REQUEST'])
    const anonymous = await call(server.baseUrl, '/balances', {
      method: 'POST',
      body: { queries: [] },
    })
    expect([anonymous.status, codeOf(anonymous)]).toEqual([401, 'MISSING_APP_KEY'])
  })
})

function randomEvmAddress(seed: number): Address {
  return `0x${(seed + 1).toString(16).padStart(40, '0')}` as Address
}
