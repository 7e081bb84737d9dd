import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { getWallets } from '@wallet-standard/app'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
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
import { SolanaInjectedConnector } from '../src/connectors/solana-injected'
import { type AppError, isAppError } from '../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { createMemoryTransactionStore } from '../src/transaction'
import { createMemoryUniversalLinkStore } from '../src/universal-link/memory-store'
import { withTestPartnerWallet } from './support/partner-project'
import { unsignedLegacyTransaction } from './support/solana-cluster'
import { createTestSolanaWallet, type TestSolanaWallet } from './support/wallet-standard-wallet'

// `Client.sendTransaction` on Solana: a Wallet Standard wallet with a real ed25519 key signs and
// broadcasts (`solana:signAndSendTransaction`, JSON-RPC `sendTransaction`) to the Solana JSON-RPC
// TEST DOUBLE (no validator runs here; it verifies the signatures), and the real backend reads the
// signature's status from the same double. The dApp's only HTTP peer is the backend.

let solana: SolanaRpcDouble
let server: TestServer
const dappFetches: string[] = []
let unregister: (() => void) | undefined

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 5_000 })
  server = await startTestServer({
    projects: {
      projects: [
        withTestPartnerWallet({
          ...TEST_PROJECT,
          networks: [{ chainId: SOLANA_DEVNET, rpcUrl: solana.url }],
        }),
      ],
    },
    transactions: { blockPollMs: 50 },
  })
})
afterAll(async () => {
  await server?.close()
  await solana?.close()
})
afterEach(() => {
  unregister?.()
  unregister = undefined
})

const dappFetch: typeof fetch = async (input, init) => {
  dappFetches.push(input instanceof Request ? input.url : String(input))
  return fetch(input, init)
}

async function connected(
  options: { without?: string[] } = {},
): Promise<{ client: Client; wallet: TestSolanaWallet }> {
  const wallet = createTestSolanaWallet({ name: 'Phantom', rpcUrl: solana.url, ...options })
  unregister = getWallets().register(wallet.wallet)
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    connectors: [new SolanaInjectedConnector({ walletId: 'phantom', chainId: SOLANA_DEVNET })],
    mobile: false,
    fetchImpl: dappFetch,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
  })
  await client.connect()
  return { client, wallet }
}

/** The cluster double confirms `signature` at `slot`, which becomes its head. */
function confirmAt(signature: string, slot: number) {
  solana.setSignatureStatus(signature, { slot, confirmationStatus: 'confirmed', err: null })
  solana.setSlot(slot)
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )
const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('Client.sendTransaction on Solana (Wallet Standard, test double cluster)', () => {
  it('default: the wallet signs and sends; wait() settles through the backend once the signature is confirmed', async () => {
    const { client, wallet } = await connected()
    const { transaction, message } = unsignedLegacyTransaction(wallet.key.publicKey)
    dappFetches.length = 0
    const handle = await client.sendTransaction({ transaction })
    // The hash is the transaction's signature: the wallet's real ed25519 signature of the message.
    expect(handle.chainId).toBe(SOLANA_DEVNET)
    expect(ed25519.verify(base58.decode(handle.hash), message, wallet.key.publicKey)).toBe(true)
    expect(solana.sent.has(handle.hash)).toBe(true)
    expect(wallet.lastChain).toBe('solana:devnet')
    await until(() => client.getView().transaction?.stage === 'pending')
    expect(client.getView()).toMatchObject({
      pending: 'transaction',
      transaction: { hash: handle.hash },
    })

    solana.setSignatureStatus(handle.hash, {
      slot: 5_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    solana.setSlot(5_001)
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash, blockNumber: 5_000n })
    expect(receipt.confirmations).toBeGreaterThanOrEqual(1)
    expect(client.getView()).toMatchObject({ pending: null, transaction: { stage: 'confirmed' } })
    // The dApp asked only the backend (the config and the signature's status), never the cluster.
    expect(
      dappFetches.filter((url) => !url.startsWith(`${server.baseUrl}/api/v1/connect/`)),
    ).toEqual([])
    expect(dappFetches.some((url) => url.includes('/transactions?'))).toBe(true)
  })

  it('failure: the wallet rejects (USER_REJECTED), nothing is sent; then the next send succeeds', async () => {
    const { client, wallet } = await connected()
    const before = solana.sent.size
    wallet.rejectNext()
    const error = await failure(
      client.sendTransaction(unsignedLegacyTransaction(wallet.key.publicKey)),
    )
    expect(error?.code).toBe('USER_REJECTED')
    expect(solana.sent.size).toBe(before)
    const handle = await client.sendTransaction(unsignedLegacyTransaction(wallet.key.publicKey))
    expect(solana.sent.has(handle.hash)).toBe(true)
  })

  it('failure: the transaction fails on chain (err in its status) → TRANSACTION_REVERTED with the error', async () => {
    const { client, wallet } = await connected()
    const handle = await client.sendTransaction(unsignedLegacyTransaction(wallet.key.publicKey))
    solana.setSignatureStatus(handle.hash, {
      slot: 5_001,
      confirmationStatus: 'confirmed',
      err: { InstructionError: [0, 'Custom'] },
    })
    const error = await failure(handle.wait())
    expect(error?.code).toBe('TRANSACTION_REVERTED')
    expect(error?.message).toContain('InstructionError')
  })

  it('failure: a wallet without solana:signAndSendTransaction → WALLET_UNAVAILABLE; the connection stays', async () => {
    const { client, wallet } = await connected({ without: ['solana:signAndSendTransaction'] })
    const error = await failure(
      client.sendTransaction(unsignedLegacyTransaction(wallet.key.publicKey)),
    )
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect(client.getView().isConnected).toBe(true)
  })
})

describe('Client.sendTransaction over a universal link (mobile, wallet simulator)', () => {
  function mobileClient(
    transactionStore = createMemoryTransactionStore(),
    linkStore = createMemoryUniversalLinkStore(),
    links: string[] = [],
  ) {
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      mobile: true,
      // The sc* universal links are a partner wallet's protocol; no built-in brand declares them.
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      universalLink: {
        store: linkStore,
        openLink: (url: string) => links.push(url),
        returnUrl: 'https://dapp.example/',
        pollIntervalMs: 20,
      },
      transactions: { store: transactionStore, timeouts: { retryMs: 50 } },
    })
    return { client, links, transactionStore }
  }

  it('the link carries the transaction; the wallet answers /callback/transaction; the machine watches its signature to confirmed', async () => {
    const { wallet, client, links, transactionStore } = await connectedOverLink()

    const { transaction } = unsignedLegacyTransaction(base58.decode(wallet.address))
    const sending = client.sendTransaction({ transaction })
    await until(() => links.length === 2)
    const link = new URL(links[1] ?? '')
    expect(link.searchParams.get('scMethod')).toBe('signTransaction')
    expect(client.getView().pending).toBe('sign')
    const answered = await wallet.handle(links[1] ?? '')
    expect(answered).toMatchObject({ method: 'signTransaction', callbackStatus: 204 })
    const handle = await sending
    expect(handle.hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    await until(
      () =>
        client.getView().transaction?.stage === 'submitted' ||
        client.getView().transaction?.stage === 'pending',
    )
    // Kept for a reload while it waits for its receipt.
    expect(transactionStore.load()).toMatchObject({ chainId: SOLANA_DEVNET, hash: handle.hash })

    confirmAt(handle.hash, 5_010)
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash, blockNumber: 5_010n })
    expect(client.getView()).toMatchObject({
      status: 'connected',
      transaction: { stage: 'confirmed' },
    })
    expect(transactionStore.load()).toBeNull()
  })

  /** A mobile Client connected to the simulated partner wallet over the universal link. */
  async function connectedOverLink(...args: Parameters<typeof mobileClient>) {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const made = mobileClient(...args)
    await made.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = made.client.connect()
    await until(() => made.links.length === 1)
    await wallet.handle(made.links[0] ?? '')
    await connecting
    return { ...made, wallet }
  }

  /** Connects over the link, asks for a transaction, and lets the page go while the wallet is asked. */
  async function reloadWhileAsked() {
    const stores = [createMemoryTransactionStore(), createMemoryUniversalLinkStore()] as const
    const links: string[] = []
    const { wallet, client: before } = await connectedOverLink(...stores, links)
    void before
      .sendTransaction(unsignedLegacyTransaction(base58.decode(wallet.address)))
      .catch(() => {})
    await until(() => links.length === 2)
    before.actor.stop() // the page goes away; only storage survives
    const reload = () => mobileClient(...stores, links).client
    return { wallet, link: links[1] ?? '', links, transactionStore: stores[0], reload }
  }

  it('a reload while the wallet is asked: resume() picks the flow up and the transaction the wallet sends is watched to confirmed', async () => {
    const { wallet, link, transactionStore, reload } = await reloadWhileAsked()
    await wallet.handle(link) // the wallet sends it and answers while the dApp's page is gone
    const after = reload()
    const resumed = await after.resume()
    expect(resumed.status).toBe('awaitingSignature')
    const handle = await (resumed.status === 'awaitingSignature' && resumed.transaction?.())
    if (!handle) throw new Error('resume() offered no transaction')
    expect(handle).toMatchObject({ chainId: SOLANA_DEVNET })
    expect(handle.hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    await until(() => after.getView().transaction?.hash === handle.hash)
    expect(transactionStore.load()).toMatchObject({ chainId: SOLANA_DEVNET, hash: handle.hash })

    confirmAt(handle.hash, 5_020)
    expect(await handle.wait()).toMatchObject({ status: 'confirmed', hash: handle.hash })
    expect(after.getView()).toMatchObject({
      status: 'connected',
      transaction: { stage: 'confirmed' },
    })
    expect(transactionStore.load()).toBeNull()
  })

  it('failure: a reload while the wallet is asked, then the wallet rejects → USER_REJECTED, nothing watched; the next send works', async () => {
    const { wallet, link, links, reload } = await reloadWhileAsked()
    const after = reload()
    const resumed = await after.resume()
    const watching = failure(
      (resumed.status === 'awaitingSignature' && resumed.transaction?.()) || Promise.resolve(),
    )
    await wallet.handle(link, 'reject')
    expect((await watching)?.code).toBe('USER_REJECTED')
    // As without a reload: a refused link request ends the link session, nothing is watched.
    expect(after.getView()).toMatchObject({
      status: 'disconnected',
      error: { code: 'USER_REJECTED' },
      transaction: null,
    })
    // The next call works: connect again over the link.
    const connecting = after.connect()
    await until(() => links.length === 3)
    await wallet.handle(links[2] ?? '')
    expect(await connecting).toMatchObject({ accounts: [wallet.address] })
  })

  it('failure: the wallet rejects the transaction → USER_REJECTED and nothing is watched', async () => {
    const { wallet, client, links } = await connectedOverLink()
    const sending = failure(
      client.sendTransaction(unsignedLegacyTransaction(base58.decode(wallet.address))),
    )
    await until(() => links.length === 2)
    await wallet.handle(links[1] ?? '', 'reject')
    expect((await sending)?.code).toBe('USER_REJECTED')
    expect(client.getView().transaction).toBeNull()
  })

  it('failure: an EVM-shaped request over the link → INVALID_CONFIG, no link opened', async () => {
    const { wallet, client, links } = await connectedOverLink()
    const error = await failure(client.sendTransaction({ to: wallet.address, value: 1n }))
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(links.length).toBe(1)
  })
})
