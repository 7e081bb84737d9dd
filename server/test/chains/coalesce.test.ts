import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedAnvil } from '../../../test/support/shared-services'
import { createChainRegistry, createCoalescer } from '../../src/chains'
import { type SolanaRpcDouble, startSolanaRpcDouble } from '../support/solana-rpc-double'
import { DEV_ACCOUNT_BALANCE, UNTOUCHED_DEV_ACCOUNT } from './support/evm-fixture'
import { randomAddress } from './support/solana-keys'

describe('createCoalescer', () => {
  it('runs fn once for concurrent callers of one key and again after it settles', async () => {
    const coalesce = createCoalescer()
    let runs = 0
    const fn = async () => ++runs
    const results = await Promise.all(Array.from({ length: 20 }, () => coalesce('k', fn)))
    expect(results).toEqual(Array(20).fill(1))
    expect(await coalesce('k', fn)).toBe(2)
  })

  it('does not share between distinct keys', async () => {
    const coalesce = createCoalescer()
    let runs = 0
    const fn = async () => ++runs
    const [a, b] = await Promise.all([coalesce('a', fn), coalesce('b', fn)])
    expect(new Set([a, b])).toEqual(new Set([1, 2]))
  })

  it('shares a rejection with every waiter, then forgets it', async () => {
    const coalesce = createCoalescer()
    let runs = 0
    const failing = async () => {
      runs++
      throw new Error('boom')
    }
    const settled = await Promise.allSettled([coalesce('k', failing), coalesce('k', failing)])
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected'])
    expect(runs).toBe(1)
    await expect(coalesce('k', async () => 'ok')).resolves.toBe('ok')
  })

  it('turns a synchronous throw into a rejection and does not keep the key', async () => {
    const coalesce = createCoalescer()
    await expect(
      coalesce('k', () => {
        throw new Error('sync')
      }),
    ).rejects.toThrow('sync')
    await expect(coalesce('k', async () => 1)).resolves.toBe(1)
  })
})

describe('registry balance reads are coalesced (Solana JSON-RPC test double)', () => {
  const CHAIN = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
  let rpc: SolanaRpcDouble
  beforeAll(async () => {
    rpc = await startSolanaRpcDouble()
  })
  afterAll(() => rpc?.close())

  it('makes one getBalance call for 20 identical concurrent reads; distinct accounts do not share', async () => {
    const registry = createChainRegistry([{ chainId: CHAIN, rpcUrl: rpc.url }])
    const adapter = registry.get(CHAIN)!
    const [alice, bob] = [randomAddress(), randomAddress()]
    rpc.setBalance(alice, 5n)
    rpc.setBalance(bob, 6n)
    const read = (account: string) =>
      adapter.readBalance({ chainId: CHAIN, tokenAddress: 'native', account })

    const same = await Promise.all(Array.from({ length: 20 }, () => read(alice)))
    expect(same.map((r) => r.raw)).toEqual(Array(20).fill(5n))
    expect(rpc.calls.filter((call) => call.method === 'getBalance')).toHaveLength(1)

    rpc.calls.length = 0
    const [a, b] = await Promise.all([read(alice), read(bob)])
    expect([a.raw, b.raw]).toEqual([5n, 6n])
    expect(rpc.calls.filter((call) => call.method === 'getBalance')).toHaveLength(2)
  })
})

describe('registry balance reads are coalesced (real anvil, counting fetch)', () => {
  const anvil = sharedAnvil()

  it('sends one eth_getBalance for 20 identical reads, whatever the address casing', async () => {
    const methods: string[] = []
    const countingFetch: typeof fetch = async (input, init) => {
      methods.push((JSON.parse(String(init?.body)) as { method: string }).method)
      return fetch(input, init)
    }
    const chainId = `eip155:${anvil.chainId}`
    const registry = createChainRegistry([{ chainId, rpcUrl: anvil.rpcUrl }], {
      fetch: countingFetch,
    })
    const adapter = registry.get(chainId)!
    const accounts = [UNTOUCHED_DEV_ACCOUNT.toLowerCase(), getAddress(UNTOUCHED_DEV_ACCOUNT)]
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        adapter.readBalance({ chainId, tokenAddress: 'native', account: accounts[i % 2]! }),
      ),
    )
    expect(new Set(results.map((r) => r.raw))).toEqual(new Set([DEV_ACCOUNT_BALANCE]))
    expect(methods.filter((m) => m === 'eth_getBalance')).toHaveLength(1)
    expect(methods.filter((m) => m === 'eth_blockNumber')).toHaveLength(1)
  })
})
