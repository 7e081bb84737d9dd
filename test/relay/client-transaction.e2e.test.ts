import { describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import type { AppError } from '../../src/errors'
import { createMemoryTransactionStore } from '../../src/transaction'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { rpc } from '../support/evm-transactions'
import { DAPP_METADATA, WS, walletSimulator } from './support/pairing-setup'

// `Client.sendTransaction` over a paired relay session: the dApp's Client ↔ the real relay ↔ the
// wallet (`scope-connect/wallet`, a real key, broadcasting to anvil); the receipt through the
// backend. Neither the dApp nor its Client talks to the node.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: { blockPollMs: 100 },
})

async function paired(decide?: () => 'approve' | 'reject') {
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    WebSocket: WS,
    transactions: { store: createMemoryTransactionStore() },
  })
  const flow = await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
  const simulator = walletSimulator(backend.server, {
    evmRpcUrl: backend.anvil.rpcUrl,
    ...(decide ? { decide } : {}),
  })
  await simulator.pairAndApprove(flow.uri as string)
  await flow.approval
  return { client, simulator }
}

describe('Client.sendTransaction over a paired relay session', () => {
  it('the wallet answers eth_sendTransaction with the hash; wait() settles through the backend', async () => {
    const { client, simulator } = await paired()
    try {
      const handle = await client.sendTransaction({ to: RECIPIENT, value: 3n })
      expect(handle.hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(simulator.requests.at(-1)).toMatchObject({
        method: 'eth_sendTransaction',
        chainId: 'eip155:31337',
        params: [{ from: simulator.evm.address, to: RECIPIENT, value: '0x3' }],
      })
      await rpc(backend.anvil.rpcUrl, 'evm_mine')
      expect(await handle.wait()).toMatchObject({ status: 'confirmed', confirmations: 1 })
      const tx = (await rpc(backend.anvil.rpcUrl, 'eth_getTransactionByHash', [handle.hash])) as {
        from: string
      }
      expect(tx.from.toLowerCase()).toBe(simulator.evm.address.toLowerCase())
    } finally {
      await client.disconnect()
      simulator.close()
    }
  })

  it('error: the wallet rejects → USER_REJECTED, and the session stays usable', async () => {
    let answer: 'approve' | 'reject' = 'reject'
    const { client, simulator } = await paired(() => answer)
    try {
      const error = await client.sendTransaction({ to: RECIPIENT, value: 1n }).then(
        () => null,
        (e: AppError) => e,
      )
      expect(error?.code).toBe('USER_REJECTED')
      answer = 'approve'
      const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
      await rpc(backend.anvil.rpcUrl, 'evm_mine')
      expect((await handle.wait()).status).toBe('confirmed')
    } finally {
      await client.disconnect()
      simulator.close()
    }
  })
})
