import { getWallets } from '@wallet-standard/app'
import { announceProvider, type EIP1193Provider } from 'mipd'
import { type Hex, verifyMessage } from 'viem'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import { resolveWalletInfo } from '../../src/registry'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { createTestSolanaWallet } from '../support/wallet-standard-wallet'
import { installBrowserWindow } from './browser-window'

// Issue 26 item 3: any wallet that announces itself (EIP-6963) or registers with the Wallet
// Standard connects through a generic connector, `selectWallet('eip6963:{rdns}')` /
// `selectWallet('wallet-standard:{name}')`, with no connector registered by the app; a registry
// wallet named that way keeps its entry. Real parts: viem-keyed EIP-1193 wallets on anvil, a Wallet
// Standard wallet with real ed25519 keys, happy-dom's window and events.

const ICON = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>' as const

describe('resolveWalletInfo', () => {
  it('a built-in slug, and a built-in wallet by its rdns or Wallet Standard name, keep their entry', () => {
    expect(resolveWalletInfo('metamask').walletConnect?.link).toBe('https://metamask.app.link/wc')
    expect(resolveWalletInfo('eip6963:io.metamask').id).toBe('metamask')
    expect(resolveWalletInfo('wallet-standard:Solflare').id).toBe('solflare')
    expect(resolveWalletInfo('wallet-standard:solflare').id).toBe('solflare')
  })

  it('an unknown rdns or name gets a generic entry on its namespace, injected only', () => {
    expect(resolveWalletInfo('eip6963:io.example.wallet')).toEqual({
      id: 'eip6963:io.example.wallet',
      name: 'io.example.wallet',
      homepage: '',
      namespaces: ['eip155'],
      rdns: 'io.example.wallet',
      injected: { namespaces: ['eip155'] },
    })
    expect(resolveWalletInfo('wallet-standard:Example Wallet')).toMatchObject({
      id: 'wallet-standard:Example Wallet',
      namespaces: ['solana'],
      injected: { namespaces: ['solana'], walletStandardName: 'Example Wallet' },
    })
    expect(Object.isFrozen(resolveWalletInfo('eip6963:io.example.wallet'))).toBe(true)
  })

  it.each(['eip6963:', 'wallet-standard:  ', 'nope', 'injected', `eip6963:${'x'.repeat(201)}`])(
    'WALLET_NOT_FOUND for %j',
    (id) => {
      let error: unknown
      try {
        resolveWalletInfo(id)
      } catch (caught) {
        error = caught
      }
      expect(isAppError(error, 'WALLET_NOT_FOUND')).toBe(true)
    },
  )
})

type ClientModule = typeof import('../../src/client')

const anvil = sharedAnvil()
let client: ClientModule
const cleanups: (() => void)[] = []

afterAll(async () => {})
beforeEach(async () => {
  installBrowserWindow()
  vi.resetModules()
  client = await import('../../src/client')
})
afterEach(() => {
  for (const stop of cleanups.splice(0)) stop()
  vi.unstubAllGlobals()
})

function announce(rdns: string, provider: TestEip1193Wallet): void {
  const info = { uuid: crypto.randomUUID(), name: 'Example Wallet', icon: ICON, rdns }
  cleanups.push(announceProvider({ info, provider: provider as unknown as EIP1193Provider }))
}

const newClient = (mobile: boolean, walletAnswerMs = 5_000) =>
  new client.Client({
    baseUrl: 'http://127.0.0.1:1',
    appKey: 'k',
    mobile,
    connectionStore: null,
    timeouts: { discoveryMs: 50, walletAnswerMs },
  })

describe.each([false, true])('an unknown EIP-6963 wallet, mobile %s', (mobile) => {
  it('selectWallet("eip6963:io.example.wallet") connects and signs with no app connector', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    announce('io.example.wallet', wallet)
    const c = newClient(mobile)
    const connector = await c.selectWallet('eip6963:io.example.wallet', { namespace: 'eip155' })
    expect(connector.id).toBe('eip6963:io.example.wallet')
    const connection = await c.connect()
    expect(connection).toMatchObject({
      walletId: 'eip6963:io.example.wallet',
      connectorId: 'eip6963:io.example.wallet',
    })
    const signature = (await c.signMessage('any wallet')) as Hex
    expect(
      await verifyMessage({
        address: wallet.accounts[0]!.address,
        message: 'any wallet',
        signature,
      }),
    ).toBe(true)
  })
})

describe('failure twins of the generic EIP-6963 path (each followed by a call that works)', () => {
  it('the wallet rejects → USER_REJECTED; errors → WALLET_ERROR; hangs → TIMEOUT; then connect and sign work', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    announce('io.example.wallet', wallet)
    const c = newClient(false, 300)
    await c.selectWallet('eip6963:io.example.wallet', { namespace: 'eip155' })
    wallet.rejectNextRequest('eth_requestAccounts')
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'USER_REJECTED')).toBe(true)
    wallet.rejectNextRequest('eth_requestAccounts', -32603)
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'WALLET_ERROR')).toBe(true)
    const release = wallet.holdNextRequest()
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'TIMEOUT')).toBe(true)
    release()
    await c.connect()
    wallet.rejectNextRequest('personal_sign')
    expect(isAppError(await c.signMessage('x').catch((e: unknown) => e), 'USER_REJECTED')).toBe(
      true,
    )
    expect(typeof (await c.signMessage('y'))).toBe('string')
  })

  it('a wallet that never announced → WALLET_UNAVAILABLE (not WALLET_NOT_FOUND); once it announces, connect works', async () => {
    const c = newClient(false)
    await c.selectWallet('eip6963:io.late.wallet', { namespace: 'eip155' })
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'WALLET_UNAVAILABLE')).toBe(true)
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    announce('io.late.wallet', wallet)
    expect((await c.connect()).walletId).toBe('eip6963:io.late.wallet')
  })

  it('a generic EVM wallet asked for Solana → UNSUPPORTED_CHAIN; an unknown id form → WALLET_NOT_FOUND', async () => {
    const c = newClient(false)
    const chain = await c
      .selectWallet('eip6963:io.example.wallet', { namespace: 'solana' })
      .catch((e: unknown) => e)
    expect(isAppError(chain, 'UNSUPPORTED_CHAIN')).toBe(true)
    const unknown = await c
      .selectWallet('walletconnect:nothing', { namespace: 'eip155' })
      .catch((e: unknown) => e)
    expect(isAppError(unknown, 'WALLET_NOT_FOUND')).toBe(true)
  })
})

describe('an unknown Wallet Standard (Solana) wallet', () => {
  it('selectWallet("wallet-standard:Example Wallet") connects and signs; a rejection → USER_REJECTED, then it works', async () => {
    const example = createTestSolanaWallet({ name: 'Example Wallet' })
    cleanups.push(getWallets().register(example.wallet))
    const c = newClient(true)
    await c.selectWallet('wallet-standard:Example Wallet', { namespace: 'solana' })
    example.rejectNext()
    expect(isAppError(await c.connect().catch((e: unknown) => e), 'USER_REJECTED')).toBe(true)
    const connection = await c.connect()
    expect(connection.walletId).toBe('wallet-standard:Example Wallet')
    expect(connection.accounts[0]).toBe(example.key.address)
    expect(typeof (await c.signMessage('gm'))).toBe('string')
  })
})
