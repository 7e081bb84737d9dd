import { describe, expect, it } from 'vitest'
import {
  getWalletInfo,
  getWalletNamespaces,
  type SupportWalletInfo,
  supportWallets,
  walletSupportsMobile,
  walletSupportsMobileOn,
  walletSupportsNamespace,
  walletSupportsRelay,
  walletSupportsRelayOn,
} from '../../src/registry'

const bare: SupportWalletInfo = {
  id: 'bare',
  name: 'Bare',
  homepage: 'https://example.com',
  namespaces: ['eip155'],
}

describe('getWalletNamespaces', () => {
  it("returns the wallet's namespaces in its own order", () => {
    expect(getWalletNamespaces(getWalletInfo('phantom'))).toEqual(['solana', 'eip155'])
    expect(getWalletNamespaces(getWalletInfo('metamask'))).toEqual(['eip155'])
  })

  it('returns a copy the caller may change', () => {
    const info = getWalletInfo('trust')
    const namespaces = getWalletNamespaces(info)
    namespaces.push('solana')
    expect(info.namespaces).toEqual(['eip155', 'solana'])
    expect(Object.isFrozen(namespaces)).toBe(false)
  })

  it('works on a caller-built info and tolerates a missing list', () => {
    expect(getWalletNamespaces(bare)).toEqual(['eip155'])
    expect(getWalletNamespaces({} as SupportWalletInfo)).toEqual([])
  })
})

describe('walletSupportsNamespace', () => {
  it('follows the namespaces list', () => {
    expect(walletSupportsNamespace(getWalletInfo('metamask'), 'eip155')).toBe(true)
    expect(walletSupportsNamespace(getWalletInfo('metamask'), 'solana')).toBe(false)
    expect(walletSupportsNamespace(getWalletInfo('solflare'), 'solana')).toBe(true)
    expect(walletSupportsNamespace({} as SupportWalletInfo, 'eip155')).toBe(false)
  })
})

describe('walletSupportsMobile / walletSupportsMobileOn', () => {
  it('is true for wallets with a universal link (partners), per namespace', () => {
    const partner: SupportWalletInfo = {
      ...bare,
      namespaces: ['eip155', 'solana'],
      mobile: { universalLink: 'https://example.com/ul', namespaces: ['solana'] },
    }
    expect(walletSupportsMobile(partner)).toBe(true)
    expect(walletSupportsMobileOn(partner, 'solana')).toBe(true)
    expect(walletSupportsMobileOn(partner, 'eip155')).toBe(false)
    // No built-in brand integrates scope-connect/wallet, so none has an `sc*` universal link.
    expect(walletSupportsMobileOn(getWalletInfo('metamask'), 'eip155')).toBe(false)
    expect(walletSupportsMobileOn(getWalletInfo('phantom'), 'solana')).toBe(false)
  })

  it('is false without a mobile section', () => {
    expect(walletSupportsMobile(getWalletInfo('rabby'))).toBe(false)
    expect(walletSupportsMobileOn(getWalletInfo('rabby'), 'eip155')).toBe(false)
    expect(walletSupportsMobile(bare)).toBe(false)
  })

  it('is false for an empty mobile namespace list', () => {
    const info = { ...bare, mobile: { universalLink: 'https://example.com/ul', namespaces: [] } }
    expect(walletSupportsMobile(info)).toBe(false)
    expect(walletSupportsMobileOn(info, 'eip155')).toBe(false)
  })

  it('is false on a namespace the wallet itself does not support', () => {
    const info: SupportWalletInfo = {
      ...bare,
      mobile: { universalLink: 'https://example.com/ul', namespaces: ['solana'] },
    }
    expect(walletSupportsMobile(info)).toBe(true)
    expect(walletSupportsMobileOn(info, 'solana')).toBe(false)
  })

  it('agrees with the registry data for every wallet and namespace', () => {
    for (const wallet of supportWallets) {
      expect(walletSupportsMobile(wallet)).toBe(wallet.mobile !== undefined)
      for (const ns of ['eip155', 'solana'] as const) {
        expect(walletSupportsMobileOn(wallet, ns)).toBe(
          wallet.mobile?.namespaces.includes(ns) ?? false,
        )
      }
    }
  })
})

describe('walletSupportsRelay / walletSupportsRelayOn', () => {
  it('is true for relay wallets (partners), per namespace', () => {
    const partner: SupportWalletInfo = {
      ...bare,
      namespaces: ['eip155', 'solana'],
      relay: { namespaces: ['eip155'] },
    }
    expect(walletSupportsRelay(partner)).toBe(true)
    expect(walletSupportsRelayOn(partner, 'eip155')).toBe(true)
    expect(walletSupportsRelayOn(partner, 'solana')).toBe(false)
    expect(walletSupportsRelayOn(getWalletInfo('coinbase'), 'eip155')).toBe(false)
    expect(walletSupportsRelayOn(getWalletInfo('solflare'), 'solana')).toBe(false)
  })

  it('is false without a relay section or with an empty one', () => {
    expect(walletSupportsRelay(getWalletInfo('phantom'))).toBe(false)
    expect(walletSupportsRelayOn(getWalletInfo('phantom'), 'solana')).toBe(false)
    expect(walletSupportsRelay({ ...bare, relay: { namespaces: [] } })).toBe(false)
  })

  it('is false on a namespace the wallet itself does not support', () => {
    const info: SupportWalletInfo = { ...bare, relay: { namespaces: ['solana'] } }
    expect(walletSupportsRelay(info)).toBe(true)
    expect(walletSupportsRelayOn(info, 'solana')).toBe(false)
  })

  it('agrees with the registry data for every wallet and namespace', () => {
    for (const wallet of supportWallets) {
      expect(walletSupportsRelay(wallet)).toBe(wallet.relay !== undefined)
      for (const ns of ['eip155', 'solana'] as const) {
        expect(walletSupportsRelayOn(wallet, ns)).toBe(
          wallet.relay?.namespaces.includes(ns) ?? false,
        )
      }
    }
  })
})
