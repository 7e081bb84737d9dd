import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRegistry } from '../../src/chains'
import { DEFAULT_READ_BUDGET_MS } from '../../src/chains/defaults'
import { type BlackHole, startBlackHole } from '../chains/support/black-hole'
import { startEvmFixture, UNTOUCHED_DEV_ACCOUNT } from '../chains/support/evm-fixture'
import { call } from '../support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from '../support/server'

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>
let fx: Fixture
let server: TestServer
let hole: BlackHole
let hung: TestServer

const STUCK_CHAIN = 'eip155:1'

beforeAll(async () => {
  fx = await startEvmFixture()
  hole = await startBlackHole()
  // Every read at the head: a token deployed a moment ago is read at a block that holds it, not at
  // a number fetched before the deployment and reused (the reuse has its own tests).
  const networks = [{ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl, blockTimeMs: 0 }]
  server = await startTestServer({ projects: { projects: [{ ...TEST_PROJECT, networks }] } })
  // Default timeouts: what a deployment gets.
  const stuck = [{ chainId: STUCK_CHAIN, rpcUrl: hole.url }]
  hung = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks: stuck }] },
    chains: createChainRegistry(stuck),
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
  await hung?.close()
  await hole?.close()
  await fx?.anvil.stop()
})

const balance = (target: TestServer, query: Record<string, string>) =>
  call(target.baseUrl, `/balances?${new URLSearchParams(query)}`, {
    headers: { 'x-app-key': target.appKey },
  })

describe('client input is answered 4xx, never 5xx (finding 6)', () => {
  it('a tokenAddress that is not a contract: 422 VALIDATION_FAILED naming tokenAddress (was 502)', async () => {
    for (const decimals of [undefined, '6']) {
      const answer = await balance(server, {
        chainId: fx.chainId,
        tokenAddress: UNTOUCHED_DEV_ACCOUNT, // an account: no code
        account: UNTOUCHED_DEV_ACCOUNT,
        ...(decimals ? { decimals } : {}),
      })
      expect(answer.status).toBe(422)
      expect(answer.body).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: expect.stringMatching(/^tokenAddress is not a contract/),
          details: [{ field: 'tokenAddress', reason: expect.stringMatching(/^is not a contract/) }],
        },
      })
    }
  })

  it('a token without decimals(): 422 asking for decimals; with decimals in the query: 200', async () => {
    const token = await fx.deploy('BareToken', [])
    await fx.send(token, 'BareToken', 'mint', [UNTOUCHED_DEV_ACCOUNT, 1234n])
    const query = { chainId: fx.chainId, tokenAddress: token, account: UNTOUCHED_DEV_ACCOUNT }
    const refused = await balance(server, query)
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: [{ field: 'tokenAddress', reason: expect.stringMatching(/no decimals\(\)/) }],
      },
    })
    const given = await balance(server, { ...query, decimals: '4' })
    expect(given.status).toBe(200)
    expect(given.body).toMatchObject({ raw: '1234', decimals: 4 })
  })

  it('a contract that is not a token (no balanceOf): 422', async () => {
    const wallet = await fx.deploy('OwnedWallet', [UNTOUCHED_DEV_ACCOUNT])
    const answer = await balance(server, {
      chainId: fx.chainId,
      tokenAddress: wallet,
      account: UNTOUCHED_DEV_ACCOUNT,
      decimals: '18',
    })
    expect(answer.status).toBe(422)
    expect(answer.body).toMatchObject({
      error: {
        details: [{ field: 'tokenAddress', reason: expect.stringMatching(/not an ERC-20/) }],
      },
    })
  })
})

describe('upstream RPC timeouts (finding 6: a silent RPC held a balance request for 20 s)', () => {
  it('with the default timeouts a silent RPC answers 502 within the read budget, under the 10 s shutdown grace', async () => {
    expect(DEFAULT_READ_BUDGET_MS).toBeLessThan(10_000)
    const started = Date.now()
    const answer = await balance(hung, {
      chainId: STUCK_CHAIN,
      tokenAddress: 'native',
      account: UNTOUCHED_DEV_ACCOUNT,
    })
    const took = Date.now() - started
    expect(answer.status).toBe(502)
    expect(answer.body).toMatchObject({ error: { code: 'UPSTREAM_ERROR' } })
    expect(took).toBeLessThan(DEFAULT_READ_BUDGET_MS + 1_000)
  }, 15_000)
})
