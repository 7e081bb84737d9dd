import type { Address } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createBlockClock } from '../../src/chains/block-clock'
import { createEvmAdapter } from '../../src/chains/evm'
import { MULTICALL3_ADDRESS } from '../../src/chains/multicall3'
import { DEV_ACCOUNT_BALANCE, startEvmFixture, UNTOUCHED_DEV_ACCOUNT } from './support/evm-fixture'
import { MULTICALL3_CREATION_CODE } from './support/multicall3-bytecode'

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>

/** Upstream calls as `method` or `eth_call→<to>`. */
const upstream: string[] = []
const countingFetch: typeof fetch = async (input, init) => {
  const { method, params } = JSON.parse(String(init?.body)) as {
    method: string
    params: [{ to?: string }]
  }
  upstream.push(method === 'eth_call' ? `eth_call→${params[0].to?.toLowerCase()}` : method)
  return fetch(input, init)
}

describe('EVM batches on a chain without Multicall3 (real anvil)', () => {
  let fx: Fixture
  let tokens: Address[]
  beforeAll(async () => {
    fx = await startEvmFixture()
    tokens = []
    for (const decimals of [6, 18]) {
      const token = await fx.deploy('TestToken', [decimals])
      await fx.send(token, 'TestToken', 'mint', [UNTOUCHED_DEV_ACCOUNT, 5n])
      tokens.push(token)
    }
  })
  afterAll(() => fx?.anvil.stop())
  beforeEach(() => {
    upstream.length = 0
  })

  const queries = () => [
    { chainId: fx.chainId, tokenAddress: tokens[0]!, account: UNTOUCHED_DEV_ACCOUNT },
    { chainId: fx.chainId, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
    { chainId: fx.chainId, tokenAddress: tokens[1]!, account: UNTOUCHED_DEV_ACCOUNT, decimals: 2 },
  ]
  const expected = [
    { raw: 5n, decimals: 6 },
    { raw: DEV_ACCOUNT_BALANCE, decimals: 18 },
    { raw: 5n, decimals: 2 },
  ]
  const results = (
    outcomes: Awaited<ReturnType<ReturnType<typeof createEvmAdapter>['readBalances']>>,
  ) =>
    outcomes.map((o) =>
      o.ok ? { raw: o.result.raw, decimals: o.result.decimals } : o.error.message,
    )

  it('finds no code at the Multicall3 address on the first batch and reads in parallel from then on', async () => {
    const adapter = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      fetch: countingFetch,
      blockTimeMs: 0,
    })
    expect(results(await adapter.readBalances(queries()))).toEqual(expected)
    const multicall = `eth_call→${MULTICALL3_ADDRESS.toLowerCase()}`
    expect(upstream.slice(0, 2)).toEqual([multicall, 'eth_blockNumber'])
    expect(upstream.slice(2).sort()).toEqual(
      ['eth_call', 'eth_call', 'eth_call', 'eth_getBalance']
        .map((m, i) =>
          m === 'eth_call' ? `eth_call→${[tokens[0], tokens[0], tokens[1]][i]!.toLowerCase()}` : m,
        )
        .sort(),
    )
    await fx.testClient.mine({ blocks: 1 })
    upstream.length = 0
    expect(results(await adapter.readBalances(queries()))).toEqual(expected)
    expect(upstream).not.toContain(multicall)
    expect(upstream).toHaveLength(5) // eth_blockNumber, then 4 reads
  })

  it('never asks Multicall3 when the network says it has none (multicall3: null)', async () => {
    const adapter = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      fetch: countingFetch,
      multicall3: null,
    })
    expect(results(await adapter.readBalances(queries()))).toEqual(expected)
    expect(upstream.filter((m) => m.includes(MULTICALL3_ADDRESS.toLowerCase()))).toEqual([])
  })

  it('uses Multicall3 at a configured address: one upstream call a batch, pinned to the block in hand after the first', async () => {
    const at = await fx.deployBytecode(MULTICALL3_CREATION_CODE)
    const adapter = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      fetch: countingFetch,
      multicall3: at,
    })
    expect(results(await adapter.readBalances(queries()))).toEqual(expected)
    expect(upstream).toEqual([`eth_call→${at.toLowerCase()}`])
    // The block number is now in hand (1 s, unmeasured): a second batch is one eth_call at it.
    upstream.length = 0
    const again = await adapter.readBalances([
      { chainId: fx.chainId, tokenAddress: 'native', account: tokens[0]! },
    ])
    expect(again[0]?.ok && again[0].result.blockNumber).toBe(await fx.publicClient.getBlockNumber())
    expect(upstream).toEqual([`eth_call→${at.toLowerCase()}`])
  })

  it('answers an aggregate3 result that is not (bool,bytes)[] with UpstreamError, then reads again', async () => {
    const at = await fx.deployBytecode(MULTICALL3_CREATION_CODE)
    let garbage = true
    const adapter = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      multicall3: at,
      blockTimeMs: 0,
      fetch: async (input, init) => {
        const { id } = JSON.parse(String(init?.body)) as { id: number }
        return garbage
          ? Response.json({ jsonrpc: '2.0', id, result: `0x${'f'.repeat(64)}` })
          : fetch(input, init)
      },
    })
    const failed = await adapter.readBalances(queries())
    expect(failed.map((o) => !o.ok && `${o.error.name}: ${o.error.message}`)).toEqual(
      queries().map(() => expect.stringMatching(/^UpstreamError: EVM RPC read failed: .*offset/)),
    )
    garbage = false
    expect(results(await adapter.readBalances(queries()))).toEqual(expected)
  })

  it.each([
    ['a 502', () => new Response('bad gateway', { status: 502 })],
    ['a garbage body', () => new Response('{"jsonrpc": "2.0", "res', { status: 200 })],
  ])(
    'answers %s with UpstreamError for every query, and reads again once the node is back',
    async (_, answer) => {
      let failing = true
      const adapter = createEvmAdapter({
        chainId: fx.chainId,
        rpcUrl: fx.anvil.rpcUrl,
        fetch: async (input, init) => (failing ? answer() : fetch(input, init)),
        blockTimeMs: 0,
        multicall3: null,
      })
      const failed = await adapter.readBalances(queries())
      expect(failed.map((o) => !o.ok && o.error.name)).toEqual([
        'UpstreamError',
        'UpstreamError',
        'UpstreamError',
      ])
      failing = false
      expect(results(await adapter.readBalances(queries()))).toEqual(expected)
    },
  )
})

describe('the block clock (the block-number cache rule)', () => {
  const clock = (blockTimeMs?: number) => {
    let now = 0
    let block = 100n
    let fetches = 0
    const c = createBlockClock({
      fetchLatest: async () => {
        fetches++
        return block
      },
      now: () => now,
      ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
    })
    return {
      c,
      advance: (ms: number, blocks = 0n) => {
        now += ms
        block += blocks
      },
      fetches: () => fetches,
    }
  }

  it('keeps a number for a quarter of the configured block time', async () => {
    const t = clock(12_000)
    expect(t.c.ttlMs()).toBe(3_000)
    await t.c.latest()
    t.advance(2_999, 1n)
    expect(await t.c.latest()).toBe(100n)
    t.advance(1)
    expect(await t.c.latest()).toBe(101n)
    expect(t.fetches()).toBe(2)
  })

  it('caps the time at 3 s, and never keeps a number with blockTimeMs 0', async () => {
    expect(clock(60_000).c.ttlMs()).toBe(3_000)
    const t = clock(0)
    await t.c.latest()
    await t.c.latest()
    expect(t.fetches()).toBe(2)
  })

  it('measures the block time when none is configured: 1 s until then', async () => {
    const t = clock()
    expect(t.c.ttlMs()).toBe(250)
    await t.c.latest()
    t.advance(4_000, 2n) // 2 s per block
    await t.c.latest()
    expect(t.c.ttlMs()).toBe(500)
  })

  it('shares one fetch among concurrent callers', async () => {
    const t = clock(0)
    await Promise.all([t.c.latest(), t.c.latest(), t.c.latest()])
    expect(t.fetches()).toBe(1)
  })
})
