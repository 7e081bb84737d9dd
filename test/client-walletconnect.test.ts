import { recoverMessageAddress, verifyTypedData } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Client, type ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import { WalletConnectConnector } from '../src/connectors'
import { type AppError, isAppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from './support/walletconnect-relay-double'
import {
  MemoryWalletConnectStorage,
  pairFromView,
  startWalletConnectWallet,
  type TestWalletConnectWallet,
  testWalletConnectOptions,
} from './support/walletconnect-wallet'

// The Client through its charts with a WalletConnect wallet: the real sign-client on both sides (a
// viem key on the wallet's), the loopback relay double between them, the real backend and anvil.

const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil()
let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet
const clients: Client[] = []

beforeAll(async () => {
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url, rpcUrl: backend.anvil.rpcUrl })
  wallet.chains = [CHAIN, 'eip155:1']
})
afterAll(async () => {
  await wallet?.close()
  await relay?.close()
})
afterEach(async () => {
  relay.silence = false
  wallet.proposals = 'approve'
  wallet.requests = 'approve'
  for (const client of clients.splice(0)) await client.disconnect().catch(() => {})
})

function newClient(
  storage = new MemoryWalletConnectStorage(),
  options: Partial<ClientOptions> = {},
  proposalExpirySeconds?: number,
): { client: Client; uris: string[] } {
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: false,
    connectionStore: createMemoryConnectionStore(),
    transactions: { store: createMemoryTransactionStore() },
    connectors: [
      new WalletConnectConnector(
        testWalletConnectOptions(relay.url, [CHAIN], {
          storage,
          ...(proposalExpirySeconds ? { proposalExpirySeconds } : {}),
        }),
      ),
    ],
    ...options,
  })
  const uris = pairFromView(client, wallet)
  clients.push(client)
  return { client, uris }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )
const until = async (condition: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('Client + WalletConnectConnector', () => {
  it('connect: the wc: URI is view.pairingUri while the wallet is asked, then connected', async () => {
    const { client, uris } = newClient()
    const pending = client.connect()
    await until(() => client.getView().pairingUri !== null)
    expect(client.getView().pairingUri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=/)
    expect(client.getView().isBusy).toBe(true)
    const connection = await pending
    expect(connection.accounts).toEqual([wallet.account.address])
    expect(connection.chainId).toBe(CHAIN)
    const view = client.getView()
    expect(view.pairingUri).toBeNull()
    expect(view.isConnected).toBe(true)
    expect(view.address).toBe(wallet.account.address)
    expect(uris).toHaveLength(1)
  }, 30_000)

  it('signMessage, signTypedData and sendTransaction (watched through the backend)', async () => {
    const { client } = newClient()
    await client.connect()
    const signature = await client.signMessage('hello over walletconnect')
    expect(
      await recoverMessageAddress({
        message: 'hello over walletconnect',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.account.address)

    const typedData = {
      domain: { name: 'Test', version: '1', chainId: 31337 },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    } as const
    const typedSignature = await client.signTypedData(typedData)
    expect(
      await verifyTypedData({
        ...typedData,
        address: wallet.account.address,
        signature: typedSignature as `0x${string}`,
      }),
    ).toBe(true)

    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    const receipt = await handle.wait()
    expect(receipt.status).toBe('confirmed')
    expect(wallet.received).toContain('eth_sendTransaction')
  }, 60_000)

  it('switchChain: the wallet switches and its chainChanged moves the view', async () => {
    const { client } = newClient()
    await client.connect()
    await client.switchChain('eip155:1')
    expect(client.getView().chainId).toBe('eip155:1')
    expect(wallet.received).toContain('wallet_switchEthereumChain')
  }, 30_000)

  it('a rejected signature is USER_REJECTED, a wallet error WALLET_ERROR; the next one works', async () => {
    const { client } = newClient()
    await client.connect()
    wallet.requests = 'reject'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    wallet.requests = 'error'
    expect((await failure(client.signMessage('no')))?.code).toBe('WALLET_ERROR')
    wallet.requests = 'approve'
    const signature = await client.signMessage('yes')
    expect(
      await recoverMessageAddress({ message: 'yes', signature: signature as `0x${string}` }),
    ).toBe(wallet.account.address)
  }, 30_000)

  it('a wallet that never answers a signature ends TIMEOUT (signatureMs); the next call works', async () => {
    const { client } = newClient(undefined, { timeouts: { signatureMs: 1_500 } })
    await client.connect()
    wallet.requests = 'hang'
    expect((await failure(client.signMessage('never')))?.code).toBe('TIMEOUT')
    // The wallet still shows the stale prompt (sign-client queues requests); the user dismisses it.
    wallet.requests = 'approve'
    await wallet.rejectHung()
    expect(await client.signMessage('now')).toMatch(/^0x/)
  }, 30_000)

  it('a rejected proposal ends USER_REJECTED; the next connect works', async () => {
    const { client } = newClient()
    wallet.proposals = 'reject'
    expect((await failure(client.connect()))?.code).toBe('USER_REJECTED')
    expect(client.getView().pairingUri).toBeNull()
    wallet.proposals = 'approve'
    expect((await client.connect()).accounts).toEqual([wallet.account.address])
  }, 30_000)

  it('a wallet that never answers the proposal ends TIMEOUT (walletAnswerMs); the next connect works', async () => {
    const { client } = newClient(undefined, { timeouts: { walletAnswerMs: 2_000 } })
    wallet.proposals = 'hang'
    expect((await failure(client.connect()))?.code).toBe('TIMEOUT')
    expect(client.getView().pairingUri).toBeNull()
    wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 30_000)

  it('a proposal that lapses unanswered ends SESSION_EXPIRED (proposalExpirySeconds); the next connect works', async () => {
    // walletAnswerMs is longer than the proposal's expiry: the lapse, not the Client's timer, ends it.
    const { client } = newClient(undefined, { timeouts: { walletAnswerMs: 20_000 } }, 2)
    wallet.proposals = 'hang'
    const started = Date.now()
    const error = await failure(client.connect())
    expect(error?.code).toBe('SESSION_EXPIRED')
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(client.getView()).toMatchObject({ pairingUri: null, isConnected: false, isBusy: false })
    wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 40_000)

  it('a relay that swallows the request (accepts, never forwards) ends TIMEOUT (signatureMs); the next call works', async () => {
    const { client } = newClient(undefined, { timeouts: { signatureMs: 1_500 } })
    await client.connect()
    const received = wallet.received.length
    relay.silence = true
    expect((await failure(client.signMessage('lost')))?.code).toBe('TIMEOUT')
    expect(wallet.received.length).toBe(received)
    relay.silence = false
    const signature = await client.signMessage('delivered')
    expect(
      await recoverMessageAddress({ message: 'delivered', signature: signature as `0x${string}` }),
    ).toBe(wallet.account.address)
  }, 30_000)

  it('cancel() while the approval is pending ends ABORTED; the next connect works', async () => {
    const { client } = newClient()
    wallet.proposals = 'hang'
    const pending = failure(client.connect())
    await until(() => client.getView().pairingUri !== null)
    client.cancel()
    expect((await pending)?.code).toBe('ABORTED')
    expect(client.getView().pairingUri).toBeNull()
    wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 30_000)

  it('a relay socket dropped mid-request: sign-client reconnects and the answer still arrives', async () => {
    const { client } = newClient()
    await client.connect()
    const publishes = relay.requests.filter((m) => m === 'irn_publish').length
    const signing = client.signMessage('through a dropped socket')
    await relay.waitFor('irn_publish', publishes + 1)
    relay.dropConnections()
    const signature = await signing
    expect(
      await recoverMessageAddress({
        message: 'through a dropped socket',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.account.address)
    expect(await client.signMessage('after')).toMatch(/^0x/)
  }, 60_000)

  it('a session the wallet deletes disconnects the Client', async () => {
    const { client } = newClient()
    await client.connect()
    const topic = wallet.client.session.getAll().at(-1)?.topic ?? ''
    await wallet.deleteSession(topic)
    await until(() => !client.getView().isConnected)
    expect(client.getView().address).toBeNull()
    expect(isAppError(await failure(client.signMessage('gone')), 'NOT_CONNECTED')).toBe(true)
    // The next connect proposes a new session and works.
    const again = await client.connect()
    expect(again.accounts).toEqual([wallet.account.address])
    expect(await client.signMessage('back')).toMatch(/^0x/)
  }, 30_000)

  it('disconnect() ends the session on the wallet side too', async () => {
    const { client } = newClient()
    await client.connect()
    const topic = wallet.client.session.getAll().at(-1)?.topic ?? ''
    await client.disconnect()
    expect(client.getView().isConnected).toBe(false)
    await until(() => !wallet.client.session.getAll().some((s) => s.topic === topic))
  }, 30_000)

  it('the session survives a reload: resume() restores it silently', async () => {
    const storage = new MemoryWalletConnectStorage()
    const connectionStore = createMemoryConnectionStore()
    const first = newClient(storage, { connectionStore })
    await first.client.connect()
    const proposals = relay.requests.filter((m) => m === 'wc_proposeSession').length
    // A reload: a new Client and connector on the same stores.
    const second = newClient(storage, { connectionStore })
    const resumed = await second.client.resume()
    expect(resumed.status).toBe('connected')
    expect(second.client.getView().address).toBe(wallet.account.address)
    expect(relay.requests.filter((m) => m === 'wc_proposeSession').length).toBe(proposals)
    expect(second.uris).toEqual([])
    expect(await second.client.signMessage('after reload')).toMatch(/^0x/)
  }, 30_000)
})
