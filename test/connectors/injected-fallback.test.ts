import { announceProvider, type EIP1193Provider } from 'mipd'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { installBrowserWindow } from './browser-window'

// A known wallet whose extension sits on `window.ethereum` without announcing itself (EIP-6963):
// `selectWallet('metamask')` takes the injected provider at once instead of waiting for an
// announcement that never comes. Real parts: a viem-keyed EIP-1193 wallet on anvil, happy-dom's
// window and events.

type ClientModule = typeof import('../../src/client')
type Connectors = typeof import('../../src/connectors')

const ICON = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>' as const

const anvil = sharedAnvil()
let window: { ethereum?: unknown }
let client: ClientModule
let connectors: Connectors
const unannounce: (() => void)[] = []

afterAll(async () => {})
beforeEach(async () => {
  window = installBrowserWindow() as unknown as { ethereum?: unknown }
  // Fresh modules per test: a page-level EIP-6963 store that has seen no announcement yet.
  vi.resetModules()
  client = await import('../../src/client')
  connectors = await import('../../src/connectors')
})
afterEach(() => {
  for (const stop of unannounce.splice(0)) stop()
  vi.unstubAllGlobals()
})

/** The test wallet on `window.ethereum`, with the provider flags an extension sets. */
async function injected(flags: Record<string, boolean>): Promise<TestEip1193Wallet> {
  const wallet = Object.assign(await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl }), flags)
  window.ethereum = wallet
  return wallet
}

function announce(rdns: string, provider: TestEip1193Wallet): void {
  const info = { uuid: crypto.randomUUID(), name: rdns, icon: ICON, rdns }
  unannounce.push(announceProvider({ info, provider: provider as unknown as EIP1193Provider }))
}

/** A desktop Client that would wait `discoveryMs` for an announcement. */
const newClient = (discoveryMs: number) =>
  new client.Client({
    baseUrl: 'http://127.0.0.1:1',
    appKey: 'k',
    mobile: false,
    connectionStore: null,
    timeouts: { discoveryMs },
  })

describe('the injected fallback of a known wallet that does not announce itself', () => {
  it('default: selectWallet("metamask") takes window.ethereum (isMetaMask) at once: an InjectedConnector', async () => {
    const wallet = await injected({ isMetaMask: true })
    // An hour of discovery: waiting for an announcement would outlast the test.
    const c = newClient(3_600_000)
    const connector = await c.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector).toBeInstanceOf(connectors.InjectedConnector)
    const connection = await c.connect()
    expect(connection).toMatchObject({ walletId: 'metamask', connectorId: 'injected' })
    expect(connection.accounts[0]).toBe(wallet.accounts[0]?.address)
  })

  it('default: createConnectorForWallet picks the same', async () => {
    await injected({ isMetaMask: true })
    const info = (await import('../../src/registry')).getWalletInfo('metamask')
    expect(connectors.createConnectorForWallet(info, 'eip155')).toBeInstanceOf(
      connectors.InjectedConnector,
    )
  })

  it('behavior: a wallet that announces itself is still reached over EIP-6963', async () => {
    const wallet = await injected({ isMetaMask: true })
    announce('io.metamask', wallet)
    const connector = await newClient(50).selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('eip6963:io.metamask')
  })

  it('error: another wallet that sets isMetaMask but announces itself (Rabby) is not taken for MetaMask; selecting it works', async () => {
    const rabby = await injected({ isMetaMask: true, isRabby: true })
    announce('io.rabby', rabby)
    const c = newClient(20)
    const connector = await c.selectWallet('metamask', { namespace: 'eip155' })
    expect(connector.id).toBe('eip6963:io.metamask')
    const error = await c.connect().catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    await c.selectWallet('rabby', { namespace: 'eip155' })
    expect((await c.connect()).walletId).toBe('rabby')
  })

  it('error: a provider without the wallet flag is not taken for it (WALLET_UNAVAILABLE after discovery)', async () => {
    await injected({})
    const c = newClient(20)
    await c.selectWallet('metamask', { namespace: 'eip155' })
    const error = await c.connect().catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    // The default connector still reaches the provider.
    const plain = newClient(20)
    expect((await plain.connect()).connectorId).toBe('injected')
  })
})
