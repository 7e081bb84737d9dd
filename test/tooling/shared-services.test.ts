import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../support/anvil'
import { keyWallet, rpc } from '../support/evm-transactions'
import { chainUnchangedFrom, sharedRedis } from '../support/shared-services'

// The guard that keeps the run's shared anvil read-only (test/support/shared-services.ts), on an
// anvil of this file's own: the shared one must stay unmined.
describe('the shared anvil’s read-only check', () => {
  let anvil: RunningAnvil
  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(() => anvil?.stop())

  it('passes after reads and off-chain signatures', async () => {
    const stillUnchanged = await chainUnchangedFrom(anvil.rpcUrl)
    const wallet = keyWallet(anvil.rpcUrl)
    await rpc(anvil.rpcUrl, 'eth_getBalance', [wallet.account.address, 'latest'])
    await wallet.signMessage({ message: 'off-chain' })
    await expect(stillUnchanged()).resolves.toBeUndefined()
  })

  it('error: fails once a transaction has been mined, naming the blocks', async () => {
    const stillUnchanged = await chainUnchangedFrom(anvil.rpcUrl)
    const hash = await keyWallet(anvil.rpcUrl).sendTransaction({
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: parseEther('1'),
      chain: null,
    })
    // The hash comes back when the transaction is accepted; its block may be mined a moment later.
    await expect
      .poll(() => rpc(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash]), { timeout: 10_000 })
      .not.toBeNull()
    await expect(stillUnchanged()).rejects.toThrow(
      /read-only, but block 1 was mined after 0: a file that mines boots its own/,
    )
  })
})

it('the shared redis-server answers at the URL globalSetup hands out', async () => {
  const { Redis } = await import('ioredis')
  const client = new Redis(sharedRedis().url)
  try {
    expect(await client.ping()).toBe('PONG')
  } finally {
    client.disconnect()
  }
})
