import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createChainRegistry } from '../src/chains'
import { startEvmFixture } from './chains/support/evm-fixture'
import { randomAddress } from './chains/support/solana-keys'
import { type CountingProxy, startCountingProxy } from './support/counting-proxy'
import { type Answer, call, codeOf } from './support/http'
import { SOLANA_DEVNET, startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'

/**
 * Issue 28, item 2: a balances batch (and a single GET /balances) is charged by its upstream work, the work is bounded per
 * chain (a pool of 8 connections, a cap on an answer's size, explicit gas on every eth_call).
 * Every upstream call is counted at a proxy in front of the real node (anvil; the Solana double).
 */
type Fixture = Awaited<ReturnType<typeof startEvmFixture>>

const HOLDER = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
).address
const BLOCK_TIME_MS = 4_000
/** The same anvil, configured as a chain without Multicall3: every read its own eth_call. */
const PLAIN_CHAIN = 'eip155:10'
const LIMIT = 1_000
const MAX_RESPONSE_BYTES = 256 * 1024

let fx: Fixture
let solana: SolanaRpcDouble
let evmProxy: CountingProxy
let solanaProxy: CountingProxy
let server: TestServer
const tokens: Address[] = []
let burner: Address

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
  burner = await fx.deploy('GasBurner', [])
  solana = await startSolanaRpcDouble({ slot: 777 })
  evmProxy = await startCountingProxy(fx.anvil.rpcUrl)
  solanaProxy = await startCountingProxy(solana.url)
  const networks = [
    { chainId: fx.chainId, rpcUrl: evmProxy.url, blockTimeMs: BLOCK_TIME_MS },
    { chainId: PLAIN_CHAIN, rpcUrl: evmProxy.url, blockTimeMs: BLOCK_TIME_MS, multicall3: null },
    { chainId: SOLANA_DEVNET, rpcUrl: solanaProxy.url },
  ]
  server = await startTestServer({
    projects: {
      projects: [
        { ...TEST_PROJECT, networks, rateLimits: { appKey: { limit: LIMIT, windowSeconds: 60 } } },
      ],
    },
    // The pool test queues 200 reads behind 8 connections: beside another worker's npm or
    // Chromium that took past the 6 s default read budget, which this file does not test.
    chains: createChainRegistry(networks, {
      maxResponseBytes: MAX_RESPONSE_BYTES,
      readBudgetMs: 60_000,
    }),
  })
}, 90_000)
afterAll(async () => {
  vi.useRealTimers()
  await server?.close()
  await evmProxy?.close()
  await solanaProxy?.close()
  await solana?.close()
  await fx?.anvil.stop()
})
beforeEach(async () => {
  // A new block, seen once the block number's 1 s has passed (on the faked Date): every read is cold.
  await fx.testClient.mine({ blocks: 1 })
  vi.setSystemTime(Date.now() + BLOCK_TIME_MS / 4 + 50)
  evmProxy.reset()
  evmProxy.holdMs = 0
  solanaProxy.reset()
})

const post = (base: string, queries: unknown[], headers: Record<string, string> = {}) =>
  call(base, '/balances', {
    method: 'POST',
    headers: { 'x-app-key': 'test-app-key', ...headers },
    body: { queries },
  })
const remaining = (answer: Answer) => Number(/r=(\d+)/.exec(answer.headers.get('ratelimit')!)![1])
const balancesOf = (answer: Answer) =>
  (answer.body as { balances: Array<Record<string, unknown>> }).balances
const errorCode = (item: Record<string, unknown>) => (item.error as { code?: string })?.code

/** The charge of `queries`: the caller's remaining quota before and after the batch. */
async function charged(queries: unknown[]) {
  const before = remaining(
    await call(server.baseUrl, '/config', { headers: { 'x-app-key': 'test-app-key' } }),
  )
  const answer = await post(server.baseUrl, queries)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return { answer, charge: before - remaining(answer) }
}

const evmAddress = (seed: number) => `0x${(seed + 1).toString(16).padStart(40, '0')}` as Address

describe('behavior: a batch is charged its upstream calls', () => {
  it('with Multicall3: 50 token balances are 1 aggregate3, charged 1', async () => {
    const queries = Array.from({ length: 50 }, (_, i) => ({
      chainId: fx.chainId,
      tokenAddress: tokens[i % 3]!,
      account: evmAddress(i),
    }))
    const { charge } = await charged(queries)
    expect(evmProxy.methods).toEqual(['eth_call'])
    expect(charge).toBe(evmProxy.methods.length)
  })

  it('without Multicall3: a balance and a decimals() per token, and the block number (2n + 1)', async () => {
    const queries = Array.from({ length: 30 }, (_, i) => ({
      chainId: PLAIN_CHAIN,
      tokenAddress: tokens[i % 3]!,
      account: evmAddress(100 + i),
    }))
    const { answer, charge } = await charged(queries)
    expect(balancesOf(answer).every((b) => b.raw === '0')).toBe(true)
    // 30 balanceOf, 3 decimals(), 1 eth_blockNumber.
    expect(evmProxy.methods).toHaveLength(34)
    expect(charge).toBe(34)
  })

  it('Solana SPL: 2 getTokenAccountsByOwner per owner and 1 getMultipleAccounts, charged 2n + 1', async () => {
    const mint = randomAddress()
    solana.setMint(mint, { decimals: 6 })
    const owners = Array.from({ length: 20 }, () => randomAddress())
    const queries = [
      ...owners.map((account) => ({ chainId: SOLANA_DEVNET, tokenAddress: mint, account })),
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: owners[0]! },
      { chainId: SOLANA_DEVNET, tokenAddress: 'native', account: 'not-an-address' },
    ]
    const { charge } = await charged(queries)
    expect(solanaProxy.methods).toHaveLength(41)
    expect(charge).toBe(41)
  })

  it("error: a batch over the caller's remaining budget is refused 429 before any upstream call; the next fitting one works", async () => {
    const limited = await startTestServer({
      projects: {
        projects: [
          {
            ...TEST_PROJECT,
            networks: [{ chainId: PLAIN_CHAIN, rpcUrl: evmProxy.url, multicall3: null }],
            rateLimits: { appKey: { limit: 40, windowSeconds: 60 } },
          },
        ],
      },
      chains: createChainRegistry([
        { chainId: PLAIN_CHAIN, rpcUrl: evmProxy.url, multicall3: null },
      ]),
    })
    try {
      const queries = (n: number, from: number) =>
        Array.from({ length: n }, (_, i) => ({
          chainId: PLAIN_CHAIN,
          tokenAddress: tokens[0]!,
          account: evmAddress(from + i),
        }))
      const fits = await post(limited.baseUrl, queries(10, 300))
      expect(fits.status).toBe(200)
      // 10 balanceOf, 1 decimals(), 1 eth_blockNumber
      expect(evmProxy.methods).toHaveLength(12)
      expect(remaining(fits)).toBe(40 - 12)
      evmProxy.reset()
      // 30 balanceOf, 1 decimals() (and an eth_blockNumber once the number lapsed): over the 28 left.
      const refused = await post(limited.baseUrl, queries(30, 400))
      expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED'])
      expect(refused.headers.get('ratelimit-policy')).toMatch(/^"appkey"/)
      expect(evmProxy.methods).toEqual([])
    } finally {
      await limited.close()
    }
  })
})

const get = (base: string, query: Record<string, string>) =>
  call(base, `/balances?${new URLSearchParams(query)}`, {
    headers: { 'x-app-key': 'test-app-key' },
  })

/** The charge of one GET /balances: the caller's remaining quota before and after it. */
async function chargedGet(query: Record<string, string>) {
  const before = remaining(
    await call(server.baseUrl, '/config', { headers: { 'x-app-key': 'test-app-key' } }),
  )
  const answer = await get(server.baseUrl, query)
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return { answer, charge: before - remaining(answer) }
}

describe('behavior: a single GET /balances is charged its upstream calls', () => {
  it('Solana SPL without decimals, an owner holding none: 2 getTokenAccountsByOwner and the mint, charged 3', async () => {
    const mint = randomAddress()
    solana.setMint(mint, { decimals: 6 })
    const { answer, charge } = await chargedGet({
      chainId: SOLANA_DEVNET,
      tokenAddress: mint,
      account: randomAddress(),
    })
    expect(answer.body).toMatchObject({ raw: '0', decimals: 6 })
    expect([...solanaProxy.methods].sort()).toEqual([
      'getAccountInfo',
      'getTokenAccountsByOwner',
      'getTokenAccountsByOwner',
    ])
    expect(charge).toBe(solanaProxy.methods.length)
  })

  it('an ERC-20 without decimals and without Multicall3: balanceOf, decimals() and the block number, charged 3', async () => {
    const { answer, charge } = await chargedGet({
      chainId: PLAIN_CHAIN,
      tokenAddress: tokens[2]!,
      account: HOLDER,
    })
    expect(answer.body).toMatchObject({ raw: '3000', decimals: 8 })
    expect([...evmProxy.methods].sort()).toEqual(['eth_blockNumber', 'eth_call', 'eth_call'])
    expect(charge).toBe(3)
  })

  it("error: a read over the caller's remaining budget is refused 429 before any upstream call; a cached read costs 1; the next read works", async () => {
    const networks = [
      { chainId: PLAIN_CHAIN, rpcUrl: evmProxy.url, multicall3: null, blockTimeMs: 12_000 },
    ]
    const limited = await startTestServer({
      projects: {
        projects: [
          { ...TEST_PROJECT, networks, rateLimits: { appKey: { limit: 5, windowSeconds: 3 } } },
        ],
      },
      chains: createChainRegistry(networks),
    })
    try {
      const read = (chainId: string, token: Address) =>
        get(limited.baseUrl, { chainId, tokenAddress: token, account: HOLDER })
      // No block number in hand yet: eth_blockNumber, balanceOf, decimals().
      const first = await read(PLAIN_CHAIN, tokens[0]!)
      expect(first.status).toBe(200)
      expect(evmProxy.methods).toHaveLength(3)
      expect(remaining(first)).toBe(5 - 3)
      evmProxy.reset()
      // The same read at the block in hand (kept 3 s): answered from the cache, charged 1.
      const cached = await read(PLAIN_CHAIN, tokens[0]!)
      expect([cached.status, (cached.body as { raw?: string }).raw]).toEqual([200, '1000'])
      expect(evmProxy.methods).toEqual([])
      expect(remaining(cached)).toBe(1)
      // Another token without decimals: 2 or 3 calls, over the 1 left.
      const refused = await read(PLAIN_CHAIN, tokens[1]!)
      expect([refused.status, codeOf(refused)]).toEqual([429, 'RATE_LIMITED'])
      expect(refused.headers.get('ratelimit-policy')).toMatch(/^"appkey"/)
      expect(evmProxy.methods).toEqual([])
      // A refused read counts in the caller's window as any request does: the next read works
      // once the window is over (on the faked Date), and is charged its own calls.
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      vi.setSystemTime(Date.now() + retryAfter * 1_000 + 100)
      const next = await read(PLAIN_CHAIN, tokens[1]!)
      expect([next.status, (next.body as { raw?: string }).raw]).toEqual([200, '2000'])
      expect(evmProxy.methods.length).toBeGreaterThanOrEqual(2)
      expect(remaining(next)).toBe(5 - evmProxy.methods.length)
    } finally {
      await limited.close()
    }
  })
})

describe('behavior: upstream work is bounded per chain', () => {
  it('20 concurrent batches never hold more than 8 connections to the node', async () => {
    evmProxy.holdMs = 20
    const batches = Array.from({ length: 20 }, (_, b) =>
      post(
        server.baseUrl,
        Array.from({ length: 10 }, (_, i) => ({
          chainId: PLAIN_CHAIN,
          tokenAddress: 'native',
          account: evmAddress(1_000 + b * 10 + i),
        })),
      ),
    )
    const answers = await Promise.all(batches)
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
    expect(answers.flatMap((a) => balancesOf(a).filter((b) => b.raw !== '0'))).toEqual([])
    expect(evmProxy.maxInFlight).toBeGreaterThan(1)
    expect(evmProxy.maxInFlight).toBeLessThanOrEqual(8)
  })

  it('error: an answer past maxResponseBytes is 502 UPSTREAM_TOO_LARGE (batch item and GET); the next read works', async () => {
    const whale = randomAddress()
    const mint = randomAddress()
    solana.setMint(mint, { decimals: 6 })
    solana.setTokenAccounts(
      whale,
      Array.from({ length: 1_500 }, (_, i) => ({
        pubkey: randomAddress(),
        mint,
        amount: BigInt(i),
      })),
    )
    const answer = await post(server.baseUrl, [
      { chainId: SOLANA_DEVNET, tokenAddress: mint, account: whale },
      { chainId: fx.chainId, tokenAddress: 'native', account: evmAddress(7) },
    ])
    const [spl, native] = balancesOf(answer)
    expect(errorCode(spl!)).toBe('UPSTREAM_TOO_LARGE')
    expect(native!.raw).toBe('0')
    const single = await call(
      server.baseUrl,
      `/balances?${new URLSearchParams({ chainId: SOLANA_DEVNET, tokenAddress: mint, account: whale })}`,
      { headers: { 'x-app-key': 'test-app-key' } },
    )
    expect([single.status, codeOf(single)]).toEqual([502, 'UPSTREAM_TOO_LARGE'])
    const owner = randomAddress()
    solana.setTokenAccounts(owner, [{ pubkey: randomAddress(), mint, amount: 5n }])
    const next = await post(server.baseUrl, [
      { chainId: SOLANA_DEVNET, tokenAddress: mint, account: owner },
    ])
    expect(balancesOf(next)[0]).toMatchObject({ raw: '5', decimals: 6 })
  })

  it('error: a gas-burning balanceOf fails fast: 422 GAS_LIMIT_EXCEEDED (its own eth_call, or its aggregate3); the next read works', async () => {
    const started = performance.now()
    const plain = await post(server.baseUrl, [
      { chainId: PLAIN_CHAIN, tokenAddress: burner, account: HOLDER },
      { chainId: PLAIN_CHAIN, tokenAddress: tokens[1]!, account: HOLDER },
    ])
    expect(balancesOf(plain)[0]).toMatchObject({ error: { code: 'GAS_LIMIT_EXCEEDED' } })
    expect(balancesOf(plain)[1]).toMatchObject({ raw: '2000', decimals: 7 })
    const single = await call(
      server.baseUrl,
      `/balances?${new URLSearchParams({ chainId: PLAIN_CHAIN, tokenAddress: burner, account: HOLDER })}`,
      { headers: { 'x-app-key': 'test-app-key' } },
    )
    expect([single.status, codeOf(single)]).toEqual([422, 'GAS_LIMIT_EXCEEDED'])
    // Through Multicall3 the burner takes the aggregate3's gas (n × 100,000 + overhead) with it:
    // the chain's batch fails as a whole, fast, with the typed error.
    const batched = await post(server.baseUrl, [
      { chainId: fx.chainId, tokenAddress: burner, account: HOLDER },
      { chainId: fx.chainId, tokenAddress: tokens[0]!, account: HOLDER },
    ])
    expect(balancesOf(batched).map(errorCode)).toEqual(['GAS_LIMIT_EXCEEDED', 'GAS_LIMIT_EXCEEDED'])
    // Far from the seconds one read with no gas limit burns on the node (30M gas of a loop).
    expect(performance.now() - started).toBeLessThan(1_500)
    const next = await post(server.baseUrl, [
      { chainId: PLAIN_CHAIN, tokenAddress: tokens[2]!, account: HOLDER },
      { chainId: fx.chainId, tokenAddress: tokens[0]!, account: HOLDER },
    ])
    expect(balancesOf(next).map((b) => b.raw)).toEqual(['3000', '1000'])
  })
})
