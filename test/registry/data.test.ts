import { describe, expect, it } from 'vitest'
import { walletPaths } from '../../src/connectors/wallet-paths'
import type { ChainNamespace } from '../../src/registry'
import { getWalletInfo, supportNetworks, supportWallets } from '../../src/registry'
import { Caip2Schema, WalletSlugSchema } from '../../src/wire/primitives'

const NAMESPACES: readonly ChainNamespace[] = ['eip155', 'solana']
const chainIds = new Set(supportNetworks.map((network) => network.chainId))

function isHttpsUrl(value: string): boolean {
  const url = new URL(value)
  return url.protocol === 'https:' && url.hostname.length > 0
}

describe('built-in networks', () => {
  it('has the networks the library promises, with their CAIP-2 ids', () => {
    expect([...chainIds]).toEqual(
      expect.arrayContaining([
        'eip155:1',
        'eip155:11155111',
        'eip155:8453',
        'eip155:84532',
        'eip155:42161',
        'eip155:10',
        'eip155:137',
        'eip155:56',
        'eip155:43114',
        'eip155:31337',
        'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      ]),
    )
  })

  it('has unique chain ids', () => {
    expect(chainIds.size).toBe(supportNetworks.length)
  })

  it.each(supportNetworks.map((n) => [n.chainId, n] as const))('%s is consistent', (_, network) => {
    expect(Caip2Schema.safeParse(network.chainId).success).toBe(true)
    const [prefix, reference] = network.chainId.split(':')
    expect(network.namespace).toBe(prefix)
    expect(network.reference).toBe(reference)
    expect(NAMESPACES).toContain(network.namespace)
    expect(network.name.trim()).not.toBe('')
    expect(Number.isInteger(network.nativeCurrency.decimals)).toBe(true)
    expect(network.nativeCurrency.symbol).toMatch(/^[A-Z]{2,5}$/)
    if (network.blockExplorerUrl !== undefined)
      expect(isHttpsUrl(network.blockExplorerUrl)).toBe(true)
    // An EVM reference is the chain id in decimal, without leading zeros.
    if (network.namespace === 'eip155') expect(network.reference).toMatch(/^[1-9][0-9]*$/)
  })

  it('uses the right native currencies', () => {
    const byId = new Map(supportNetworks.map((n) => [n.chainId, n]))
    expect(byId.get('eip155:1')?.nativeCurrency).toEqual({
      name: 'Ether',
      symbol: 'ETH',
      decimals: 18,
    })
    expect(byId.get('eip155:56')?.nativeCurrency.symbol).toBe('BNB')
    expect(byId.get('eip155:43114')?.nativeCurrency.symbol).toBe('AVAX')
    expect(byId.get('eip155:137')?.nativeCurrency.symbol).toBe('POL')
    expect(byId.get('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')?.nativeCurrency).toEqual({
      name: 'Solana',
      symbol: 'SOL',
      decimals: 9,
    })
  })

  it('flags testnets and the local chain as testnet, mainnets not', () => {
    const testnets = supportNetworks.filter((n) => n.testnet).map((n) => n.chainId)
    expect(testnets).toEqual(
      expect.arrayContaining([
        'eip155:11155111',
        'eip155:84532',
        'eip155:31337',
        'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      ]),
    )
    for (const id of ['eip155:1', 'eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']) {
      expect(testnets).not.toContain(id)
    }
  })
})

describe('built-in wallets', () => {
  it('has at least 12 wallets, EVM and Solana', () => {
    expect(supportWallets.length).toBeGreaterThanOrEqual(12)
    expect(supportWallets.some((w) => w.namespaces.includes('eip155'))).toBe(true)
    expect(supportWallets.some((w) => w.namespaces.includes('solana'))).toBe(true)
  })

  it('has unique ids, names and rdns', () => {
    const ids = supportWallets.map((w) => w.id)
    const names = supportWallets.map((w) => w.name)
    const rdns = supportWallets.flatMap((w) => (w.rdns === undefined ? [] : [w.rdns]))
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(names).size).toBe(names.length)
    expect(new Set(rdns).size).toBe(rdns.length)
  })

  it('carries the real EIP-6963 rdns of the well-known wallets', () => {
    const rdns = Object.fromEntries(supportWallets.map((w) => [w.id, w.rdns]))
    expect(rdns).toMatchObject({
      metamask: 'io.metamask',
      phantom: 'app.phantom',
      coinbase: 'com.coinbase.wallet',
      rabby: 'io.rabby',
      trust: 'com.trustwallet.app',
      okx: 'com.okex.wallet',
      rainbow: 'me.rainbow',
      zerion: 'io.zerion.wallet',
      brave: 'com.brave.wallet',
    })
  })

  it.each(supportWallets.map((w) => [w.id, w] as const))('%s is consistent', (_, wallet) => {
    // The id doubles as the backend's wallet slug.
    expect(WalletSlugSchema.safeParse(wallet.id).success).toBe(true)
    expect(wallet.name.trim()).not.toBe('')
    expect(isHttpsUrl(wallet.homepage)).toBe(true)
    expect(wallet.namespaces.length).toBeGreaterThan(0)
    expect(new Set(wallet.namespaces).size).toBe(wallet.namespaces.length)
    for (const namespace of wallet.namespaces) expect(NAMESPACES).toContain(namespace)
    for (const chainId of wallet.chains ?? []) {
      expect(chainIds.has(chainId)).toBe(true)
      expect(wallet.namespaces).toContain(chainId.split(':')[0])
    }
    // Every namespace a wallet claims has at least one network, even with a `chains` list.
    for (const namespace of wallet.namespaces) {
      const chains = wallet.chains ?? [...chainIds]
      expect(chains.some((chainId) => chainId.startsWith(`${namespace}:`))).toBe(true)
    }
    if (wallet.rdns !== undefined) {
      expect(wallet.rdns).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)
      expect(wallet.injected?.namespaces).toContain('eip155')
    }
    for (const section of [wallet.mobile, wallet.relay, wallet.injected]) {
      if (section === undefined) continue
      expect(section.namespaces.length).toBeGreaterThan(0)
      for (const namespace of section.namespaces) expect(wallet.namespaces).toContain(namespace)
    }
    if (wallet.mobile !== undefined) {
      expect(isHttpsUrl(wallet.mobile.universalLink)).toBe(true)
      expect(wallet.mobile.universalLink).toMatch(/^https:\/\//)
    }
    if (wallet.injected?.namespaces.includes('solana')) {
      expect(wallet.injected.walletStandardName?.trim()).toBeTruthy()
    }
  })

  it('gives each Solana extension a unique Wallet Standard name', () => {
    const names = supportWallets.flatMap((w) => w.injected?.walletStandardName ?? [])
    expect(names).toEqual(expect.arrayContaining(['Phantom', 'Solflare', 'Backpack']))
    expect(new Set(names).size).toBe(names.length)
  })

  it('tells the truth: no built-in brand declares the scope-connect protocols (relay, sc* mobile links)', () => {
    // Issue 26 item 5 / SPEC 6.1: `sc*` links and the `scr` relay are for partner wallets that
    // integrate scope-connect/wallet; none of the built-in brands does today.
    const declaring = supportWallets.filter((w) => 'relay' in w || 'mobile' in w).map((w) => w.id)
    expect(declaring).toEqual([])
    // Phantom and Solflare reach a phone through Phantom's deeplink protocol instead.
    expect(supportWallets.filter((w) => w.phantomLink).map((w) => w.id)).toEqual(
      expect.arrayContaining(['phantom', 'solflare']),
    )
    for (const id of ['phantom', 'solflare']) {
      const phone = walletPaths(getWalletInfo(id), 'solana', 'phone')
      expect(phone[0], id).toBe('phantom-link')
      expect(phone, id).not.toContain('universal-link')
    }
  })
})

describe('registry immutability', () => {
  it('freezes the arrays and every entry, deeply', () => {
    expect(Object.isFrozen(supportWallets)).toBe(true)
    expect(Object.isFrozen(supportNetworks)).toBe(true)
    for (const wallet of supportWallets) {
      expect(Object.isFrozen(wallet)).toBe(true)
      expect(Object.isFrozen(wallet.namespaces)).toBe(true)
      if (wallet.mobile) expect(Object.isFrozen(wallet.mobile.namespaces)).toBe(true)
      if (wallet.chains) expect(Object.isFrozen(wallet.chains)).toBe(true)
    }
    for (const network of supportNetworks)
      expect(Object.isFrozen(network.nativeCurrency)).toBe(true)
  })

  it('rejects writes (ESM modules run in strict mode)', () => {
    const wallets = supportWallets as unknown as { push(x: unknown): void }
    expect(() => wallets.push({})).toThrow(TypeError)
    const first = supportWallets[0] as unknown as { name: string }
    expect(() => {
      first.name = 'Evil'
    }).toThrow(TypeError)
    expect(supportWallets[0]?.name).toBe('MetaMask')
  })
})
