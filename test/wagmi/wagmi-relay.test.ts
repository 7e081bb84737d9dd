import {
  createConfig,
  createStorage,
  disconnect,
  getAccount,
  readContract,
  signMessage,
  waitForTransactionReceipt,
  writeContract,
} from '@wagmi/core'
import {
  type Address,
  type BaseError,
  defineChain,
  erc20Abi,
  http,
  recoverMessageAddress,
  UserRejectedRequestError,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { createMemoryTransactionStore } from '../../src/transaction'
import { scopeConnect } from '../../src/wagmi'
import { DAPP_METADATA, WS, walletSimulator } from '../relay/support/pairing-setup'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { ANVIL_KEY_0, ANVIL_KEY_1 } from '../support/evm-transactions'
import { deployTestToken } from './support/token'

// scope-connect inside wagmi over a path other than an injected wallet: a relay pairing (QR code /
// deep link) with the example wallet (`scope-connect/wallet`, anvil's second key, broadcasting to
// anvil) through the real backend's relay. wagmi sees the paired session and writes through it.

/** Anvil's third account (the wallet is its second). */
const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const backend = useBackendWithAnvil({ transactions: { blockPollMs: 100 } })
let token: Address

beforeAll(async () => {
  const holder = privateKeyToAccount(ANVIL_KEY_1).address
  token = (await deployTestToken(backend.anvil.rpcUrl, ANVIL_KEY_0, holder, 10n ** 24n)).address
}, 60_000)

const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function page() {
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    WebSocket: WS,
    mobile: false,
    connectionStore: null,
    transactions: { store: createMemoryTransactionStore() },
  })
  const anvil = defineChain({ ...foundry, rpcUrls: { default: { http: [backend.anvil.rpcUrl] } } })
  const config = createConfig({
    chains: [anvil],
    connectors: [scopeConnect({ client })],
    transports: { [anvil.id]: http(backend.anvil.rpcUrl, { retryCount: 0 }) },
    storage: createStorage({ storage: { getItem: () => null, setItem() {}, removeItem() {} } }),
  })
  return { client, config }
}

async function transfer(
  { client, config }: ReturnType<typeof page>,
  amount: bigint,
): Promise<'success' | 'reverted'> {
  const hash = await writeContract(config, {
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [RECIPIENT, amount],
  })
  const receipt = await waitForTransactionReceipt(config, { hash, pollingInterval: 50 })
  await until(() => client.getView().transaction?.stage === 'confirmed')
  return receipt.status
}

describe('scopeConnect over a relay pairing', () => {
  it('default: a paired session connects wagmi; it reads, signs and writes an ERC-20 through the relay; a wagmi disconnect ends the session', async () => {
    let answer: 'approve' | 'reject' = 'approve'
    const dapp = page()
    const simulator = walletSimulator(backend.server, {
      evmRpcUrl: backend.anvil.rpcUrl,
      decide: () => answer,
    })
    try {
      const flow = await dapp.client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
      expect(getAccount(dapp.config).isConnected).toBe(false)
      await simulator.pairAndApprove(flow.uri as string)
      await flow.approval
      await until(() => getAccount(dapp.config).isConnected)
      const me = simulator.evm.address
      expect(getAccount(dapp.config)).toMatchObject({ address: me, chainId: 31337 })

      const signature = await signMessage(dapp.config, { message: 'over the relay' })
      expect(await recoverMessageAddress({ message: 'over the relay', signature })).toBe(me)

      const before = await readContract(dapp.config, {
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [me],
      })
      expect(await transfer(dapp, 77n)).toBe('success')
      expect(
        await readContract(dapp.config, {
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [me],
        }),
      ).toBe(before - 77n)
      expect(simulator.requests.map((r) => r.method)).toEqual([
        'personal_sign',
        'eth_sendTransaction',
      ])

      // The wallet rejects over the relay: UserRejectedRequestError in wagmi; the next write works.
      answer = 'reject'
      const error = (await transfer(dapp, 1n).then(
        () => null,
        (e: unknown) => e,
      )) as BaseError
      expect(error.walk((e) => e instanceof UserRejectedRequestError)).toBeTruthy()
      answer = 'approve'
      expect(await transfer(dapp, 1n)).toBe('success')

      await disconnect(dapp.config)
      expect(dapp.client.getConnection()).toBeNull()
      expect(dapp.client.getView().status).not.toBe('connected')
    } finally {
      await dapp.client.disconnect()
      simulator.close()
    }
  })
})
