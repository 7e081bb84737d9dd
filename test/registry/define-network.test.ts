import { gnosis, linea, zora } from 'viem/chains'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client'
import { addEthereumChainParameter } from '../../src/connectors'
import {
  clearNetworks,
  defineNetwork,
  getNetworkInfo,
  getNetworksForWallet,
  getWalletsForNetwork,
  isWalletNetworkSupported,
  listSupportedNetworks,
  listSupportedWallets,
  registerNetworks,
  supportNetworks,
} from '../../src/index'
import { expectAppError } from './helpers'

// Issue 29, item 1: the built-in networks are defaults, not a whitelist. `defineNetwork` (shaped
// like viem's `defineChain`: a viem chain object fits as is) describes any chain; once registered
// (`registerNetworks`, or the Client's `networks` option) every lookup answers for it.

afterEach(() => clearNetworks())

const LINEA_INFO = {
  chainId: 'eip155:59144',
  namespace: 'eip155',
  reference: '59144',
  name: 'Linea Mainnet',
  nativeCurrency: { name: 'Linea Ether', symbol: 'ETH', decimals: 18 },
  testnet: false,
  blockExplorerUrl: 'https://lineascan.build',
  rpcUrls: ['https://rpc.linea.build'],
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
}

describe('defineNetwork', () => {
  it("default: viem's own chain objects (Linea, Zora, Gnosis) become frozen NetworkInfo entries", () => {
    const network = defineNetwork(linea)
    expect(network).toEqual(LINEA_INFO)
    expect(Object.isFrozen(network) && Object.isFrozen(network.rpcUrls)).toBe(true)
    expect(defineNetwork(zora)).toMatchObject({ chainId: 'eip155:7777777', name: 'Zora' })
    expect(defineNetwork(gnosis)).toMatchObject({
      chainId: 'eip155:100',
      nativeCurrency: { symbol: 'XDAI' },
    })
  })

  it('parameters: a CAIP-2 id, e.g. a Solana cluster; no RPC, explorer or testnet given', () => {
    expect(
      defineNetwork({
        id: 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb',
        name: 'Local cluster',
        nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      }),
    ).toEqual({
      chainId: 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb',
      namespace: 'solana',
      reference: 'Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb',
      name: 'Local cluster',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      testnet: false,
    })
  })

  it('behavior: pure: defining registers nothing', () => {
    defineNetwork(linea)
    expectAppError(() => getNetworkInfo('eip155:59144'), 'UNSUPPORTED_CHAIN')
  })

  it.each([
    [{ ...linea, id: 0 }, 'chainId'],
    [{ ...linea, id: 'eip155:0x1' }, 'chainId'],
    [{ ...linea, id: 'cosmos:cosmoshub-4' }, 'chainId'],
    [{ ...linea, name: '' }, 'name'],
    [{ ...linea, nativeCurrency: undefined }, 'nativeCurrency'],
    [
      { ...linea, nativeCurrency: { name: 'E', symbol: 'E', decimals: 1.5 } },
      'nativeCurrency.decimals',
    ],
    [{ ...linea, rpcUrls: { default: { http: ['ftp://x'] } } }, 'rpcUrls'],
    [{ ...linea, blockExplorers: { default: { name: 'x', url: 'nope' } } }, 'blockExplorerUrl'],
    [{ ...linea, testnet: 'yes' }, 'testnet'],
    [null, 'chainId'],
    ['linea', 'chainId'],
  ])('error: INVALID_CONFIG naming the field (%#: %s)', (definition, field) => {
    expectAppError(
      () => defineNetwork(definition as never),
      'INVALID_CONFIG',
      `defineNetwork is not a valid network (${field})`,
    )
  })
})

describe('registered networks in every lookup', () => {
  it('default: getNetworkInfo, listSupportedNetworks, wallet lookups, addEthereumChainParameter', () => {
    const [network] = registerNetworks([defineNetwork(linea)])
    expect(getNetworkInfo('eip155:59144')).toBe(network)
    expect(listSupportedNetworks().at(-1)).toBe(network)
    expect(listSupportedNetworks()).toHaveLength(supportNetworks.length + 1)
    expect(getNetworksForWallet('metamask').map((n) => n.chainId)).toContain('eip155:59144')
    expect(isWalletNetworkSupported('metamask', 'eip155:59144')).toBe(true)
    expect(isWalletNetworkSupported('phantom', 'eip155:59144')).toBe(false)
    expect(getWalletsForNetwork('eip155:59144').map((w) => w.id)).toContain('metamask')
    expect(listSupportedWallets({ chainId: 'eip155:59144' }).map((w) => w.id)).toContain('rabby')
    expect(addEthereumChainParameter('eip155:59144')).toEqual({
      chainId: '0xe708',
      chainName: 'Linea Mainnet',
      nativeCurrency: { name: 'Linea Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['https://rpc.linea.build'],
      blockExplorerUrls: ['https://lineascan.build'],
    })
    clearNetworks(['eip155:59144'])
    expectAppError(() => getNetworkInfo('eip155:59144'), 'UNSUPPORTED_CHAIN')
    expect(listSupportedNetworks()).toHaveLength(supportNetworks.length)
  })

  it('behavior: a registered network replaces the built-in one with its id, in place; clearing restores it', () => {
    const base = getNetworkInfo('eip155:8453')
    const index = listSupportedNetworks().indexOf(base)
    const mine = defineNetwork({
      id: 8453,
      name: 'Base (our RPC)',
      nativeCurrency: base.nativeCurrency,
      rpcUrls: { default: { http: ['https://base.rpc.example'] } },
    })
    registerNetworks([mine])
    expect(getNetworkInfo('eip155:8453').name).toBe('Base (our RPC)')
    expect(listSupportedNetworks()[index]?.name).toBe('Base (our RPC)')
    expect(listSupportedNetworks()).toHaveLength(supportNetworks.length)
    clearNetworks()
    expect(getNetworkInfo('eip155:8453')).toBe(base)
  })

  it('error: INVALID_CONFIG naming the entry and field; nothing of the list is added', () => {
    expectAppError(
      () => registerNetworks([defineNetwork(linea), { ...defineNetwork(zora), name: '' }]),
      'INVALID_CONFIG',
      'networks[1] is not a valid network (name)',
    )
    expectAppError(() => getNetworkInfo('eip155:59144'), 'UNSUPPORTED_CHAIN')
    expectAppError(() => registerNetworks('linea' as never), 'INVALID_CONFIG')
    registerNetworks([defineNetwork(linea)])
    expect(getNetworkInfo('eip155:59144').name).toBe('Linea Mainnet')
  })

  it('parameters: the Client option `networks` registers them at construction; a bad one is INVALID_CONFIG', () => {
    new Client({
      baseUrl: 'http://127.0.0.1:1',
      appKey: 'app-key-app-key',
      networks: [defineNetwork(zora)],
    })
    expect(getNetworkInfo('eip155:7777777').name).toBe('Zora')
    expectAppError(
      () =>
        new Client({
          baseUrl: 'http://127.0.0.1:1',
          appKey: 'app-key-app-key',
          networks: [{ ...defineNetwork(gnosis), chainId: 'gnosis' as never }],
        }),
      'INVALID_CONFIG',
      'networks[0] is not a valid network (chainId)',
    )
  })
})
