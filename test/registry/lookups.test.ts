import { afterEach, describe, expect, it } from 'vitest'
import {
  type Caip2ChainId,
  clearPartnerWallets,
  getNetworkInfo,
  getNetworksForWallet,
  getWalletInfo,
  getWalletsForNetwork,
  isWalletNetworkSupported,
  listPartnerWallets,
  listSupportedNetworks,
  listSupportedWallets,
  type PartnerWalletInput,
  registerPartnerWallets,
  supportNetworks,
  supportWallets,
} from '../../src/registry'
import { expectAppError } from './helpers'

const ETHEREUM = 'eip155:1'
const ANVIL = 'eip155:31337'
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

/** Partner wallets (the only ones that declare `mobile` / `relay`): one per combination. */
const PARTNERS: PartnerWalletInput[] = [
  { id: 'evm-relay', name: 'EVM relay', relay: { namespaces: ['eip155'] } },
  {
    id: 'sol-link',
    name: 'Solana link',
    mobile: { universalLink: 'https://sol-link.example/ul/', namespaces: ['solana'] },
  },
  {
    id: 'both-ways',
    name: 'Both ways',
    mobile: { universalLink: 'https://both.example/ul/', namespaces: ['eip155', 'solana'] },
    relay: { namespaces: ['eip155', 'solana'] },
  },
]
afterEach(() => clearPartnerWallets())

const ids = (list: readonly { id: string }[]) => list.map((entry) => entry.id)
const chains = (list: readonly { chainId: string }[]) => list.map((entry) => entry.chainId)

const BAD_WALLET_IDS: unknown[] = [
  '',
  ' ',
  'MetaMask',
  'metamask ',
  'nope',
  '__proto__',
  'toString',
  'constructor',
  'eip6963:io.metamask',
  undefined,
  null,
  42,
  {},
  Symbol('id'),
  Object.create(null),
]
const MALFORMED_CHAIN_IDS: unknown[] = [
  '',
  'eip155',
  'eip155:',
  ':1',
  '1',
  'EIP155:1',
  'eip155:1:2',
  'eip155 :1',
  `solana:${'x'.repeat(40)}`,
  '__proto__',
  undefined,
  null,
  1,
  Symbol('chain'),
  Object.create(null),
]
const UNKNOWN_CHAIN_IDS = ['eip155:999999', 'eip155:01', 'solana:mainnet', 'cosmos:cosmoshub-4']

describe('getWalletInfo', () => {
  it('returns the built-in entry by id', () => {
    const info = getWalletInfo('phantom')
    expect(info.name).toBe('Phantom')
    expect(info.rdns).toBe('app.phantom')
    expect(info).toBe(supportWallets.find((w) => w.id === 'phantom'))
  })

  it('finds every built-in wallet', () => {
    for (const wallet of supportWallets) expect(getWalletInfo(wallet.id)).toBe(wallet)
  })

  it('returns frozen data that callers cannot change', () => {
    const info = getWalletInfo('metamask')
    expect(() => {
      ;(info as { name: string }).name = 'x'
    }).toThrow(TypeError)
    expect(getWalletInfo('metamask').name).toBe('MetaMask')
  })

  it.each(BAD_WALLET_IDS.map((id) => [id]))('throws WALLET_NOT_FOUND for %j', (id) => {
    expectAppError(() => getWalletInfo(id as string), 'WALLET_NOT_FOUND', 'Unknown wallet')
  })

  it('names the id in the message, quoted', () => {
    expectAppError(() => getWalletInfo('nope'), 'WALLET_NOT_FOUND', '"nope"')
    expectAppError(() => getWalletInfo(''), 'WALLET_NOT_FOUND', '""')
  })

  it('bounds a very long id in the message', () => {
    const long = 'a'.repeat(10_000)
    try {
      getWalletInfo(long)
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(200)
    }
  })
})

describe('listSupportedWallets', () => {
  it('lists every wallet in registry order, as a fresh array', () => {
    const list = listSupportedWallets()
    expect(ids(list)).toEqual(ids(supportWallets))
    expect(list).not.toBe(supportWallets)
    list.pop()
    expect(listSupportedWallets()).toHaveLength(supportWallets.length)
  })

  it('treats an empty options object like no options', () => {
    expect(ids(listSupportedWallets({}))).toEqual(ids(supportWallets))
  })

  it('filters by namespace', () => {
    const solana = ids(listSupportedWallets({ namespace: 'solana' }))
    expect(solana).toEqual(expect.arrayContaining(['phantom', 'solflare', 'backpack']))
    expect(solana).not.toContain('metamask')
    const evm = ids(listSupportedWallets({ namespace: 'eip155' }))
    expect(evm).toContain('metamask')
    expect(evm).not.toContain('solflare')
  })

  it('filters by chain, honouring a wallet chain list', () => {
    const onAnvil = ids(listSupportedWallets({ chainId: ANVIL }))
    expect(onAnvil).toContain('metamask')
    expect(onAnvil).not.toContain('phantom') // Phantom lists its chains; Anvil is not one.
    expect(ids(listSupportedWallets({ chainId: ETHEREUM }))).toContain('phantom')
  })

  it('filters by mobile and relay, both ways: only partner wallets declare them', () => {
    expect(ids(listSupportedWallets({ mobile: true }))).toEqual([])
    expect(ids(listSupportedWallets({ relay: true }))).toEqual([])
    registerPartnerWallets(PARTNERS)
    const everyId = [...ids(supportWallets), ...PARTNERS.map((p) => p.id)].sort()
    const mobile = ids(listSupportedWallets({ mobile: true }))
    const notMobile = ids(listSupportedWallets({ mobile: false }))
    expect(mobile).toEqual(['sol-link', 'both-ways'])
    expect(notMobile).toEqual(expect.arrayContaining(['rabby', 'brave', 'evm-relay']))
    expect([...mobile, ...notMobile].sort()).toEqual(everyId)
    const relay = ids(listSupportedWallets({ relay: true }))
    const noRelay = ids(listSupportedWallets({ relay: false }))
    expect(relay).toEqual(['evm-relay', 'both-ways'])
    expect(noRelay).toEqual(expect.arrayContaining(['phantom', 'brave', 'sol-link']))
    expect([...relay, ...noRelay].sort()).toEqual(everyId)
  })

  it('combines filters with AND and judges mobile/relay on the namespace in scope', () => {
    registerPartnerWallets(PARTNERS)
    // evm-relay relays on EVM only, so it is not a Solana relay wallet.
    const solanaRelay = ids(listSupportedWallets({ namespace: 'solana', relay: true }))
    expect(solanaRelay).toEqual(['both-ways'])
    // sol-link's universal link reaches Solana only.
    expect(ids(listSupportedWallets({ chainId: ETHEREUM, mobile: true }))).toEqual(['both-ways'])
    expect(ids(listSupportedWallets({ chainId: SOLANA, mobile: true }))).toEqual([
      'sol-link',
      'both-ways',
    ])
    const all = listSupportedWallets({
      namespace: 'eip155',
      chainId: ETHEREUM,
      mobile: true,
      relay: true,
    })
    expect(ids(all)).toEqual(
      [...supportWallets, ...listPartnerWallets()]
        .filter(
          (w) =>
            w.mobile?.namespaces.includes('eip155') &&
            w.relay?.namespaces.includes('eip155') &&
            (w.chains === undefined || w.chains.includes(ETHEREUM)),
        )
        .map((w) => w.id),
    )
    expect(all.length).toBeGreaterThan(0)
  })

  it('gives an empty list when namespace and chain disagree', () => {
    expect(listSupportedWallets({ namespace: 'eip155', chainId: SOLANA })).toEqual([])
  })

  it('gives an empty list for a namespace no wallet supports', () => {
    expect(listSupportedWallets({ namespace: 'cosmos' as 'eip155' })).toEqual([])
  })

  it('throws UNSUPPORTED_CHAIN for an unknown or malformed chain filter', () => {
    expectAppError(
      () => listSupportedWallets({ chainId: 'eip155:999999' }),
      'UNSUPPORTED_CHAIN',
      'eip155:999999',
    )
    expectAppError(() => listSupportedWallets({ chainId: '' as Caip2ChainId }), 'UNSUPPORTED_CHAIN')
  })
})

describe('listSupportedNetworks / getNetworkInfo', () => {
  it('lists every network in registry order, as a fresh array', () => {
    const list = listSupportedNetworks()
    expect(chains(list)).toEqual(chains(supportNetworks))
    list.length = 0
    expect(listSupportedNetworks()).toHaveLength(supportNetworks.length)
  })

  it('returns the network by CAIP-2 id', () => {
    const base = getNetworkInfo('eip155:8453')
    expect(base).toMatchObject({
      name: 'Base',
      namespace: 'eip155',
      reference: '8453',
      testnet: false,
    })
    expect(getNetworkInfo(SOLANA_DEVNET)).toMatchObject({ namespace: 'solana', testnet: true })
    expect(getNetworkInfo(ANVIL).testnet).toBe(true)
    expect(Object.isFrozen(base)).toBe(true)
  })

  it.each(UNKNOWN_CHAIN_IDS.map((id) => [id]))('throws UNSUPPORTED_CHAIN for unknown %s', (id) => {
    expectAppError(
      () => getNetworkInfo(id as Caip2ChainId),
      'UNSUPPORTED_CHAIN',
      'Unsupported chain',
      id,
    )
  })

  it.each(MALFORMED_CHAIN_IDS.map((id) => [id]))(
    'throws UNSUPPORTED_CHAIN for malformed %j',
    (id) => {
      expectAppError(
        () => getNetworkInfo(id as Caip2ChainId),
        'UNSUPPORTED_CHAIN',
        'Malformed chain id',
      )
    },
  )

  it('names a malformed id in the message', () => {
    expectAppError(() => getNetworkInfo('eip155' as Caip2ChainId), 'UNSUPPORTED_CHAIN', '"eip155"')
  })
})

describe('getNetworksForWallet', () => {
  it("uses the wallet's chain list when it has one", () => {
    const phantom = getWalletInfo('phantom')
    const list = getNetworksForWallet('phantom')
    expect(chains(list).sort()).toEqual([...(phantom.chains ?? [])].sort())
    expect(chains(list)).not.toContain(ANVIL)
  })

  it('otherwise gives every network of its namespaces, in registry order', () => {
    const evm = chains(supportNetworks.filter((n) => n.namespace === 'eip155'))
    expect(chains(getNetworksForWallet('metamask'))).toEqual(evm)
    const sol = chains(supportNetworks.filter((n) => n.namespace === 'solana'))
    expect(chains(getNetworksForWallet('solflare'))).toEqual(sol)
    expect(chains(getNetworksForWallet('trust'))).toEqual(chains(supportNetworks))
  })

  it('throws WALLET_NOT_FOUND for an unknown wallet', () => {
    expectAppError(() => getNetworksForWallet('nope'), 'WALLET_NOT_FOUND', 'nope')
    expectAppError(() => getNetworksForWallet(''), 'WALLET_NOT_FOUND')
  })
})

describe('getWalletsForNetwork', () => {
  it('lists the wallets of a network in registry order', () => {
    const solana = ids(getWalletsForNetwork(SOLANA))
    expect(solana).toEqual(ids(supportWallets.filter((w) => w.namespaces.includes('solana'))))
    expect(ids(getWalletsForNetwork(ANVIL))).not.toContain('phantom')
    expect(ids(getWalletsForNetwork(ANVIL))).toContain('metamask')
  })

  it('agrees with getNetworksForWallet for every pair', () => {
    for (const network of supportNetworks) {
      for (const wallet of supportWallets) {
        const forward = chains(getNetworksForWallet(wallet.id)).includes(network.chainId)
        const backward = ids(getWalletsForNetwork(network.chainId)).includes(wallet.id)
        expect(backward).toBe(forward)
        expect(isWalletNetworkSupported(wallet.id, network.chainId)).toBe(forward)
      }
    }
  })

  it('throws UNSUPPORTED_CHAIN for unknown and malformed chains', () => {
    expectAppError(
      () => getWalletsForNetwork('eip155:999999'),
      'UNSUPPORTED_CHAIN',
      'eip155:999999',
    )
    expectAppError(
      () => getWalletsForNetwork('nope' as Caip2ChainId),
      'UNSUPPORTED_CHAIN',
      '"nope"',
    )
  })
})

describe('isWalletNetworkSupported', () => {
  it('answers for known pairs', () => {
    expect(isWalletNetworkSupported('metamask', ETHEREUM)).toBe(true)
    expect(isWalletNetworkSupported('metamask', SOLANA)).toBe(false)
    expect(isWalletNetworkSupported('solflare', SOLANA_DEVNET)).toBe(true)
    expect(isWalletNetworkSupported('phantom', ANVIL)).toBe(false)
    expect(isWalletNetworkSupported('phantom', 'eip155:8453')).toBe(true)
  })

  it('throws WALLET_NOT_FOUND for an unknown wallet, even with an unknown chain', () => {
    expectAppError(() => isWalletNetworkSupported('nope', ETHEREUM), 'WALLET_NOT_FOUND', 'nope')
    expectAppError(() => isWalletNetworkSupported('nope', 'eip155:999999'), 'WALLET_NOT_FOUND')
  })

  it('throws UNSUPPORTED_CHAIN for an unknown or malformed chain', () => {
    expectAppError(
      () => isWalletNetworkSupported('metamask', 'eip155:999999'),
      'UNSUPPORTED_CHAIN',
      'eip155:999999',
    )
    expectAppError(
      () => isWalletNetworkSupported('metamask', '' as Caip2ChainId),
      'UNSUPPORTED_CHAIN',
    )
  })
})
