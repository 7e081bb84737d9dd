import { CAIP2_PATTERN } from '../wire/patterns'
import { allWallets } from './all-wallets'
import {
  walletSupportsMobileOn,
  walletSupportsNamespace,
  walletSupportsRelayOn,
} from './capabilities'
import { registeredNetwork, registeredNetworks } from './custom-networks'
import { unsupportedChain, walletNotFound } from './errors'
import { networksByChainId, walletsById } from './indexes'
import { supportNetworks } from './networks'
import { partnerById } from './partners'
import type {
  Caip2ChainId,
  ChainNamespace,
  ListWalletsOptions,
  NetworkInfo,
  SupportWalletInfo,
  WalletId,
} from './types'

// Entries are deep-frozen registry objects; every list is a fresh array the caller may change.

/**
 * The built-in wallets in registry order, then the partner wallets (`registerPartnerWallets`),
 * optionally filtered. Filters combine with AND. `mobile` and
 * `relay` are judged on the namespace in scope (`namespace`, else the namespace of `chainId`), so
 * `{ namespace: 'solana', relay: true }` lists wallets that pair over the relay on Solana.
 * `mobile: false` / `relay: false` keep the wallets without that path.
 * @throws AppError `UNSUPPORTED_CHAIN` when `chainId` is given and is not a built-in network.
 */
export function listSupportedWallets(options: ListWalletsOptions = {}): SupportWalletInfo[] {
  const { namespace, chainId, mobile, relay } = options ?? {}
  const network = chainId === undefined ? undefined : getNetworkInfo(chainId)
  if (namespace !== undefined && network !== undefined && network.namespace !== namespace) return []
  const scope = namespace ?? network?.namespace
  return allWallets().filter(
    (wallet) =>
      (scope === undefined || walletSupportsNamespace(wallet, scope)) &&
      (network === undefined || coversNetwork(wallet, network)) &&
      (mobile === undefined || reachable(wallet, scope, walletSupportsMobileOn) === mobile) &&
      (relay === undefined || reachable(wallet, scope, walletSupportsRelayOn) === relay),
  )
}

/**
 * The built-in or partner wallet with this id (a slug such as `metamask`).
 * @throws AppError `WALLET_NOT_FOUND` for any other value.
 */
export function getWalletInfo(walletId: WalletId): SupportWalletInfo {
  const wallet =
    typeof walletId === 'string' ? (walletsById.get(walletId) ?? partnerById(walletId)) : undefined
  if (wallet === undefined) throw walletNotFound(walletId)
  return wallet
}

/**
 * The built-in networks in registry order (mainnets, testnets, local Anvil, then Solana), a
 * registered network in place of a built-in one with its id, then the other registered networks
 * (`registerNetworks`, a project's custom chains).
 */
export function listSupportedNetworks(): NetworkInfo[] {
  const builtIn = supportNetworks.map((network) => registeredNetwork(network.chainId) ?? network)
  return builtIn.concat(registeredNetworks().filter((n) => !networksByChainId.has(n.chainId)))
}

/**
 * The network with this CAIP-2 id, e.g. `eip155:1`: a registered one (`registerNetworks`), else
 * the built-in one.
 * @throws AppError `UNSUPPORTED_CHAIN` for an unknown or malformed chain id.
 */
export function getNetworkInfo(chainId: Caip2ChainId): NetworkInfo {
  const network =
    typeof chainId === 'string'
      ? (registeredNetwork(chainId) ?? networksByChainId.get(chainId))
      : undefined
  if (network !== undefined) return network
  throw unsupportedChain(chainId, !(typeof chainId === 'string' && CAIP2_PATTERN.test(chainId)))
}

/**
 * The networks a wallet supports, in registry order: its `chains` when it lists them, else every
 * network of its namespaces (built-in and registered).
 * @throws AppError `WALLET_NOT_FOUND` for an unknown wallet.
 */
export function getNetworksForWallet(walletId: WalletId): NetworkInfo[] {
  const wallet = getWalletInfo(walletId)
  return listSupportedNetworks().filter((network) => coversNetwork(wallet, network))
}

/**
 * The built-in wallets that support a network, in registry order.
 * @throws AppError `UNSUPPORTED_CHAIN` for an unknown or malformed chain id.
 */
export function getWalletsForNetwork(chainId: Caip2ChainId): SupportWalletInfo[] {
  const network = getNetworkInfo(chainId)
  return allWallets().filter((wallet) => coversNetwork(wallet, network))
}

/**
 * True when the wallet supports the network.
 * @throws AppError `WALLET_NOT_FOUND` for an unknown wallet, then `UNSUPPORTED_CHAIN` for an unknown chain.
 */
export function isWalletNetworkSupported(walletId: WalletId, chainId: Caip2ChainId): boolean {
  const wallet = getWalletInfo(walletId)
  return coversNetwork(wallet, getNetworkInfo(chainId))
}

function coversNetwork(wallet: SupportWalletInfo, network: NetworkInfo): boolean {
  if (!walletSupportsNamespace(wallet, network.namespace)) return false
  return wallet.chains === undefined || wallet.chains.includes(network.chainId)
}

/** A path (mobile, relay) on the namespace in scope, or on any of the wallet's namespaces. */
function reachable(
  wallet: SupportWalletInfo,
  scope: ChainNamespace | undefined,
  on: (info: SupportWalletInfo, namespace: ChainNamespace) => boolean,
): boolean {
  if (scope !== undefined) return on(wallet, scope)
  return wallet.namespaces.some((namespace) => on(wallet, namespace))
}
