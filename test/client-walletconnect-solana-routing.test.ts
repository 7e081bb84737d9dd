import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import type { Client, ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import type { AppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { unsignedLegacyTransaction } from './support/solana-cluster'
import { SESSION_REQUEST_TAG } from './support/walletconnect-relay-double'
import {
  MemoryWalletConnectStorage,
  testWalletConnectOptions,
} from './support/walletconnect-wallet'
import { useWalletConnectWorld } from './support/walletconnect-world'

// Issue 26 item 1 on Solana, through the Client's `walletConnect` option (no connector registered
// by the app): `selectWallet` routes a Solana wallet to WalletConnect's `solana` namespace. The
// real sign-client on both sides, the wallet's a real ed25519 key; the loopback relay double
// between them; the real backend. The Solana JSON-RPC TEST DOUBLE stands in for a cluster (no
// validator runs here) for `sendTransaction`.

const EVM_CHAIN = 'eip155:31337'
// The wallet approves both namespaces: the Client's Solana connector must take the solana one.
const world = useWalletConnectWorld({ chains: [EVM_CHAIN, SOLANA_DEVNET], solanaSlot: 7_000 })

function newClient(mobile: boolean, options: Partial<ClientOptions> = {}): Client {
  return world.newClient({
    mobile,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    // The option lists an EVM chain first: the Solana connector still proposes solana first.
    walletConnect: testWalletConnectOptions(world.relay.url, [EVM_CHAIN, SOLANA_DEVNET]),
    ...options,
  }).client
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )

const encoder = new TextEncoder()

async function signsMessage(client: Client, message: string): Promise<void> {
  const signature = await client.signMessage(message)
  expect(world.wallet.received.at(-1)).toBe('solana_signMessage')
  expect(
    ed25519.verify(
      base58.decode(signature),
      encoder.encode(message),
      world.wallet.solanaKey.publicKey,
    ),
  ).toBe(true)
}

/** The wallet's session topics (what it still holds). */
const walletSessions = () => world.wallet.client.session.getAll().map((s) => s.topic)

describe('selectWallet on solana routes to WalletConnect (ClientOptions.walletConnect)', () => {
  it('a desktop without the extension: Trust on solana pairs over WalletConnect, signs, disconnects', async () => {
    const client = newClient(false)
    const connector = await client.selectWallet('trust', { namespace: 'solana' })
    expect(connector.id).toBe('walletconnect')
    const connection = await client.connect()
    expect(connection).toMatchObject({
      namespace: 'solana',
      chainId: SOLANA_DEVNET,
      accounts: [world.wallet.solanaKey.address],
    })
    expect(client.getView()).toMatchObject({
      isConnected: true,
      walletId: 'trust',
      address: world.wallet.solanaKey.address,
      pairingUri: null,
    })
    await signsMessage(client, 'trust on solana over walletconnect')

    const topic = walletSessions().at(-1)
    await client.disconnect()
    expect(client.getView()).toMatchObject({ isConnected: false, address: null })
    // The dApp ended the session with the wallet too (USER_DISCONNECTED over the relay).
    await until(() => !walletSessions().includes(topic as string))
    expect((await failure(client.signMessage('after disconnect')))?.code).toBe('NOT_CONNECTED')
    // The next connect works.
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).accounts).toEqual([world.wallet.solanaKey.address])
    await signsMessage(client, 'again')
  }, 40_000)

  it("a phone browser: selectWallet('walletconnect') on solana pairs any WalletConnect wallet", async () => {
    const client = newClient(true)
    const connector = await client.selectWallet('walletconnect', { namespace: 'solana' })
    expect(connector.id).toBe('walletconnect')
    const connection = await client.connect()
    expect(connection).toMatchObject({ namespace: 'solana', chainId: SOLANA_DEVNET })
    expect(client.getView().walletId).toBe('walletconnect')
    await signsMessage(client, 'any wallet on solana')
  }, 30_000)

  it('one sign-client (one relay socket) serves both namespaces of a Client', async () => {
    const client = newClient(false)
    await client.selectWallet('walletconnect', { namespace: 'eip155' })
    expect((await client.connect()).namespace).toBe('eip155')
    // The wallet's socket and this client's one are open now; a second sign-client would add one.
    const afterFirst = world.relay.connections()
    await client.disconnect()
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).namespace).toBe('solana')
    expect(world.relay.connections()).toBe(afterFirst)
    await signsMessage(client, 'the second namespace on the same sign-client')
  }, 30_000)

  it('a Solana WalletConnect session resumes silently after a reload (same stores); no new proposal', async () => {
    const storage = new MemoryWalletConnectStorage()
    const connectionStore = createMemoryConnectionStore()
    const first = newClient(true, {
      connectionStore,
      walletConnect: testWalletConnectOptions(world.relay.url, [SOLANA_DEVNET], { storage }),
    })
    await first.selectWallet('walletconnect', { namespace: 'solana' })
    await first.connect()
    const proposals = world.relay.requests.filter((m) => m === 'wc_proposeSession').length
    // A reload: a new Client (so a new sign-client) on the same stores.
    const second = newClient(true, {
      connectionStore,
      walletConnect: testWalletConnectOptions(world.relay.url, [SOLANA_DEVNET], { storage }),
    })
    const resumed = await second.resume()
    expect(resumed.status).toBe('connected')
    expect(second.getView()).toMatchObject({
      isConnected: true,
      address: world.wallet.solanaKey.address,
      walletId: 'walletconnect',
    })
    expect(world.relay.requests.filter((m) => m === 'wc_proposeSession').length).toBe(proposals)
    await signsMessage(second, 'after a reload')
  }, 30_000)

  it('the eip155 and solana connectors are separate; each keeps its own namespace', async () => {
    const client = newClient(false)
    const onSolana = await client.selectWallet('walletconnect', { namespace: 'solana' })
    const onEvm = await client.selectWallet('walletconnect', { namespace: 'eip155' })
    expect(onEvm).not.toBe(onSolana)
    expect(await client.selectWallet('trust', { namespace: 'solana' })).toBe(onSolana)
  })
})

describe('signTransaction: solana_signTransaction over WalletConnect', () => {
  it('the wallet answers { signature, transaction }: the signed transaction comes back, signed by the key', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const { transaction, message } = unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)
    const sent = world.solana.sent.size
    const answer = await client.signTransaction(transaction)
    expect(world.wallet.received.at(-1)).toBe('solana_signTransaction')
    // WalletConnect's params: the base64 transaction and the signer's pubkey.
    expect(world.wallet.receivedParams.at(-1)).toEqual({
      transaction,
      pubkey: world.wallet.solanaKey.address,
    })
    const signed = base64.decode(answer.signedTransaction as string)
    const signature = signed.slice(1, 65)
    expect(ed25519.verify(signature, message, world.wallet.solanaKey.publicKey)).toBe(true)
    expect(signed.slice(65)).toEqual(message)
    // Signed, not sent.
    expect(world.solana.sent.size).toBe(sent)
  }, 30_000)

  it('a wallet that answers only { signature } (the older answer): the signature comes back', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    world.wallet.signTransactionAnswer = 'signature'
    const { transaction, message } = unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)
    const answer = await client.signTransaction(transaction)
    expect(answer.signedTransaction).toBeUndefined()
    expect(
      ed25519.verify(
        base58.decode(answer.signature as string),
        message,
        world.wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)

  it('a garbage or empty answer is WALLET_ERROR, never a raw TypeError; the next call works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const { transaction, message } = unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)
    for (const answer of ['garbage', 'empty'] as const) {
      world.wallet.signTransactionAnswer = answer
      const error = await failure(client.signTransaction(transaction))
      expect(error?.code).toBe('WALLET_ERROR')
      expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })
    }
    world.wallet.signTransactionAnswer = 'transaction'
    const signed = base64.decode(
      (await client.signTransaction(transaction)).signedTransaction ?? '',
    )
    expect(ed25519.verify(signed.slice(1, 65), message, world.wallet.solanaKey.publicKey)).toBe(
      true,
    )
  }, 30_000)

  it('sendTransaction still goes through solana_signAndSendTransaction, watched to confirmed', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const handle = await client.sendTransaction(
      unsignedLegacyTransaction(world.wallet.solanaKey.publicKey),
    )
    expect(world.wallet.received.at(-1)).toBe('solana_signAndSendTransaction')
    expect(world.solana.sent.has(handle.hash)).toBe(true)
    world.solana.setSignatureStatus(handle.hash, {
      slot: 7_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    world.solana.setSlot(7_001)
    expect(await handle.wait()).toMatchObject({ status: 'confirmed', hash: handle.hash })
  }, 30_000)
})

describe('failure twins on solana through the option: after each, the next call works', () => {
  it('the wallet rejects the proposal: USER_REJECTED; the next selectWallet + connect works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    world.wallet.proposals = 'reject'
    expect((await failure(client.connect()))?.code).toBe('USER_REJECTED')
    expect(client.getView()).toMatchObject({ isConnected: false, pairingUri: null })
    world.wallet.proposals = 'approve'
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).namespace).toBe('solana')
    await signsMessage(client, 'after a rejected proposal')
  }, 30_000)

  it('the wallet never answers the proposal: TIMEOUT (walletAnswerMs); the next connect works', async () => {
    const client = newClient(false, { timeouts: { walletAnswerMs: 1_500 } })
    await client.selectWallet('trust', { namespace: 'solana' })
    world.wallet.proposals = 'hang'
    expect((await failure(client.connect()))?.code).toBe('TIMEOUT')
    expect(client.getView()).toMatchObject({ isConnected: false, pairingUri: null })
    world.wallet.proposals = 'approve'
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).accounts).toEqual([world.wallet.solanaKey.address])
  }, 30_000)

  it('requests: rejects → USER_REJECTED, errors → WALLET_ERROR, never answers → TIMEOUT (signatureMs), for signMessage and signTransaction; the next call works', async () => {
    const client = newClient(false, { timeouts: { signatureMs: 1_500 } })
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const { transaction } = unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)
    const calls = [() => client.signMessage('no'), () => client.signTransaction(transaction)]
    for (const [mode, code] of [
      ['reject', 'USER_REJECTED'],
      ['error', 'WALLET_ERROR'],
      ['hang', 'TIMEOUT'],
    ] as const) {
      for (const call of calls) {
        world.wallet.requests = mode
        expect((await failure(call()))?.code).toBe(code)
        // The user dismisses a hung prompt (the wallet shows the next one only after it).
        world.wallet.requests = 'approve'
        await world.wallet.rejectHung()
        expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })
      }
    }
    await signsMessage(client, 'after the faults')
    const answer = await client.signTransaction(transaction)
    expect(typeof answer.signedTransaction).toBe('string')
  }, 40_000)

  it('a relay socket dropped mid-request: sign-client reconnects and the signature still arrives', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const requested = world.relay.nextPublish(SESSION_REQUEST_TAG)
    const signing = client.signMessage('dropped mid-request')
    await requested
    world.relay.dropConnections()
    const signature = await signing
    expect(
      ed25519.verify(
        base58.decode(signature),
        encoder.encode('dropped mid-request'),
        world.wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
    await signsMessage(client, 'after the drop')
  }, 40_000)

  it('the wallet deletes the session: the Client is disconnected; the next connect works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const topic = walletSessions().at(-1) as string
    await world.wallet.deleteSession(topic)
    await until(() => !client.getView().isConnected)
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).namespace).toBe('solana')
    await signsMessage(client, 'after the wallet ended it')
  }, 30_000)
})

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
