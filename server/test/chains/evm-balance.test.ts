import { type Address, getAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../../../test/support/anvil'
import { ChainInputError, createEvmAdapter, UpstreamError } from '../../src/chains'
import { closedPortUrl } from './support/black-hole'
import {
  DEPLOYER_KEY,
  DEV_ACCOUNT_BALANCE,
  startEvmFixture,
  UNTOUCHED_DEV_ACCOUNT,
} from './support/evm-fixture'

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>

describe('EVM balances against a real anvil', () => {
  let fx: Fixture
  let adapter: ReturnType<typeof createEvmAdapter>
  const holder = privateKeyToAccount(
    '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  ).address

  beforeAll(async () => {
    fx = await startEvmFixture()
    // blockTimeMs 0: every read asks the block number, so a read right after a mint sees it.
    adapter = createEvmAdapter({ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl, blockTimeMs: 0 })
  })
  afterAll(() => fx?.anvil.stop())

  const read = (tokenAddress: string, account: string, decimals?: number) =>
    adapter.readBalance({ chainId: fx.chainId, tokenAddress, account, decimals })

  it('reads the native balance of a funded dev account with 18 decimals and the block', async () => {
    const result = await read('native', UNTOUCHED_DEV_ACCOUNT)
    expect(result.raw).toBe(DEV_ACCOUNT_BALANCE)
    expect(result.decimals).toBe(18)
    expect(result.blockNumber).toBe(await fx.publicClient.getBlockNumber())
  })

  it('reads back exactly a balance set with anvil_setBalance, for any address casing', async () => {
    const address: Address = '0x00000000000000000000000000000000c0ffee01'
    const value = 123_456_789_012_345_678_901_234_567n
    await fx.testClient.setBalance({ address, value })
    expect((await read('native', address)).raw).toBe(value)
    expect((await read('native', getAddress(address))).raw).toBe(value)
  })

  it('echoes caller-given decimals for native', async () => {
    expect((await read('native', UNTOUCHED_DEV_ACCOUNT, 9)).decimals).toBe(9)
  })

  it('reads an ERC-20 balance, asking decimals() only when the query has none', async () => {
    const token = await fx.deploy('TestToken', [18])
    const minted = await fx.send(token, 'TestToken', 'mint', [
      holder,
      1_234_500_000_000_000_000_000n,
    ])
    const result = await read(token, holder)
    expect(result).toEqual({
      raw: 1_234_500_000_000_000_000_000n,
      decimals: 18,
      blockNumber: minted.blockNumber,
    })
    const given = await read(token, holder, 2)
    expect(given.raw).toBe(1_234_500_000_000_000_000_000n)
    expect(given.decimals).toBe(2)
  })

  it('reads a 6-decimals token and 0 for an account that holds none', async () => {
    const usd = await fx.deploy('TestToken', [6])
    await fx.send(usd, 'TestToken', 'mint', [holder, 2_500_000n])
    expect(await read(usd, holder)).toMatchObject({ raw: 2_500_000n, decimals: 6 })
    expect(await read(usd, UNTOUCHED_DEV_ACCOUNT)).toMatchObject({ raw: 0n, decimals: 6 })
  })

  it('pins every read to one block: a later mint shows up only with a later blockNumber', async () => {
    const token = await fx.deploy('TestToken', [18])
    await fx.send(token, 'TestToken', 'mint', [holder, 1n])
    const before = await read(token, holder)
    const minted = await fx.send(token, 'TestToken', 'mint', [holder, 2n])
    const after = await read(token, holder)
    expect(before.raw).toBe(1n)
    expect(after).toMatchObject({ raw: 3n, blockNumber: minted.blockNumber })
    expect(after.blockNumber! > before.blockNumber!).toBe(true)
  })

  it('maps a token address without code to ChainInputError (client input), with or without decimals', async () => {
    const eoa = privateKeyToAccount(DEPLOYER_KEY).address
    await expect(read(eoa, holder)).rejects.toThrow(/^tokenAddress is not a contract/)
    await expect(read(eoa, holder, 6)).rejects.toBeInstanceOf(ChainInputError)
  })

  it.each([
    ['account not hex', 'native', 'vitalik.eth', undefined],
    ['account too short', 'native', '0x1234', undefined],
    [
      'account with a wrong checksum',
      'native',
      '0xA0ee7A142d267C1f36714E4a8F75612F20a79720',
      undefined,
    ],
    ['token not an address', 'usdc', UNTOUCHED_DEV_ACCOUNT, undefined],
    ['decimals out of range', 'native', UNTOUCHED_DEV_ACCOUNT, 256],
    ['decimals not an integer', 'native', UNTOUCHED_DEV_ACCOUNT, 1.5],
  ])('rejects %s with ChainInputError', async (_, token, account, decimals) => {
    await expect(read(token, account, decimals)).rejects.toBeInstanceOf(ChainInputError)
  })

  it('tells well-formed addresses apart, tolerating all-lowercase', () => {
    expect(adapter.isValidAddress(UNTOUCHED_DEV_ACCOUNT)).toBe(true)
    expect(adapter.isValidAddress(UNTOUCHED_DEV_ACCOUNT.toLowerCase())).toBe(true)
    expect(adapter.isValidAddress('0xA0ee7A142d267C1f36714E4a8F75612F20a79720')).toBe(false)
    expect(adapter.isValidAddress('0xa0ee7a142d267c1f36714e4a8f75612f20a797')).toBe(false)
    expect(adapter.isValidAddress('')).toBe(false)
  })
})

describe('EVM balances when the RPC is unavailable', () => {
  const request = {
    chainId: 'eip155:31337',
    tokenAddress: 'native',
    account: UNTOUCHED_DEV_ACCOUNT,
  }

  it('maps a stopped anvil to UpstreamError', async () => {
    const anvil = await startAnvil()
    const adapter = createEvmAdapter({
      chainId: 'eip155:31337',
      rpcUrl: anvil.rpcUrl,
      blockTimeMs: 0,
    })
    expect((await adapter.readBalance(request)).raw).toBe(DEV_ACCOUNT_BALANCE)
    await anvil.stop()
    await expect(adapter.readBalance(request)).rejects.toBeInstanceOf(UpstreamError)
  })

  it('maps a closed port to UpstreamError', async () => {
    const adapter = createEvmAdapter({ chainId: 'eip155:31337', rpcUrl: await closedPortUrl() })
    await expect(adapter.readBalance(request)).rejects.toBeInstanceOf(UpstreamError)
  })

  it('needs an rpcUrl for balances and says so', async () => {
    const adapter = createEvmAdapter({ chainId: 'eip155:1' })
    await expect(adapter.readBalance(request)).rejects.toThrow(UpstreamError)
    await expect(adapter.readBalance(request)).rejects.toThrow(/rpcUrl/)
  })

  it('still reports malformed input as ChainInputError when no rpcUrl is set', async () => {
    const adapter = createEvmAdapter({ chainId: 'eip155:1' })
    await expect(adapter.readBalance({ ...request, account: 'nope' })).rejects.toBeInstanceOf(
      ChainInputError,
    )
  })
})
