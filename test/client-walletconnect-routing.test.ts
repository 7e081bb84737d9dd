import { recoverMessageAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Client, ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import { type AppError, isAppError } from '../src/errors'
import {
  MemoryWalletConnectStorage,
  testWalletConnectOptions,
} from './support/walletconnect-wallet'
import { useWalletConnectWorld } from './support/walletconnect-world'

// Issue 26 item 1, the Client side: with the `walletConnect` option, `selectWallet` routes a wallet
// to WalletConnect where that is its first served path (a desktop without its extension, a phone
// browser), and `selectWallet('walletconnect')` pairs any WalletConnect wallet. The real sign-client
// on both sides (a viem key on the wallet's), the loopback relay double between them, the real
// backend and anvil. No connector is registered by the app in these tests.

const CHAIN = 'eip155:31337'
const world = useWalletConnectWorld({ chains: [CHAIN, 'eip155:1'] })

interface Setup {
  mobile: boolean
  storage?: MemoryWalletConnectStorage
  walletConnect?: Partial<NonNullable<ClientOptions['walletConnect']>> | null
  options?: Partial<ClientOptions>
}

function newClient({ mobile, storage, walletConnect = {}, options = {} }: Setup): {
  client: Client
  uris: string[]
} {
  return world.newClient({
    mobile,
    ...(walletConnect === null
      ? {}
      : {
          walletConnect: testWalletConnectOptions(world.relay.url, [CHAIN], {
            ...(storage ? { storage } : {}),
            ...walletConnect,
          }),
        }),
    ...options,
  })
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )
const proposals = () => world.relay.requests.filter((m) => m === 'wc_proposeSession').length

async function signs(client: Client, message: string): Promise<void> {
  const signature = await client.signMessage(message)
  expect(await recoverMessageAddress({ message, signature: signature as `0x${string}` })).toBe(
    world.wallet.account.address,
  )
}

describe('selectWallet routes to WalletConnect (ClientOptions.walletConnect)', () => {
  it('a desktop without the extension: MetaMask goes over WalletConnect, pairs, signs', async () => {
    const { client, uris } = newClient({ mobile: false })
    const connector = await client.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('walletconnect')
    const connection = await client.connect()
    expect(connection).toMatchObject({ accounts: [world.wallet.account.address], chainId: CHAIN })
    expect(client.getView()).toMatchObject({ isConnected: true, walletId: 'metamask' })
    expect(uris).toHaveLength(1)
    expect(uris[0]).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    await signs(client, 'metamask over walletconnect')
  }, 30_000)

  it('a phone browser: Rainbow (WalletConnect is its only phone path) pairs over WalletConnect', async () => {
    const { client, uris } = newClient({ mobile: true })
    const connector = await client.selectWallet('rainbow', { namespace: 'eip155' })
    expect(connector.id).toBe('walletconnect')
    expect((await client.connect()).accounts).toEqual([world.wallet.account.address])
    expect(uris).toHaveLength(1)
    await signs(client, 'rainbow on a phone')
  }, 30_000)

  it("selectWallet('walletconnect'): any WalletConnect wallet, by its QR code", async () => {
    const { client } = newClient({ mobile: false })
    const connector = await client.selectWallet('walletconnect', { namespace: 'eip155' })
    expect(connector.id).toBe('walletconnect')
    expect((await client.connect()).accounts).toEqual([world.wallet.account.address])
    expect(client.getView().walletId).toBe('walletconnect')
    await signs(client, 'generic walletconnect')
  }, 30_000)

  it('one connector (one sign-client) serves every wallet of the client', async () => {
    const { client } = newClient({ mobile: true })
    const first = await client.selectWallet('rainbow', { namespace: 'eip155' })
    const second = await client.selectWallet('zerion', { namespace: 'eip155' })
    const third = await client.selectWallet('walletconnect', { namespace: 'eip155' })
    expect(second).toBe(first)
    expect(third).toBe(first)
  })

  it('on a phone a WalletConnect session resumes silently after a reload (same stores)', async () => {
    const storage = new MemoryWalletConnectStorage()
    const connectionStore = createMemoryConnectionStore()
    const first = newClient({ mobile: true, storage, options: { connectionStore } })
    await first.client.selectWallet('trust', { namespace: 'eip155' })
    await first.client.connect()
    const before = proposals()
    // A reload: a new Client (and connector) on the same stores.
    const second = newClient({ mobile: true, storage, options: { connectionStore } })
    const resumed = await second.client.resume()
    expect(resumed.status).toBe('connected')
    expect(second.client.getView()).toMatchObject({
      isConnected: true,
      address: world.wallet.account.address,
      walletId: 'trust',
    })
    expect(proposals()).toBe(before)
    expect(second.uris).toEqual([])
    await signs(second.client, 'after a reload on a phone')
  }, 30_000)
})

describe('without the option, the walletconnect path is not served', () => {
  it('a phone browser: Rainbow is WALLET_UNAVAILABLE, saying how to configure WalletConnect', async () => {
    const { client } = newClient({ mobile: true, walletConnect: null })
    const error = await failure(client.selectWallet('rainbow', { namespace: 'eip155' }))
    expect(error?.code).toBe('WALLET_UNAVAILABLE')
    expect(error?.message).toMatch(/walletConnect: \{ projectId, metadata \}/)
  })

  it('a desktop: MetaMask waits for its extension (EIP-6963), as before', async () => {
    const { client } = newClient({ mobile: false, walletConnect: null })
    const connector = await client.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).not.toBe('walletconnect')
  })
})

describe('failure twins: after each, the next selectWallet works', () => {
  it('the peer missing: WALLET_UNAVAILABLE with the install hint; once it loads, the next one connects', async () => {
    let missing = true
    const { client } = newClient({
      mobile: false,
      walletConnect: {
        importSignClient: () =>
          missing
            ? Promise.reject(new Error("Cannot find package '@walletconnect/sign-client'"))
            : import('@walletconnect/sign-client'),
      },
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    const error = await failure(client.connect())
    expect(error?.code).toBe('WALLET_UNAVAILABLE')
    expect(error?.message).toMatch(/npm (i|install)[^\n]*@walletconnect\/sign-client/)
    expect(client.getView().isConnected).toBe(false)
    missing = false
    await client.selectWallet('metamask', { namespace: 'eip155' })
    expect((await client.connect()).accounts).toEqual([world.wallet.account.address])
  }, 30_000)

  it('the wallet rejects the proposal: USER_REJECTED; the next selectWallet + connect works', async () => {
    const { client } = newClient({ mobile: true })
    await client.selectWallet('zerion', { namespace: 'eip155' })
    world.wallet.proposals = 'reject'
    expect((await failure(client.connect()))?.code).toBe('USER_REJECTED')
    expect(client.getView().pairingUri).toBeNull()
    world.wallet.proposals = 'approve'
    await client.selectWallet('zerion', { namespace: 'eip155' })
    expect((await client.connect()).accounts).toEqual([world.wallet.account.address])
  }, 30_000)

  it('a malformed option: INVALID_CONFIG naming the field, not a TypeError; other wallets still work', async () => {
    const { client } = newClient({ mobile: true, walletConnect: { projectId: '' } })
    const error = await failure(client.selectWallet('rainbow', { namespace: 'eip155' }))
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(error?.message).toMatch(/walletConnect\.projectId/)
    // The same call reports it again (the bad connector is not kept).
    expect(isAppError(await failure(client.selectWallet('rainbow', { namespace: 'eip155' })))).toBe(
      true,
    )
  })
})
