import { getWallets } from '@wallet-standard/app'
import { describe, expect, it, vi } from 'vitest'
import {
  createConnectorForWallet,
  Eip6963Connector,
  InjectedConnector,
  MetaMaskSdkConnector,
  PhantomLinkConnector,
  SolanaInjectedConnector,
} from '../../src/connectors'
import type { IWalletConnector } from '../../src/connectors/types'
import { isAppError } from '../../src/errors'
import { clearPartnerWallets, getWalletInfo, registerPartnerWallets } from '../../src/registry'
import type { SupportWalletInfo } from '../../src/registry/types'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../../src/testing'
import { createTestSolanaWallet } from '../support/wallet-standard-wallet'
import { installBrowserWindow } from './browser-window'

/** Stands in for the lead's UniversalLinkConnector: records which wallet it was built for. */
function universalLinkFactory(built: string[]) {
  return (info: SupportWalletInfo): IWalletConnector => {
    built.push(info.id)
    return new InjectedConnector()
  }
}

const noRdns: SupportWalletInfo = {
  id: 'plain-evm',
  name: 'Plain EVM',
  homepage: 'https://plain.example',
  namespaces: ['eip155'],
  injected: { namespaces: ['eip155'] },
}

describe('createConnectorForWallet', () => {
  it.each([
    ['metamask', 'eip155', Eip6963Connector, 'eip6963:io.metamask'],
    ['rabby', 'eip155', Eip6963Connector, 'eip6963:io.rabby'],
    ['phantom', 'eip155', Eip6963Connector, 'eip6963:app.phantom'],
    ['phantom', 'solana', SolanaInjectedConnector, 'solana:phantom'],
    ['solflare', 'solana', SolanaInjectedConnector, 'solana:solflare'],
  ] as const)('desktop %s on %s → %o', (walletId, namespace, type, id) => {
    const connector = createConnectorForWallet(getWalletInfo(walletId), namespace)
    expect(connector).toBeInstanceOf(type)
    expect(connector.id).toBe(id)
  })

  it('desktop EVM wallet without an rdns → InjectedConnector', () => {
    const connector = createConnectorForWallet(noRdns, 'eip155')
    expect(connector).toBeInstanceOf(InjectedConnector)
    expect(connector.id).toBe('injected')
  })

  it('desktop Solana finds the wallet by its Wallet Standard name, on the chosen chain', async () => {
    // The registry names it "Trust Wallet"; the extension registers as "Trust".
    const trust = createTestSolanaWallet({ name: 'Trust' })
    const unregister = getWallets().register(trust.wallet)
    try {
      const connector = createConnectorForWallet(getWalletInfo('trust'), 'solana', {
        solanaChainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      })
      expect(connector).toBeInstanceOf(SolanaInjectedConnector)
      expect(await connector.connect()).toMatchObject({
        walletId: 'trust',
        chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
        accounts: [trust.key.address],
      })
    } finally {
      unregister()
    }
  })

  it('passes the EIP-6963 timeout through', async () => {
    installBrowserWindow()
    try {
      const connector = createConnectorForWallet(getWalletInfo('metamask'), 'eip155', {
        eip6963TimeoutMs: 5,
      })
      const error = await connector.connect().catch((e: unknown) => e)
      expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
      expect((error as Error).message).toContain('within 5 ms')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('mobile MetaMask on eip155 → MetaMaskSdkConnector', () => {
    const connector = createConnectorForWallet(getWalletInfo('metamask'), 'eip155', {
      mobile: true,
    })
    expect(connector).toBeInstanceOf(MetaMaskSdkConnector)
    expect(connector.id).toBe('metamask')
  })

  it('mobile partner wallet on solana → the universal-link factory', () => {
    const [partner] = registerPartnerWallets([TEST_PARTNER_WALLET])
    try {
      const built: string[] = []
      const connector = createConnectorForWallet(partner!, 'solana', {
        mobile: true,
        universalLink: universalLinkFactory(built),
      })
      expect(built).toEqual([TEST_PARTNER_WALLET_ID])
      expect(connector).toBeInstanceOf(InjectedConnector)
      let error: unknown
      try {
        createConnectorForWallet(partner!, 'solana', { mobile: true })
      } catch (caught) {
        error = caught
      }
      expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    } finally {
      clearPartnerWallets()
    }
  })

  it.each(['phantom', 'solflare'])(
    'mobile %s on solana → its Phantom deeplinks, never the sc* universal link',
    (walletId) => {
      const built: string[] = []
      const connector = createConnectorForWallet(getWalletInfo(walletId), 'solana', {
        mobile: true,
        universalLink: universalLinkFactory(built),
      })
      expect(built).toEqual([])
      expect(connector).toBeInstanceOf(PhantomLinkConnector)
    },
  )

  it.each([
    [
      'mobile solana wallet with neither an sc* link nor Phantom deeplinks',
      'backpack',
      'solana',
      true,
      'WALLET_UNAVAILABLE',
    ],
    [
      'mobile solana wallet with no Solana universal link',
      'okx',
      'solana',
      true,
      'WALLET_UNAVAILABLE',
    ],
    ['mobile EVM wallet other than MetaMask', 'rainbow', 'eip155', true, 'WALLET_UNAVAILABLE'],
    ['desktop wallet without that namespace', 'metamask', 'solana', false, 'UNSUPPORTED_CHAIN'],
    ['mobile wallet without that namespace', 'solflare', 'eip155', true, 'UNSUPPORTED_CHAIN'],
  ] as const)('%s → %s', (_case, walletId, namespace, mobile, code) => {
    let error: unknown
    try {
      createConnectorForWallet(getWalletInfo(walletId), namespace, { mobile })
    } catch (caught) {
      error = caught
    }
    expect(isAppError(error, code)).toBe(true)
  })
})
