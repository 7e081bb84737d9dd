import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
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
import { Client } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection'
import { WalletConnectConnector } from '../src/connectors'
import type { AppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { unsignedLegacyTransaction } from './support/solana-cluster'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from './support/walletconnect-relay-double'
import {
  pairFromView,
  startWalletConnectWallet,
  type TestWalletConnectWallet,
  testWalletConnectOptions,
} from './support/walletconnect-wallet'

// The Client on Solana over WalletConnect: the real sign-client on both sides, the wallet's a real
// ed25519 key answering WalletConnect's Solana RPC (`solana_signMessage`: base58 message →
// base58 signature; `solana_signAndSendTransaction`: base64 transaction → signature, broadcast to
// the Solana JSON-RPC TEST DOUBLE, no validator runs here), the relay double between them, and the
// real backend watching the signature's status on the same cluster double.

let solana: SolanaRpcDouble
let server: TestServer
let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet
const clients: Client[] = []

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 5_000 })
  server = await startTestServer({
    projects: {
      projects: [{ ...TEST_PROJECT, networks: [{ chainId: SOLANA_DEVNET, rpcUrl: solana.url }] }],
    },
    transactions: { blockPollMs: 50 },
  })
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url, solanaRpcUrl: solana.url })
  wallet.chains = [SOLANA_DEVNET]
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
  await wallet.rejectHung()
  for (const client of clients.splice(0)) await client.disconnect().catch(() => {})
})

function newClient(timeouts?: { signatureMs?: number }): Client {
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    mobile: false,
    connectionStore: createMemoryConnectionStore(),
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    connectors: [new WalletConnectConnector(testWalletConnectOptions(relay.url, [SOLANA_DEVNET]))],
    ...(timeouts ? { timeouts } : {}),
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

describe('Client + WalletConnectConnector on Solana', () => {
  it('connects on the solana namespace with the wallet’s ed25519 account', async () => {
    const client = newClient()
    const connection = await client.connect()
    expect(connection.namespace).toBe('solana')
    expect(connection.chainId).toBe(SOLANA_DEVNET)
    expect(connection.accounts).toEqual([wallet.solanaKey.address])
    expect(client.getView()).toMatchObject({
      isConnected: true,
      address: wallet.solanaKey.address,
      pairingUri: null,
    })
  }, 30_000)

  it('signMessage: solana_signMessage, the signature verified with ed25519', async () => {
    const client = newClient()
    await client.connect()
    const signature = await client.signMessage('hello solana over walletconnect')
    expect(wallet.received.at(-1)).toBe('solana_signMessage')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('hello solana over walletconnect'),
        wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)

  it('sendTransaction: solana_signAndSendTransaction, then watched through the backend to confirmed', async () => {
    const client = newClient()
    await client.connect()
    const { transaction, message } = unsignedLegacyTransaction(wallet.solanaKey.publicKey)
    const handle = await client.sendTransaction({ transaction })
    expect(wallet.received.at(-1)).toBe('solana_signAndSendTransaction')
    expect(handle.chainId).toBe(SOLANA_DEVNET)
    expect(ed25519.verify(base58.decode(handle.hash), message, wallet.solanaKey.publicKey)).toBe(
      true,
    )
    expect(solana.sent.has(handle.hash)).toBe(true)
    solana.setSignatureStatus(handle.hash, {
      slot: 5_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    solana.setSlot(5_001)
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash })
  }, 30_000)

  it('wallet errors map to documented codes (rejects → USER_REJECTED, errors → WALLET_ERROR, hangs → TIMEOUT); the next call works', async () => {
    const client = newClient({ signatureMs: 1_500 })
    await client.connect()
    wallet.requests = 'reject'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    const before = solana.sent.size
    expect(
      (await failure(client.sendTransaction(unsignedLegacyTransaction(wallet.solanaKey.publicKey))))
        ?.code,
    ).toBe('USER_REJECTED')
    expect(solana.sent.size).toBe(before)
    // A Solana wallet's rejection phrased in the message (a generic code) is a rejection too.
    wallet.requests = 'rejectPhrased'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    wallet.requests = 'error'
    expect((await failure(client.signMessage('no')))?.code).toBe('WALLET_ERROR')
    wallet.requests = 'hang'
    expect((await failure(client.signMessage('never')))?.code).toBe('TIMEOUT')
    wallet.requests = 'approve'
    await wallet.rejectHung()
    const signature = await client.signMessage('yes')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('yes'),
        wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)
})
