import { recoverMessageAddress, verifyTypedData } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Client, ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import { WalletConnectConnector } from '../src/connectors'
import { type AppError, isAppError } from '../src/errors'
import { SESSION_REQUEST_TAG } from './support/walletconnect-relay-double'
import {
  MemoryWalletConnectStorage,
  testWalletConnectOptions,
} from './support/walletconnect-wallet'
import { useWalletConnectWorld } from './support/walletconnect-world'

// The Client through its charts with a WalletConnect wallet: the real sign-client on both sides (a
// viem key on the wallet's), the loopback relay double between them, the real backend and anvil.

const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const world = useWalletConnectWorld({ chains: [CHAIN, 'eip155:1'] })

function newClient(
  storage = new MemoryWalletConnectStorage(),
  options: Partial<ClientOptions> = {},
  proposalExpirySeconds?: number,
): { client: Client; uris: string[] } {
  return world.newClient({
    connectors: [
      new WalletConnectConnector(
        testWalletConnectOptions(world.relay.url, [CHAIN], {
          storage,
          ...(proposalExpirySeconds ? { proposalExpirySeconds } : {}),
        }),
      ),
    ],
    ...options,
  })
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
    expect(connection.accounts).toEqual([world.wallet.account.address])
    expect(connection.chainId).toBe(CHAIN)
    const view = client.getView()
    expect(view.pairingUri).toBeNull()
    expect(view.isConnected).toBe(true)
    expect(view.address).toBe(world.wallet.account.address)
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
    ).toBe(world.wallet.account.address)

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
        address: world.wallet.account.address,
        signature: typedSignature as `0x${string}`,
      }),
    ).toBe(true)

    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    const receipt = await handle.wait()
    expect(receipt.status).toBe('confirmed')
    expect(world.wallet.received).toContain('eth_sendTransaction')
  }, 60_000)

  it('switchChain: the wallet switches and its chainChanged moves the view', async () => {
    const { client } = newClient()
    await client.connect()
    await client.switchChain('eip155:1')
    expect(client.getView().chainId).toBe('eip155:1')
    expect(world.wallet.received).toContain('wallet_switchEthereumChain')
  }, 30_000)

  it('a session event the session does not allow is ignored, never an unhandled rejection; the next call works', async () => {
    const { client } = newClient()
    await client.connect()
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const topic = world.wallet.client.session.getAll().at(-1)?.topic ?? ''
      await world.wallet.sendSessionEvent(topic, {
        event: { name: 'notInTheSession', data: 1 },
        chainId: CHAIN,
      })
      // The dApp's sign-client handles requests in order: once the next event moved the view, the
      // refused one is behind it.
      await world.wallet.emitChainChanged(topic, 'eip155:1')
      await until(() => client.getView().chainId === 'eip155:1')
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
    expect(unhandled).toEqual([])
    const signature = await client.signMessage('after a refused event')
    expect(
      await recoverMessageAddress({
        message: 'after a refused event',
        signature: signature as `0x${string}`,
      }),
    ).toBe(world.wallet.account.address)
  }, 30_000)

  it('a rejected signature is USER_REJECTED, a wallet error WALLET_ERROR; the next one works', async () => {
    const { client } = newClient()
    await client.connect()
    world.wallet.requests = 'reject'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    world.wallet.requests = 'error'
    expect((await failure(client.signMessage('no')))?.code).toBe('WALLET_ERROR')
    world.wallet.requests = 'approve'
    const signature = await client.signMessage('yes')
    expect(
      await recoverMessageAddress({ message: 'yes', signature: signature as `0x${string}` }),
    ).toBe(world.wallet.account.address)
  }, 30_000)

  it('a wallet that never answers a signature ends TIMEOUT (signatureMs); the next call works', async () => {
    const { client } = newClient(undefined, { timeouts: { signatureMs: 1_500 } })
    await client.connect()
    world.wallet.requests = 'hang'
    expect((await failure(client.signMessage('never')))?.code).toBe('TIMEOUT')
    // The wallet still shows the stale prompt (sign-client queues requests); the user dismisses it.
    world.wallet.requests = 'approve'
    await world.wallet.rejectHung()
    expect(await client.signMessage('now')).toMatch(/^0x/)
  }, 30_000)

  it('a rejected proposal ends USER_REJECTED; the next connect works', async () => {
    const { client } = newClient()
    world.wallet.proposals = 'reject'
    expect((await failure(client.connect()))?.code).toBe('USER_REJECTED')
    expect(client.getView().pairingUri).toBeNull()
    world.wallet.proposals = 'approve'
    expect((await client.connect()).accounts).toEqual([world.wallet.account.address])
  }, 30_000)

  it('a wallet that never answers the proposal ends TIMEOUT (walletAnswerMs); the next connect works', async () => {
    const { client } = newClient(undefined, { timeouts: { walletAnswerMs: 2_000 } })
    world.wallet.proposals = 'hang'
    expect((await failure(client.connect()))?.code).toBe('TIMEOUT')
    expect(client.getView().pairingUri).toBeNull()
    world.wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 30_000)

  it('a proposal that lapses unanswered ends SESSION_EXPIRED (proposalExpirySeconds); the next connect works', async () => {
    // walletAnswerMs is longer than the proposal's expiry: the lapse, not the Client's timer, ends it.
    const { client } = newClient(undefined, { timeouts: { walletAnswerMs: 20_000 } }, 2)
    world.wallet.proposals = 'hang'
    const started = Date.now()
    const error = await failure(client.connect())
    expect(error?.code).toBe('SESSION_EXPIRED')
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(client.getView()).toMatchObject({ pairingUri: null, isConnected: false, isBusy: false })
    world.wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 40_000)

  it('a relay that swallows the request (accepts, never forwards) ends TIMEOUT (signatureMs); the next call works', async () => {
    const { client } = newClient(undefined, { timeouts: { signatureMs: 1_500 } })
    await client.connect()
    const received = world.wallet.received.length
    world.relay.silence = true
    expect((await failure(client.signMessage('lost')))?.code).toBe('TIMEOUT')
    expect(world.wallet.received.length).toBe(received)
    world.relay.silence = false
    const signature = await client.signMessage('delivered')
    expect(
      await recoverMessageAddress({ message: 'delivered', signature: signature as `0x${string}` }),
    ).toBe(world.wallet.account.address)
  }, 30_000)

  it('cancel() while the approval is pending ends ABORTED; the next connect works', async () => {
    const { client } = newClient()
    world.wallet.proposals = 'hang'
    const pending = failure(client.connect())
    await until(() => client.getView().pairingUri !== null)
    client.cancel()
    expect((await pending)?.code).toBe('ABORTED')
    expect(client.getView().pairingUri).toBeNull()
    world.wallet.proposals = 'approve'
    expect((await client.connect()).chainId).toBe(CHAIN)
  }, 30_000)

  it('a relay socket dropped mid-request: sign-client reconnects and the answer still arrives', async () => {
    const { client } = newClient()
    await client.connect()
    const requested = world.relay.nextPublish(SESSION_REQUEST_TAG)
    const signing = client.signMessage('through a dropped socket')
    await requested
    world.relay.dropConnections()
    const signature = await signing
    expect(
      await recoverMessageAddress({
        message: 'through a dropped socket',
        signature: signature as `0x${string}`,
      }),
    ).toBe(world.wallet.account.address)
    expect(await client.signMessage('after')).toMatch(/^0x/)
  }, 60_000)

  it('a session the wallet deletes disconnects the Client', async () => {
    const { client } = newClient()
    await client.connect()
    const topic = world.wallet.client.session.getAll().at(-1)?.topic ?? ''
    await world.wallet.deleteSession(topic)
    await until(() => !client.getView().isConnected)
    expect(client.getView().address).toBeNull()
    expect(isAppError(await failure(client.signMessage('gone')), 'NOT_CONNECTED')).toBe(true)
    // The next connect proposes a new session and works.
    const again = await client.connect()
    expect(again.accounts).toEqual([world.wallet.account.address])
    expect(await client.signMessage('back')).toMatch(/^0x/)
  }, 30_000)

  it('disconnect() ends the session on the wallet side too', async () => {
    const { client } = newClient()
    await client.connect()
    const topic = world.wallet.client.session.getAll().at(-1)?.topic ?? ''
    await client.disconnect()
    expect(client.getView().isConnected).toBe(false)
    await until(() => !world.wallet.client.session.getAll().some((s) => s.topic === topic))
  }, 30_000)

  it('the session survives a reload: resume() restores it silently', async () => {
    const storage = new MemoryWalletConnectStorage()
    const connectionStore = createMemoryConnectionStore()
    const first = newClient(storage, { connectionStore })
    await first.client.connect()
    const proposals = world.relay.requests.filter((m) => m === 'wc_proposeSession').length
    // A reload: a new Client and connector on the same stores.
    const second = newClient(storage, { connectionStore })
    const resumed = await second.client.resume()
    expect(resumed.status).toBe('connected')
    expect(second.client.getView().address).toBe(world.wallet.account.address)
    expect(world.relay.requests.filter((m) => m === 'wc_proposeSession').length).toBe(proposals)
    expect(second.uris).toEqual([])
    expect(await second.client.signMessage('after reload')).toMatch(/^0x/)
  }, 30_000)
})
