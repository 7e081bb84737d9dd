import { describe, expect, it } from 'vitest'
import {
  type ConnectableTarget,
  clearPartnerWallets,
  listConnectableTargets,
  registerPartnerWallets,
  supportWallets,
  walletSupportsMobileOn,
  walletSupportsRelayOn,
} from '../../src/registry'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../../src/testing'

const VIA_ORDER: ConnectableTarget['via'][] = [
  'eip6963',
  'injected',
  'sdk',
  'universal-link',
  'relay',
]
const key = (t: ConnectableTarget) => `${t.walletId}/${t.namespace}/${t.via}`

describe('listConnectableTargets', () => {
  const targets = listConnectableTargets()
  const keys = targets.map(key)

  it('has one entry per (wallet, namespace, via)', () => {
    expect(new Set(keys).size).toBe(keys.length)
    expect(targets.length).toBeGreaterThan(supportWallets.length)
  })

  it('derives the paths of MetaMask and Phantom (no sc* link, no relay: they are not partners)', () => {
    expect(targets.filter((t) => t.walletId === 'metamask').map(key)).toEqual([
      'metamask/eip155/eip6963',
      'metamask/eip155/sdk',
    ])
    expect(targets.filter((t) => t.walletId === 'phantom').map(key)).toEqual([
      'phantom/solana/injected',
      'phantom/eip155/eip6963',
    ])
    expect(targets.filter((t) => t.via === 'universal-link' || t.via === 'relay')).toEqual([])
  })

  it('gives a partner wallet its universal-link and relay targets', () => {
    try {
      registerPartnerWallets([TEST_PARTNER_WALLET])
      expect(
        listConnectableTargets()
          .filter((t) => t.walletId === TEST_PARTNER_WALLET_ID)
          .map(key),
      ).toEqual([
        'scope-test-wallet/eip155/universal-link',
        'scope-test-wallet/eip155/relay',
        'scope-test-wallet/solana/universal-link',
        'scope-test-wallet/solana/relay',
      ])
    } finally {
      clearPartnerWallets()
    }
  })

  it('offers sdk only for MetaMask on EVM', () => {
    expect(targets.filter((t) => t.via === 'sdk').map(key)).toEqual(['metamask/eip155/sdk'])
  })

  it('matches the wallet info for every entry and misses none', () => {
    for (const wallet of supportWallets) {
      for (const namespace of wallet.namespaces) {
        const vias = targets
          .filter((t) => t.walletId === wallet.id && t.namespace === namespace)
          .map((t) => t.via)
        const injected = wallet.injected?.namespaces.includes(namespace) ?? false
        expect(vias.includes('eip6963')).toBe(injected && namespace === 'eip155' && !!wallet.rdns)
        expect(vias.includes('injected')).toBe(injected && !(namespace === 'eip155' && wallet.rdns))
        expect(vias.includes('universal-link')).toBe(walletSupportsMobileOn(wallet, namespace))
        expect(vias.includes('relay')).toBe(walletSupportsRelayOn(wallet, namespace))
        // vias in the documented order
        const order = vias.map((via) => VIA_ORDER.indexOf(via))
        expect(order).toEqual([...order].sort((a, b) => a - b))
      }
    }
  })

  it('gives every wallet at least one way in and names only built-in wallets', () => {
    const ids = new Set(supportWallets.map((w) => w.id))
    for (const wallet of supportWallets) {
      expect(targets.some((t) => t.walletId === wallet.id)).toBe(true)
    }
    for (const target of targets) expect(ids.has(target.walletId)).toBe(true)
  })

  it('follows registry order of wallets', () => {
    const order = supportWallets.map((w) => w.id)
    const seen = [...new Set(targets.map((t) => t.walletId))]
    expect(seen).toEqual(order)
  })

  it('returns fresh objects, so changing them leaves the next call alone', () => {
    const first = listConnectableTargets()
    ;(first[0] as { walletId: string }).walletId = 'evil'
    first.length = 0
    expect(listConnectableTargets().map(key)).toEqual(keys)
  })
})
