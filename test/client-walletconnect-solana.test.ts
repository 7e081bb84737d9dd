import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import type { Client } from '../src/client'
import { WalletConnectConnector } from '../src/connectors'
import type { AppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { unsignedLegacyTransaction } from './support/solana-cluster'
import { testWalletConnectOptions } from './support/walletconnect-wallet'
import { useWalletConnectWorld } from './support/walletconnect-world'

// The Client on Solana over WalletConnect: the real sign-client on both sides, the wallet's a real
// ed25519 key answering WalletConnect's Solana RPC (`solana_signMessage`: base58 message →
// base58 signature; `solana_signAndSendTransaction`: base64 transaction → signature, broadcast to
// the Solana JSON-RPC TEST DOUBLE, no validator runs here), the relay double between them, and the
// real backend watching the signature's status on the same cluster double.

const world = useWalletConnectWorld({ chains: [SOLANA_DEVNET], solanaSlot: 5_000 })

function newClient(timeouts?: { signatureMs?: number }): Client {
  return world.newClient({
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    connectors: [
      new WalletConnectConnector(testWalletConnectOptions(world.relay.url, [SOLANA_DEVNET])),
    ],
    ...(timeouts ? { timeouts } : {}),
  }).client
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
    expect(connection.accounts).toEqual([world.wallet.solanaKey.address])
    expect(client.getView()).toMatchObject({
      isConnected: true,
      address: world.wallet.solanaKey.address,
      pairingUri: null,
    })
  }, 30_000)

  it('signMessage: solana_signMessage, the signature verified with ed25519', async () => {
    const client = newClient()
    await client.connect()
    const signature = await client.signMessage('hello solana over walletconnect')
    expect(world.wallet.received.at(-1)).toBe('solana_signMessage')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('hello solana over walletconnect'),
        world.wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)

  it('sendTransaction: solana_signAndSendTransaction, then watched through the backend to confirmed', async () => {
    const client = newClient()
    await client.connect()
    const { transaction, message } = unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)
    const handle = await client.sendTransaction({ transaction })
    expect(world.wallet.received.at(-1)).toBe('solana_signAndSendTransaction')
    expect(handle.chainId).toBe(SOLANA_DEVNET)
    expect(
      ed25519.verify(base58.decode(handle.hash), message, world.wallet.solanaKey.publicKey),
    ).toBe(true)
    expect(world.solana.sent.has(handle.hash)).toBe(true)
    world.solana.setSignatureStatus(handle.hash, {
      slot: 5_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    world.solana.setSlot(5_001)
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash })
  }, 30_000)

  it('wallet errors map to documented codes (rejects → USER_REJECTED, errors → WALLET_ERROR, hangs → TIMEOUT); the next call works', async () => {
    const client = newClient({ signatureMs: 1_500 })
    await client.connect()
    world.wallet.requests = 'reject'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    const before = world.solana.sent.size
    expect(
      (
        await failure(
          client.sendTransaction(unsignedLegacyTransaction(world.wallet.solanaKey.publicKey)),
        )
      )?.code,
    ).toBe('USER_REJECTED')
    expect(world.solana.sent.size).toBe(before)
    // A Solana wallet's rejection phrased in the message (a generic code) is a rejection too.
    world.wallet.requests = 'rejectPhrased'
    expect((await failure(client.signMessage('no')))?.code).toBe('USER_REJECTED')
    world.wallet.requests = 'error'
    expect((await failure(client.signMessage('no')))?.code).toBe('WALLET_ERROR')
    world.wallet.requests = 'hang'
    expect((await failure(client.signMessage('never')))?.code).toBe('TIMEOUT')
    world.wallet.requests = 'approve'
    await world.wallet.rejectHung()
    const signature = await client.signMessage('yes')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('yes'),
        world.wallet.solanaKey.publicKey,
      ),
    ).toBe(true)
  }, 30_000)
})
