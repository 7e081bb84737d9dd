import { BalanceResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedAnvil } from '../../test/support/shared-services'
import { createChainRegistry } from '../src/chains'
import { call, codeOf } from './support/http'
import { SOLANA_DEVNET, startTestServer, TEST_PROJECT, type TestServer } from './support/server'

/** anvil's tenth dev account: funded with 10 000 ETH and never used by these tests. */
const DEV_ACCOUNT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

const anvil = sharedAnvil()
let server: TestServer
let rpcCalls = 0
let upstreamDelayMs = 0

beforeAll(async () => {
  const networks = [
    { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:9' }, // nothing listens: upstream failure
    // blockTimeMs 0: the block number is asked on every read (the cache is tested elsewhere).
    { chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl, blockTimeMs: 0 },
    { chainId: SOLANA_DEVNET },
  ]
  const counting: typeof fetch = async (input, init) => {
    rpcCalls++
    if (upstreamDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, upstreamDelayMs))
    return fetch(input, init)
  }
  server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks, { timeoutMs: 3_000, fetch: counting }),
  })
})
afterAll(async () => {
  await server?.close()
})

const balances = (query: Record<string, string>, appKey = 'test-app-key') =>
  call(server.baseUrl, `/balances?${new URLSearchParams(query)}`, {
    headers: { 'x-app-key': appKey },
  })

describe('GET /balances', () => {
  it('reads the native balance from a real chain as decimal strings', async () => {
    const answer = await balances({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const body = BalanceResponseSchema.parse(answer.body)
    expect(body).toMatchObject({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
      raw: (10_000n * 10n ** 18n).toString(),
      decimals: 18,
    })
    expect(body.blockNumber).toMatch(/^\d+$/)
  })

  it('identical concurrent reads share one upstream call', async () => {
    const query = (decimals: string) => ({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
      decimals,
    })
    // The first read finds out that this anvil has no Multicall3; the second costs what a read costs.
    expect((await balances(query('16'))).status).toBe(200)
    let before = rpcCalls
    expect((await balances(query('17'))).status).toBe(200)
    const perRead = rpcCalls - before
    expect(perRead).toBe(2) // eth_blockNumber, eth_getBalance
    // A slow upstream keeps the first read in flight while the other four arrive. A query not
    // read before: the per-block cache does not answer it.
    upstreamDelayMs = 300
    before = rpcCalls
    const answers = await Promise.all(Array.from({ length: 5 }, () => balances(query('18'))))
    upstreamDelayMs = 0
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1)
    expect(rpcCalls - before).toBe(perRead)
  })

  it('422 UNSUPPORTED_CHAIN for an unknown chain, 403 CHAIN_NOT_ENABLED for a known one not enabled', async () => {
    const unknown = await balances({
      chainId: 'eip155:777777',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect([unknown.status, codeOf(unknown)]).toEqual([422, 'UNSUPPORTED_CHAIN'])
    const disabled = await balances({
      chainId: 'eip155:8453',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect([disabled.status, codeOf(disabled)]).toEqual([403, 'CHAIN_NOT_ENABLED'])
  })

  it('422 VALIDATION_FAILED with details for a bad query or an address the chain refuses', async () => {
    const missing = await balances({ chainId: 'eip155:31337' })
    expect([missing.status, codeOf(missing)]).toEqual([422, 'VALIDATION_FAILED'])
    expect(JSON.stringify(missing.body)).toContain('"field":"account"')
    const badDecimals = await balances({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
      decimals: '256',
    })
    expect(codeOf(badDecimals)).toBe('VALIDATION_FAILED')
    const notEvm = await balances({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account: 'So11111111111111111111111111111111111111112',
    })
    expect([notEvm.status, codeOf(notEvm)]).toEqual([422, 'VALIDATION_FAILED'])
    expect(
      (notEvm.body as { error: { details: Array<{ field: string }> } }).error.details[0]?.field,
    ).toBe('account')
  })

  it('502 UPSTREAM_ERROR when the chain RPC fails or none is configured', async () => {
    const down = await balances({
      chainId: 'eip155:1',
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect([down.status, codeOf(down)]).toEqual([502, 'UPSTREAM_ERROR'])
    const none = await balances({
      chainId: SOLANA_DEVNET,
      tokenAddress: 'native',
      account: 'So11111111111111111111111111111111111111112',
    })
    expect([none.status, codeOf(none)]).toEqual([502, 'UPSTREAM_ERROR'])
  })

  it('401 without a valid app key', async () => {
    const answer = await balances({ chainId: 'eip155:31337' }, 'unknown-app-key')
    expect([answer.status, codeOf(answer)]).toEqual([401, 'INVALID_APP_KEY'])
  })
})
