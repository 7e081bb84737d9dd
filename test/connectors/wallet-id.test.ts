import { getWallets } from '@wallet-standard/app'
import { announceProvider, type EIP1193Provider } from 'mipd'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { IWalletConnector } from '../../src/connectors'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { createTestSolanaWallet } from '../support/wallet-standard-wallet'
import { installBrowserWindow } from './browser-window'

// `WalletConnection.walletId` (source document 2.4: "filled by the rule of walletIdForConnectorId",
// 4.3: "injected" and "relay" give undefined) on the connection of every connector the library
// builds, and the injected connector's identification of the extension behind window.ethereum.

type Connectors = typeof import('../../src/connectors')

const anvil = sharedAnvil()
let connectors: Connectors
let window: { ethereum?: unknown }
const cleanups: (() => void)[] = []

afterAll(async () => {})
beforeEach(async () => {
  window = installBrowserWindow() as unknown as { ethereum?: unknown }
  // A fresh EIP-6963 page store per test.
  vi.resetModules()
  connectors = await import('../../src/connectors')
})
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  vi.unstubAllGlobals()
})

function evmWallet(): Promise<TestEip1193Wallet> {
  return createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
}

function announce(rdns: string, provider: TestEip1193Wallet): void {
  cleanups.push(
    announceProvider({
      info: { uuid: crypto.randomUUID(), name: rdns, icon: 'data:image/svg+xml,<svg/>', rdns },
      provider: provider as unknown as EIP1193Provider,
    }),
  )
}

async function walletIdOf(connector: IWalletConnector): Promise<string | undefined> {
  const connection = await connector.connect()
  expect(connection).toHaveProperty('walletId')
  return connection.walletId
}

describe('walletId on every connection', () => {
  it('EIP-6963: by the rdns the connector was made for', async () => {
    announce('io.rabby', await evmWallet())
    expect(await walletIdOf(new connectors.Eip6963Connector('io.rabby'))).toBe('rabby')
  })

  it('EIP-6963 with an rdns no built-in wallet has: the generic id eip6963:{rdns}', async () => {
    announce('com.example.unknown', await evmWallet())
    expect(await walletIdOf(new connectors.Eip6963Connector('com.example.unknown'))).toBe(
      'eip6963:com.example.unknown',
    )
  })

  it('injected: the wallet whose EIP-6963 announcement is the same provider as window.ethereum', async () => {
    const metamask = await evmWallet()
    window.ethereum = metamask
    announce('io.metamask', metamask)
    announce('io.rabby', await evmWallet())
    expect(await walletIdOf(new connectors.InjectedConnector())).toBe('metamask')
  })

  it('injected: undefined when no announcement carries that provider (the rule for "injected")', async () => {
    window.ethereum = await evmWallet()
    announce('io.metamask', await evmWallet()) // another object: not the injected wallet
    expect(await walletIdOf(new connectors.InjectedConnector())).toBeUndefined()
  })

  it('injected: the wallet it was made for, when the caller knows it', async () => {
    window.ethereum = await evmWallet()
    const connector = new connectors.InjectedConnector(undefined, { walletId: 'rainbow' })
    expect(await walletIdOf(connector)).toBe('rainbow')
  })

  it('MetaMask SDK: metamask', async () => {
    const provider = await evmWallet()
    class MetaMaskSDK {
      async init() {}
      getProvider() {
        return provider
      }
    }
    const connector = new connectors.MetaMaskSdkConnector({
      importSdk: async () => ({ MetaMaskSDK }),
    })
    expect(await walletIdOf(connector)).toBe('metamask')
  })

  it('Solana Wallet Standard: the wallet id it was made for; undefined for solana:injected', async () => {
    vi.unstubAllGlobals() // the Wallet Standard registry, as in solana-injected.test.ts: no window
    const phantom = createTestSolanaWallet({ name: 'Phantom' })
    cleanups.push(getWallets().register(phantom.wallet))
    expect(await walletIdOf(new connectors.SolanaInjectedConnector({ walletId: 'phantom' }))).toBe(
      'phantom',
    )
    expect(await walletIdOf(new connectors.SolanaInjectedConnector())).toBeUndefined()
  })

  it('createConnectorForWallet passes the wallet on to every connector it builds', async () => {
    const rabby = connectors.createConnectorForWallet(
      { id: 'rabby', name: 'Rabby', namespaces: ['eip155'], homepage: 'https://rabby.io' },
      'eip155',
    )
    window.ethereum = await evmWallet()
    // A wallet without rdns falls back to the injected connector, which keeps the id.
    expect(rabby.id).toBe('injected')
    expect(await walletIdOf(rabby)).toBe('rabby')
  })
})
