// @vitest-environment happy-dom-node
import { getWallets } from '@wallet-standard/app'
import { afterEach, describe, expect, it } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { DEFAULT_CONNECTION_STORAGE_KEY } from '../src/connection/browser-store'
import { createMemoryConnectionStore } from '../src/connection/memory-store'
import { isAppError } from '../src/errors'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { createTestSolanaWallet } from './support/wallet-standard-wallet'

// Silent reconnect after a reload: a page's Client connects a wallet, a second Client (the page
// after the reload) resumes it without a prompt. Real parts: anvil behind a viem-keyed EIP-1193
// wallet on `window.ethereum`, a Wallet Standard wallet with a real ed25519 key, happy-dom's
// localStorage, the real server.

const backend = useBackendWithAnvil()
afterEach(() => {
  localStorage.clear()
  delete (window as { ethereum?: unknown }).ethereum
})

async function injectedWallet(): Promise<TestEip1193Wallet> {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  ;(window as { ethereum?: unknown }).ethereum = wallet
  return wallet
}

const page = (extra: Partial<ClientOptions> = {}) =>
  new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: false,
    ...extra,
  })

const methodsSince = (wallet: TestEip1193Wallet, from: number) =>
  wallet.requests.slice(from).map((request) => request.method)

describe('Client.resume(): a silent reconnect after a reload', () => {
  it('default: the injected wallet of the last page is reconnected with eth_accounts, no prompt', async () => {
    const wallet = await injectedWallet()
    const before = page()
    const connection = await before.connect()
    await expect.poll(() => localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).not.toBeNull()
    expect(JSON.parse(localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY) ?? '')).toMatchObject({
      connectorId: 'injected',
      walletId: null,
      namespace: 'eip155',
      chainId: 'eip155:31337',
      account: connection.accounts[0],
    })

    const from = wallet.requests.length
    const after = page()
    const views: string[] = []
    after.subscribe((view) => views.push(view.status))
    const resumed = await after.resume()
    expect(resumed.status).toBe('connected')
    expect(after.getView()).toMatchObject({
      status: 'connected',
      address: connection.accounts[0],
      chainId: 'eip155:31337',
      connectionKind: 'wallet',
    })
    expect(views).toContain('reconnecting')
    expect(methodsSince(wallet, from)).toEqual(['eth_accounts', 'eth_chainId'])
    // Connected as after a prompt: it signs.
    const signature = await after.signMessage('hello again')
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('error: a locked wallet answers no account: resume() says none, forgets it; connect() then prompts', async () => {
    const wallet = await injectedWallet()
    await page().connect()
    await expect.poll(() => localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).not.toBeNull()
    wallet.lock()

    const after = page()
    const resumed = await after.resume()
    expect(resumed.status).toBe('none')
    expect(localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).toBeNull()
    // No error on screen after a reconnect that did not happen, and the Client works.
    expect(after.getView()).toMatchObject({ status: 'disconnected', error: null, isBusy: false })
    const from = wallet.requests.length
    await after.connect()
    expect(methodsSince(wallet, from)).toContain('eth_requestAccounts')
    expect(after.getView().status).toBe('connected')
  })

  it('error: a wallet that fails the silent request: discarded with the reason; the next connect() works', async () => {
    const wallet = await injectedWallet()
    await page().connect()
    await expect.poll(() => localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).not.toBeNull()
    wallet.rejectNextRequest('eth_accounts', -32603)

    const after = page()
    const resumed = await after.resume()
    expect(resumed).toMatchObject({ status: 'discarded' })
    expect(resumed.status === 'discarded' && resumed.reason).toContain('WALLET_ERROR')
    expect(localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).toBeNull()
    expect((await after.connect()).accounts).toHaveLength(2)
  })

  it('behavior: disconnect() forgets the connection: the next page resumes none', async () => {
    const wallet = await injectedWallet()
    const store = createMemoryConnectionStore()
    const before = page({ connectionStore: store })
    await before.connect()
    await expect.poll(() => store.load()).not.toBeNull()
    await before.disconnect()
    expect(store.load()).toBeNull()
    const from = wallet.requests.length
    expect((await page({ connectionStore: store }).resume()).status).toBe('none')
    expect(methodsSince(wallet, from)).toEqual([])
  })

  it('parameters: connectionStore null keeps nothing', async () => {
    await injectedWallet()
    await page({ connectionStore: null }).connect()
    await new Promise((r) => setTimeout(r, 20))
    expect(localStorage.length).toBe(0)
    expect((await page({ connectionStore: null }).resume()).status).toBe('none')
  })

  it('behavior: the store follows the account and chain the wallet switches to', async () => {
    const wallet = await injectedWallet()
    const store = createMemoryConnectionStore()
    const client = page({ connectionStore: store })
    await client.connect()
    const second = wallet.accounts[1]?.address as `0x${string}`
    wallet.switchAccount(second)
    await expect.poll(() => store.load()?.account).toBe(second)
    const after = page({ connectionStore: store })
    expect((await after.resume()).status).toBe('connected')
    expect(after.getView().address).toBe(second)
  })

  it('default: a Wallet Standard wallet is reconnected with a silent standard:connect', async () => {
    const phantom = createTestSolanaWallet({ name: 'Phantom' })
    const unregister = getWallets().register(phantom.wallet)
    try {
      const options = { solanaChainId: SOLANA_DEVNET } as const
      const before = page(options)
      await before.selectWallet('phantom', { namespace: 'solana' })
      await before.connect()
      await expect
        .poll(() => JSON.parse(localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY) ?? 'null'))
        .toMatchObject({ connectorId: 'solana:phantom', walletId: 'phantom', namespace: 'solana' })

      const after = page(options)
      expect((await after.resume()).status).toBe('connected')
      expect(after.getView()).toMatchObject({
        address: phantom.key.address,
        chainId: SOLANA_DEVNET,
      })
      expect(await after.signMessage('gm')).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)

      // The user disconnected the site in the wallet: the silent connect finds no account.
      phantom.disconnectFromWallet()
      const third = page(options)
      expect((await third.resume()).status).toBe('none')
      expect(localStorage.getItem(DEFAULT_CONNECTION_STORAGE_KEY)).toBeNull()
    } finally {
      unregister()
    }
  })
})

describe('Client chains: chainSupported and switchChain', () => {
  it('chainSupported: the project enables anvil but not Base; it follows the wallet', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      extraChains: [8453],
    })
    ;(window as { ethereum?: unknown }).ethereum = wallet
    const client = page()
    await client.connect()
    await expect.poll(() => client.getView().chainSupported).toBe(true)
    // The user switches in the wallet: the view follows chainChanged.
    await wallet.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] })
    await expect.poll(() => client.getView().chainId).toBe('eip155:8453')
    expect(client.getView().chainSupported).toBe(false)
    // Back to a chain the project serves, from the dApp.
    await client.switchChain('eip155:31337')
    expect(client.getView()).toMatchObject({ chainId: 'eip155:31337', chainSupported: true })
  })

  it('switchChain: a chain the wallet does not know (4902) is added from the registry, then switched to', async () => {
    const wallet = await injectedWallet()
    const client = page()
    await client.connect()
    await client.switchChain('eip155:10')
    expect(client.getView()).toMatchObject({ status: 'connected', chainId: 'eip155:10' })
    expect(wallet.chainId).toBe(10)
    expect(wallet.addedChains.get(10)).toEqual({
      chainId: '0xa',
      chainName: 'OP Mainnet',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['https://mainnet.optimism.io'],
      blockExplorerUrls: ['https://optimistic.etherscan.io'],
    })
    await expect.poll(() => client.getView().chainSupported).toBe(false)
  })

  it('error: the user rejects the switch: USER_REJECTED, nothing moves; the next switch succeeds', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      extraChains: [8453],
    })
    ;(window as { ethereum?: unknown }).ethereum = wallet
    const client = page()
    await client.connect()
    wallet.rejectNextRequest('wallet_switchEthereumChain')
    const error = await client.switchChain('eip155:8453').catch((e: unknown) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    expect(client.getView()).toMatchObject({
      status: 'connected',
      chainId: 'eip155:31337',
      error: { code: 'USER_REJECTED' },
    })
    await client.switchChain('eip155:8453')
    expect(client.getView()).toMatchObject({ chainId: 'eip155:8453', error: null })
  })

  it('error: 4902, then the user rejects adding the chain: USER_REJECTED; the next switch adds it', async () => {
    const wallet = await injectedWallet()
    const client = page()
    await client.connect()
    wallet.rejectNextRequest('wallet_addEthereumChain')
    const error = await client.switchChain('eip155:8453').catch((e: unknown) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    expect(client.getView().chainId).toBe('eip155:31337')
    expect(wallet.addedChains.size).toBe(0)
    await client.switchChain('eip155:8453')
    expect(client.getView().chainId).toBe('eip155:8453')
  })

  it('error: UNSUPPORTED_CHAIN for a chain neither the wallet nor the registry knows, or not EVM; NOT_CONNECTED first', async () => {
    const wallet = await injectedWallet()
    const client = page()
    const notConnected = await client.switchChain('eip155:8453').catch((e: unknown) => e)
    expect(isAppError(notConnected, 'NOT_CONNECTED')).toBe(true)
    await client.connect()
    for (const chainId of ['eip155:999999', `${SOLANA_DEVNET}`] as const) {
      const error = await client.switchChain(chainId).catch((e: unknown) => e)
      expect(isAppError(error, 'UNSUPPORTED_CHAIN'), String(error)).toBe(true)
    }
    expect(wallet.chainId).toBe(31337)
    await client.switchChain('eip155:8453')
    expect(client.getView().chainId).toBe('eip155:8453')
  })

  it('error: the config unreachable leaves chainSupported unknown; a later read fills it in', async () => {
    await injectedWallet()
    let down = true
    const client = page({
      fetchImpl: (input, init) =>
        down ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init),
    })
    await client.connect()
    await new Promise((r) => setTimeout(r, 50))
    expect(client.getView()).toMatchObject({ status: 'connected', chainSupported: undefined })
    down = false
    await client.loadConfig()
    expect(client.getView().chainSupported).toBe(true)
  })
})
