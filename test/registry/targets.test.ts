import { describe, expect, it } from 'vitest'
import {
  type ConnectableTarget,
  listConnectableTargets,
  supportWallets,
  walletSupportsMobileOn,
  walletSupportsRelayOn,
} from '../../src/registry'

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

  it('derives the paths of MetaMask and Phantom', () => {
    expect(targets.filter((t) => t.walletId === 'metamask').map(key)).toEqual([
      'metamask/eip155/eip6963',
      'metamask/eip155/sdk',
      'metamask/eip155/universal-link',
      'metamask/eip155/relay',
    ])
    expect(targets.filter((t) => t.walletId === 'phantom').map(key)).toEqual([
      'phantom/solana/injected',
      'phantom/solana/universal-link',
      'phantom/eip155/eip6963',
      'phantom/eip155/universal-link',
    ])
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
