import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../server/test/support/server'
import {
  type SolanaRpcDouble,
  startSolanaRpcDouble,
} from '../server/test/support/solana-rpc-double'
import { Client, type ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import type { AppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { unsignedLegacyTransaction } from './support/solana-cluster'
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

// Issue 26 item 1 on Solana, through the Client's `walletConnect` option (no connector registered
// by the app): `selectWallet` routes a Solana wallet to WalletConnect's `solana` namespace. The
// real sign-client on both sides, the wallet's a real ed25519 key; the loopback relay double
// between them; the real backend. The Solana JSON-RPC TEST DOUBLE stands in for a cluster (no
// validator runs here) for `sendTransaction`.

const EVM_CHAIN = 'eip155:31337'
let solana: SolanaRpcDouble
let server: TestServer
let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet
const clients: Client[] = []

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 7_000 })
  server = await startTestServer({
    projects: {
      projects: [{ ...TEST_PROJECT, networks: [{ chainId: SOLANA_DEVNET, rpcUrl: solana.url }] }],
    },
    transactions: { blockPollMs: 50 },
  })
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url, solanaRpcUrl: solana.url })
  // The wallet approves both namespaces: the Client's Solana connector must take the solana one.
  wallet.chains = [EVM_CHAIN, SOLANA_DEVNET]
}, 30_000)
afterAll(async () => {
  await wallet?.close()
  await relay?.close()
  await server?.close()
  await solana?.close()
})
afterEach(async () => {
  wallet.proposals = 'approve'
  wallet.requests = 'approve'
  wallet.signTransactionAnswer = 'transaction'
  await wallet.rejectHung()
  for (const client of clients.splice(0)) await client.disconnect().catch(() => {})
})

function newClient(mobile: boolean, options: Partial<ClientOptions> = {}): Client {
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    mobile,
    connectionStore: createMemoryConnectionStore(),
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    // The option lists an EVM chain first: the Solana connector still proposes solana first.
    walletConnect: testWalletConnectOptions(relay.url, [EVM_CHAIN, SOLANA_DEVNET]),
    ...options,
  })
  pairFromView(client, wallet)
  clients.push(client)
  return client
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )

const encoder = new TextEncoder()

async function signsMessage(client: Client, message: string): Promise<void> {
  const signature = await client.signMessage(message)
  expect(wallet.received.at(-1)).toBe('solana_signMessage')
  expect(
    ed25519.verify(base58.decode(signature), encoder.encode(message), wallet.solanaKey.publicKey),
  ).toBe(true)
}

/** The wallet's session topics (what it still holds). */
const walletSessions = () => wallet.client.session.getAll().map((s) => s.topic)

describe('selectWallet on solana routes to WalletConnect (ClientOptions.walletConnect)', () => {
  it('a desktop without the extension: Trust on solana pairs over WalletConnect, signs, disconnects', async () => {
    const client = newClient(false)
    const connector = await client.selectWallet('trust', { namespace: 'solana' })
    expect(connector.id).toBe('walletconnect')
    const connection = await client.connect()
    expect(connection).toMatchObject({
      namespace: 'solana',
      chainId: SOLANA_DEVNET,
      accounts: [wallet.solanaKey.address],
    })
    expect(client.getView()).toMatchObject({
      isConnected: true,
      walletId: 'trust',
      address: wallet.solanaKey.address,
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
    expect((await client.connect()).accounts).toEqual([wallet.solanaKey.address])
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
    const afterFirst = relay.connections()
    await client.disconnect()
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).namespace).toBe('solana')
    expect(relay.connections()).toBe(afterFirst)
    await signsMessage(client, 'the second namespace on the same sign-client')
  }, 30_000)

  it('a Solana WalletConnect session resumes silently after a reload (same stores); no new proposal', async () => {
    const storage = new MemoryWalletConnectStorage()
    const connectionStore = createMemoryConnectionStore()
    const first = newClient(true, {
      connectionStore,
      walletConnect: testWalletConnectOptions(relay.url, [SOLANA_DEVNET], { storage }),
    })
    await first.selectWallet('walletconnect', { namespace: 'solana' })
    await first.connect()
    const proposals = relay.requests.filter((m) => m === 'wc_proposeSession').length
    // A reload: a new Client (so a new sign-client) on the same stores.
    const second = newClient(true, {
      connectionStore,
      walletConnect: testWalletConnectOptions(relay.url, [SOLANA_DEVNET], { storage }),
    })
    const resumed = await second.resume()
    expect(resumed.status).toBe('connected')
    expect(second.getView()).toMatchObject({
      isConnected: true,
      address: wallet.solanaKey.address,
      walletId: 'walletconnect',
    })
    expect(relay.requests.filter((m) => m === 'wc_proposeSession').length).toBe(proposals)
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
    const { transaction, message } = unsignedLegacyTransaction(wallet.solanaKey.publicKey)
    const sent = solana.sent.size
    const answer = await client.signTransaction(transaction)
    expect(wallet.received.at(-1)).toBe('solana_signTransaction')
    // WalletConnect's params: the base64 transaction and the signer's pubkey.
    expect(wallet.receivedParams.at(-1)).toEqual({
      transaction,
      pubkey: wallet.solanaKey.address,
    })
    const signed = base64.decode(answer.signedTransaction as string)
    const signature = signed.slice(1, 65)
    expect(ed25519.verify(signature, message, wallet.solanaKey.publicKey)).toBe(true)
    expect(signed.slice(65)).toEqual(message)
    // Signed, not sent.
    expect(solana.sent.size).toBe(sent)
  }, 30_000)

  it('a wallet that answers only { signature } (the older answer): the signature comes back', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    wallet.signTransactionAnswer = 'signature'
    const { transaction, message } = unsignedLegacyTransaction(wallet.solanaKey.publicKey)
    const answer = await client.signTransaction(transaction)
    expect(answer.signedTransaction).toBeUndefined()
    expect(
      ed25519.verify(
        base58.decode(answer.signature as string),
        message,
        wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)

  it('a garbage or empty answer is WALLET_ERROR, never a raw TypeError; the next call works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const { transaction, message } = unsignedLegacyTransaction(wallet.solanaKey.publicKey)
    for (const answer of ['garbage', 'empty'] as const) {
      wallet.signTransactionAnswer = answer
      const error = await failure(client.signTransaction(transaction))
      expect(error?.code).toBe('WALLET_ERROR')
      expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })
    }
    wallet.signTransactionAnswer = 'transaction'
    const signed = base64.decode(
      (await client.signTransaction(transaction)).signedTransaction ?? '',
    )
    expect(ed25519.verify(signed.slice(1, 65), message, wallet.solanaKey.publicKey)).toBe(true)
  }, 30_000)

  it('sendTransaction still goes through solana_signAndSendTransaction, watched to confirmed', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const handle = await client.sendTransaction(
      unsignedLegacyTransaction(wallet.solanaKey.publicKey),
    )
    expect(wallet.received.at(-1)).toBe('solana_signAndSendTransaction')
    expect(solana.sent.has(handle.hash)).toBe(true)
    solana.setSignatureStatus(handle.hash, {
      slot: 7_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    solana.setSlot(7_001)
    expect(await handle.wait()).toMatchObject({ status: 'confirmed', hash: handle.hash })
  }, 30_000)
})

describe('failure twins on solana through the option: after each, the next call works', () => {
  it('the wallet rejects the proposal: USER_REJECTED; the next selectWallet + connect works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    wallet.proposals = 'reject'
    expect((await failure(client.connect()))?.code).toBe('USER_REJECTED')
    expect(client.getView()).toMatchObject({ isConnected: false, pairingUri: null })
    wallet.proposals = 'approve'
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).namespace).toBe('solana')
    await signsMessage(client, 'after a rejected proposal')
  }, 30_000)

  it('the wallet never answers the proposal: TIMEOUT (walletAnswerMs); the next connect works', async () => {
    const client = newClient(false, { timeouts: { walletAnswerMs: 1_500 } })
    await client.selectWallet('trust', { namespace: 'solana' })
    wallet.proposals = 'hang'
    expect((await failure(client.connect()))?.code).toBe('TIMEOUT')
    expect(client.getView()).toMatchObject({ isConnected: false, pairingUri: null })
    wallet.proposals = 'approve'
    await client.selectWallet('trust', { namespace: 'solana' })
    expect((await client.connect()).accounts).toEqual([wallet.solanaKey.address])
  }, 30_000)

  it('requests: rejects → USER_REJECTED, errors → WALLET_ERROR, never answers → TIMEOUT (signatureMs), for signMessage and signTransaction; the next call works', async () => {
    const client = newClient(false, { timeouts: { signatureMs: 1_500 } })
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const { transaction } = unsignedLegacyTransaction(wallet.solanaKey.publicKey)
    const calls = [() => client.signMessage('no'), () => client.signTransaction(transaction)]
    for (const [mode, code] of [
      ['reject', 'USER_REJECTED'],
      ['error', 'WALLET_ERROR'],
      ['hang', 'TIMEOUT'],
    ] as const) {
      for (const call of calls) {
        wallet.requests = mode
        expect((await failure(call()))?.code).toBe(code)
        // The user dismisses a hung prompt (the wallet shows the next one only after it).
        wallet.requests = 'approve'
        await wallet.rejectHung()
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
    const publishes = relay.requests.filter((m) => m === 'irn_publish').length
    const signing = client.signMessage('dropped mid-request')
    await relay.waitFor('irn_publish', publishes + 1)
    relay.dropConnections()
    const signature = await signing
    expect(
      ed25519.verify(
        base58.decode(signature),
        encoder.encode('dropped mid-request'),
        wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
    await signsMessage(client, 'after the drop')
  }, 40_000)

  it('the wallet deletes the session: the Client is disconnected; the next connect works', async () => {
    const client = newClient(false)
    await client.selectWallet('trust', { namespace: 'solana' })
    await client.connect()
    const topic = walletSessions().at(-1) as string
    await wallet.deleteSession(topic)
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
