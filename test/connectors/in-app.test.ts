import { getWallets } from '@wallet-standard/app'
import { announceProvider, type EIP1193Provider } from 'mipd'
import { type Hex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { connectorKindForWallet, walletPaths } from '../../src/connectors/connector-kind'
import { isAppError } from '../../src/errors'
import { getWalletInfo, resolveWalletInfo, supportWallets } from '../../src/registry'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { createTestSolanaWallet } from '../support/wallet-standard-wallet'
import { installBrowserWindow } from './browser-window'

// Issue 26 item 2: inside a wallet's in-app browser (a phone, the wallet's provider in the page) the
// injected path is taken; the mobile paths are for phone pages outside any wallet. The decision is
// pure (`walletPaths`, `connectorKindForWallet`); the Client reads the page (`isWalletInjected`).
// Real parts: viem-keyed EIP-1193 wallets on anvil, a Wallet Standard wallet with real ed25519 keys,
// happy-dom's window and events.

const ICON = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>' as const

describe('the decision (pure)', () => {
  it('a phone with the wallet injected (in-app) takes the injected connector; outside it, the mobile path', () => {
    const metamask = getWalletInfo('metamask')
    expect(connectorKindForWallet(metamask, 'eip155', true, true)).toBe('eip6963')
    expect(connectorKindForWallet(metamask, 'eip155', true, false)).toBe('metamask-sdk')
    expect(connectorKindForWallet(metamask, 'eip155', true)).toBe('metamask-sdk')
    const phantom = getWalletInfo('phantom')
    expect(connectorKindForWallet(phantom, 'solana', true, true)).toBe('solana-injected')
    expect(connectorKindForWallet(phantom, 'eip155', true, true)).toBe('eip6963')
    const coinbase = getWalletInfo('coinbase')
    expect(connectorKindForWallet(coinbase, 'eip155', true, true)).toBe('eip6963')
    expect(connectorKindForWallet(coinbase, 'eip155', true, false)).toBe('coinbase-sdk')
  })

  it('a desktop takes the extension, and the Coinbase SDK only when the extension is known to be missing', () => {
    const coinbase = getWalletInfo('coinbase')
    expect(connectorKindForWallet(coinbase, 'eip155', false)).toBe('eip6963')
    expect(connectorKindForWallet(coinbase, 'eip155', false, true)).toBe('eip6963')
    expect(connectorKindForWallet(coinbase, 'eip155', false, false)).toBe('coinbase-sdk')
    // No SDK: still the extension (its absence is reported by the connector's discovery).
    expect(connectorKindForWallet(getWalletInfo('rainbow'), 'eip155', false, false)).toBe('eip6963')
  })

  it('a phone wallet whose only paths are WalletConnect is WALLET_UNAVAILABLE here, naming its paths', () => {
    let error: unknown
    try {
      connectorKindForWallet(getWalletInfo('rainbow'), 'eip155', true, false)
    } catch (caught) {
      error = caught
    }
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toContain('walletconnect')
    // In Rainbow's own browser it connects.
    expect(connectorKindForWallet(getWalletInfo('rainbow'), 'eip155', true, true)).toBe('eip6963')
  })

  it('every built-in wallet: in-app puts the injected path first, the phone never offers it', () => {
    for (const wallet of supportWallets) {
      for (const namespace of wallet.namespaces) {
        const phone = walletPaths(wallet, namespace, 'phone')
        const inApp = walletPaths(wallet, namespace, 'in-app')
        expect(phone.filter((p) => ['eip6963', 'injected', 'wallet-standard'].includes(p))).toEqual(
          [],
        )
        if (wallet.injected?.namespaces.includes(namespace)) {
          expect(['eip6963', 'injected', 'wallet-standard']).toContain(inApp[0])
          // The injected kind wins whenever the wallet is in the page.
          expect(['eip6963', 'injected', 'solana-injected']).toContain(
            connectorKindForWallet(wallet, namespace, true, true),
          )
        }
        expect(inApp.slice(inApp.length - phone.length)).toEqual(phone)
      }
    }
  })

  it('an unknown announced wallet (eip6963:{rdns}, wallet-standard:{name}) has the injected path only', () => {
    const evm = resolveWalletInfo('eip6963:io.example.wallet')
    expect(walletPaths(evm, 'eip155', 'desktop')).toEqual(['eip6963'])
    expect(walletPaths(evm, 'eip155', 'in-app')).toEqual(['eip6963'])
    expect(walletPaths(evm, 'eip155', 'phone')).toEqual([])
    const solana = resolveWalletInfo('wallet-standard:Example')
    expect(walletPaths(solana, 'solana', 'in-app')).toEqual(['wallet-standard'])
    expect(connectorKindForWallet(solana, 'solana', true, true)).toBe('solana-injected')
  })
})

type ClientModule = typeof import('../../src/client')

const anvil = sharedAnvil()
let window: { ethereum?: unknown }
let client: ClientModule
const cleanups: (() => void)[] = []

afterAll(async () => {})
beforeEach(async () => {
  window = installBrowserWindow() as unknown as { ethereum?: unknown }
  vi.resetModules()
  client = await import('../../src/client')
})
afterEach(() => {
  for (const stop of cleanups.splice(0)) stop()
  vi.unstubAllGlobals()
})

function announce(rdns: string, name: string, provider: TestEip1193Wallet): void {
  const info = { uuid: crypto.randomUUID(), name, icon: ICON, rdns }
  cleanups.push(announceProvider({ info, provider: provider as unknown as EIP1193Provider }))
}

/** A phone Client (as `detectMobile()` decides on an iPhone or Android user agent). */
const phoneClient = () =>
  new client.Client({
    baseUrl: 'http://127.0.0.1:1',
    appKey: 'k',
    mobile: true,
    connectionStore: null,
    timeouts: { discoveryMs: 50, walletAnswerMs: 2_000 },
  })

describe('a phone Client inside a wallet (in-app browser)', () => {
  it('MetaMask announcing itself (EIP-6963): selectWallet("metamask") connects and signs through it, not the SDK', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    window.ethereum = Object.assign(wallet, { isMetaMask: true })
    announce('io.metamask', 'MetaMask', wallet)
    const c = phoneClient()
    const connector = await c.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('eip6963:io.metamask')
    const connection = await c.connect()
    expect(connection).toMatchObject({ walletId: 'metamask', connectorId: 'eip6963:io.metamask' })
    const signature = (await c.signMessage('in-app hello')) as Hex
    expect(
      await verifyMessage({
        address: wallet.accounts[0]!.address,
        message: 'in-app hello',
        signature,
      }),
    ).toBe(true)
    expect(wallet.requests.map((r) => r.method)).toContain('personal_sign')
  })

  it('a window.ethereum that does not announce itself but carries the flag (isRainbow) is taken too', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    window.ethereum = Object.assign(wallet, { isRainbow: true })
    const c = phoneClient()
    await c.selectWallet('rainbow', { namespace: 'eip155' })
    const connection = await c.connect()
    expect(connection).toMatchObject({ walletId: 'rainbow', connectorId: 'injected' })
  })

  it('Phantom on Solana inside its browser (Wallet Standard): connects and signs', async () => {
    const phantom = createTestSolanaWallet({ name: 'Phantom' })
    cleanups.push(getWallets().register(phantom.wallet))
    const c = phoneClient()
    await c.selectWallet('phantom', { namespace: 'solana' })
    const connection = await c.connect()
    expect(connection).toMatchObject({ walletId: 'phantom', connectorId: 'solana:phantom' })
    expect(connection.accounts[0]).toBe(phantom.key.address)
    expect(typeof (await c.signMessage('gm'))).toBe('string')
  })

  it('error: the in-app wallet rejects (USER_REJECTED), errors (WALLET_ERROR); the next connect works', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    window.ethereum = Object.assign(wallet, { isMetaMask: true })
    announce('io.metamask', 'MetaMask', wallet)
    const c = phoneClient()
    await c.selectWallet('metamask', { namespace: 'eip155' })
    wallet.rejectNextRequest('eth_requestAccounts')
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'USER_REJECTED')).toBe(true)
    wallet.rejectNextRequest('eth_requestAccounts', -32603)
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'WALLET_ERROR')).toBe(true)
    expect((await c.connect()).walletId).toBe('metamask')
  })

  it('outside the wallet (another wallet in the page), the mobile path is kept: MetaMask goes to its SDK', async () => {
    const other = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    announce('io.rabby', 'Rabby', other)
    const c = phoneClient()
    const connector = await c.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('metamask')
    expect(connector.constructor.name).toBe('MetaMaskSdkConnector')
  })
})
