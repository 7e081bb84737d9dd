import { parseGwei } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SOLANA_DEVNET, startTestServer, type TestServer } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { type AppError, isAppError } from '../src/errors'
import { clearNetworks, defineNetwork, getNetworkInfo } from '../src/index'
import { type RunningAnvil, startAnvil } from './support/anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0, ANVIL_KEY_1 } from './support/evm-transactions'

// Issue 29, item 1, through the Client's public API: a project whose projects file defines Linea
// (eip155:59144, not a built-in chain), served by a real anvil started with that chain id, beside
// a local anvil (eip155:31337). Real server, real keys behind an EIP-1193 wallet double that
// answers 4902 for a chain it does not know and checks `wallet_addEthereumChain`'s parameter.

const LINEA = 'eip155:59144'
const DOWN = 'eip155:59145'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEV_ACCOUNT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const CURRENCY = { name: 'Linea Ether', symbol: 'ETH', decimals: 18 }

let local: RunningAnvil
let linea: RunningAnvil
let server: TestServer
let backendDown = false

beforeAll(async () => {
  ;[local, linea] = await Promise.all([startAnvil(), startAnvil({ chainId: 59144 })])
  server = await startTestServer({
    projects: {
      projects: [
        {
          projectId: 'linea-dapp',
          name: 'Linea dApp',
          appKeys: ['linea-app-key'],
          networks: [
            { chainId: 'eip155:31337', rpcUrl: local.rpcUrl },
            {
              chainId: LINEA,
              rpcUrl: linea.rpcUrl,
              multicall3: null, // anvil has none: a batch reads each item at one block
              name: 'Linea',
              nativeCurrency: CURRENCY,
              publicRpcUrls: [linea.rpcUrl],
              explorerUrl: 'https://lineascan.build',
            },
            // A custom chain whose node is down (nothing listens on port 9).
            { chainId: DOWN, rpcUrl: 'http://127.0.0.1:9', name: 'Down', nativeCurrency: CURRENCY },
            { chainId: SOLANA_DEVNET },
          ],
          wallets: ['metamask'],
        },
      ],
    },
    transactions: { blockPollMs: 100, timeoutMs: 1_000 },
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
  await Promise.all([local?.stop(), linea?.stop()])
})
afterEach(() => {
  clearNetworks()
  backendDown = false
})

async function connected(
  rpcUrl: string,
  options: Partial<ClientOptions> = {},
): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({ rpcUrl, privateKeys: [ANVIL_KEY_0, ANVIL_KEY_1] })
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: 'linea-app-key',
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    fetchImpl: (input, init) =>
      backendDown ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init),
    ...options,
  })
  await client.connect()
  return { client, wallet }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )

describe('a custom chain of the projects file, through the Client', () => {
  it('default: the config carries it; the Client registers it: lookups know Linea after loadConfig()', async () => {
    const { client } = await connected(local.rpcUrl)
    const config = await client.loadConfig()
    expect(config.networks.find((n) => n.networkId === LINEA)).toEqual({
      networkId: LINEA,
      namespace: 'eip155',
      name: 'Linea',
      nativeCurrency: CURRENCY,
      testnet: false,
      rpcUrls: [linea.rpcUrl],
      explorerUrl: 'https://lineascan.build',
    })
    expect(getNetworkInfo(LINEA)).toMatchObject({ name: 'Linea', rpcUrls: [linea.rpcUrl] })
  })

  it('default: a balance read and a batch on Linea', async () => {
    const { client } = await connected(local.rpcUrl)
    const one = await client.getBalance({
      chainId: LINEA,
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect(one).toMatchObject({ chainId: LINEA, raw: 10_000n * 10n ** 18n, decimals: 18 })
    const batch = await client.getBalances([
      { chainId: LINEA, tokenAddress: 'native', account: DEV_ACCOUNT },
      { chainId: 'eip155:31337', tokenAddress: 'native', account: DEV_ACCOUNT },
    ])
    expect(batch.map((r) => (r.status === 'success' ? r.balance.raw : r.error.code))).toEqual([
      10_000n * 10n ** 18n,
      10_000n * 10n ** 18n,
    ])
  })

  it('default: connected on Linea (chainSupported), a transaction sent and waited for through the backend', async () => {
    const { client } = await connected(linea.rpcUrl)
    await expect
      .poll(() => client.getView())
      .toMatchObject({ chainId: LINEA, chainSupported: true })
    const handle = await client.sendTransaction({
      to: RECIPIENT,
      value: 1n,
      maxFeePerGas: parseGwei('10'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    expect(handle.chainId).toBe(LINEA)
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash })
  })

  it("default: switchChain to Linea: the wallet answers 4902, the chain is added with the project's data, then switched to", async () => {
    const { client, wallet } = await connected(local.rpcUrl)
    await client.switchChain(LINEA)
    expect(wallet.chainId).toBe(59144)
    expect(wallet.addedChains.get(59144)).toEqual({
      chainId: '0xe708',
      chainName: 'Linea',
      nativeCurrency: CURRENCY,
      rpcUrls: [linea.rpcUrl],
      blockExplorerUrls: ['https://lineascan.build'],
    })
    expect(wallet.requests.map((r) => r.method).slice(-3)).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ])
    await expect
      .poll(() => client.getView())
      .toMatchObject({ chainId: LINEA, chainSupported: true })
    // Switching back and forth now goes without an add.
    await client.switchChain('eip155:31337')
    await client.switchChain(LINEA)
    expect(wallet.requests.filter((r) => r.method === 'wallet_addEthereumChain')).toHaveLength(1)
  })

  it('error: the wallet refuses to add the chain: USER_REJECTED, nothing moves; the next switch adds it', async () => {
    const { client, wallet } = await connected(local.rpcUrl)
    wallet.rejectNextRequest('wallet_addEthereumChain')
    const error = await failure(client.switchChain(LINEA))
    expect(isAppError(error, 'USER_REJECTED'), String(error)).toBe(true)
    expect(client.getView().chainId).toBe('eip155:31337')
    expect(wallet.addedChains.size).toBe(0)
    await client.switchChain(LINEA)
    expect(client.getView().chainId).toBe(LINEA)
  })

  it('error: the backend unreachable when the wallet answers 4902: UNSUPPORTED_CHAIN; once it is back, the switch adds Linea', async () => {
    const { client, wallet } = await connected(local.rpcUrl)
    backendDown = true
    const error = await failure(client.switchChain(LINEA))
    expect(isAppError(error, 'UNSUPPORTED_CHAIN'), String(error)).toBe(true)
    expect(wallet.addedChains.size).toBe(0)
    expect(client.getView()).toMatchObject({ status: 'connected', chainId: 'eip155:31337' })
    backendDown = false
    await client.switchChain(LINEA)
    expect(client.getView().chainId).toBe(LINEA)
  })

  it('error: an unreachable custom RPC: RPC_ERROR (the backend says UPSTREAM_ERROR); the next read works', async () => {
    const { client } = await connected(local.rpcUrl)
    const error = await failure(
      client.getBalance({ chainId: DOWN, tokenAddress: 'native', account: DEV_ACCOUNT }),
    )
    expect(isAppError(error, 'RPC_ERROR'), String(error)).toBe(true)
    expect(error).toMatchObject({ backendCode: 'UPSTREAM_ERROR' })
    const next = await client.getBalance({
      chainId: LINEA,
      tokenAddress: 'native',
      account: DEV_ACCOUNT,
    })
    expect(next.raw).toBe(10_000n * 10n ** 18n)
  })

  it("parameters: a dApp's own chain (defineNetwork, the `networks` option) is added from its definition, without the backend", async () => {
    const mine = defineNetwork({
      id: 8_453_000,
      name: 'My rollup',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['https://rpc.my-rollup.example'] } },
      testnet: true,
    })
    const { client, wallet } = await connected(local.rpcUrl, { networks: [mine] })
    await client.loadConfig() // the project's chains, for chainSupported
    backendDown = true // not asked: the registry knows the chain
    await client.switchChain('eip155:8453000')
    expect(wallet.addedChains.get(8_453_000)).toEqual({
      chainId: '0x80fb88',
      chainName: 'My rollup',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['https://rpc.my-rollup.example'],
    })
    // Not one of the project's chains: the backend cannot serve it.
    await expect.poll(() => client.getView().chainSupported).toBe(false)
  })
})
