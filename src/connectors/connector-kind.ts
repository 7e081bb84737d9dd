import { AppError } from '../errors/app-error'
import { walletSupportsMobileOn, walletSupportsNamespace } from '../registry/capabilities'
import type { Caip2ChainId, ChainNamespace, SupportWalletInfo } from '../registry/types'
import type { SolanaInjectedConnectorOptions } from './solana-injected'

/** The built-in connector a wallet gets on one namespace and platform. */
export type ConnectorKind =
  | 'eip6963'
  | 'injected'
  | 'solana-injected'
  | 'metamask-sdk'
  | 'coinbase-sdk'
  | 'universal-link'

/**
 * Where the page runs: a desktop browser, a phone browser outside any wallet, or a wallet's in-app
 * browser on a phone (the wallet injects its provider: `window.ethereum`, an EIP-6963
 * announcement, a Wallet Standard wallet).
 */
export type WalletPlatform = 'desktop' | 'phone' | 'in-app'

/**
 * One way a wallet connects: its extension or in-app provider (`eip6963`, `injected`,
 * `wallet-standard`), a vendor SDK (`metamask-sdk`, `coinbase-sdk`), WalletConnect v2
 * (`walletconnect`), Phantom's deeplink protocol (`phantom-link`), or the scope-connect protocols of
 * partner wallets (`universal-link`: the `sc*` links; `relay`: the `scr` QR pairing, `client.pair()`).
 */
export type WalletPath =
  | 'eip6963'
  | 'injected'
  | 'wallet-standard'
  | 'metamask-sdk'
  | 'coinbase-sdk'
  | 'walletconnect'
  | 'phantom-link'
  | 'universal-link'
  | 'relay'

/** The paths `connectorKindForWallet` serves itself, and the connector each one gets. */
const SERVED: Partial<Record<WalletPath, ConnectorKind>> = {
  eip6963: 'eip6963',
  injected: 'injected',
  'wallet-standard': 'solana-injected',
  'metamask-sdk': 'metamask-sdk',
  'coinbase-sdk': 'coinbase-sdk',
  'universal-link': 'universal-link',
}

const INJECTED_PATHS: ReadonlySet<WalletPath> = /* @__PURE__ */ new Set([
  'eip6963',
  'injected',
  'wallet-standard',
])

/**
 * The paths a wallet offers on one namespace and platform, best first; pure, it reads the registry
 * entry only. Empty when the wallet does not support the namespace.
 *
 * - `desktop`: the extension (`eip6963` with an rdns, else `injected`; `wallet-standard` on
 *   Solana), then Coinbase's SDK (its popup), WalletConnect (QR code), the partner relay.
 * - `phone` (a browser outside any wallet): the vendor SDK, Phantom's deeplinks, the partner `sc*`
 *   universal link (Solana), then WalletConnect (the wallet's link + `?uri=`).
 * - `in-app` (inside the wallet's own browser): the injected provider first, then the phone paths.
 */
export function walletPaths(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  platform: WalletPlatform,
): WalletPath[] {
  if (!walletSupportsNamespace(info, namespace)) return []
  const paths: WalletPath[] = []
  const evm = namespace === 'eip155'
  const injected = info.injected?.namespaces?.includes(namespace) ?? false
  if (platform !== 'phone') {
    if (evm && (injected || info.rdns)) paths.push(info.rdns ? 'eip6963' : 'injected')
    if (!evm && injected && info.injected?.walletStandardName) paths.push('wallet-standard')
  }
  const onWalletConnect = info.walletConnect?.namespaces?.includes(namespace) ?? false
  if (platform === 'desktop') {
    if (evm && info.sdk === 'coinbase') paths.push('coinbase-sdk')
    if (onWalletConnect) paths.push('walletconnect')
    if (info.relay?.namespaces?.includes(namespace)) paths.push('relay')
    return paths
  }
  if (evm && info.sdk) paths.push(info.sdk === 'metamask' ? 'metamask-sdk' : 'coinbase-sdk')
  if (!evm && info.phantomLink) paths.push('phantom-link')
  if (!evm && walletSupportsMobileOn(info, namespace)) paths.push('universal-link')
  if (onWalletConnect) paths.push('walletconnect')
  return paths
}

/**
 * Which built-in connector serves `info` on `namespace` (the table of `createConnectorForWallet`):
 * the first of `walletPaths` it has a connector for. `injected` says whether the wallet's provider
 * is in the page (`isWalletInjected`): on a phone it means a wallet's in-app browser, where the
 * injected path is taken; on a desktop `false` lets a wallet without its extension take its SDK
 * (Coinbase). Unknown (`undefined`): the extension on a desktop, the mobile paths on a phone.
 * Pure: it reads the registry entry only, so the choice costs no connector code.
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the wallet does not support `namespace` at all;
 * `WALLET_UNAVAILABLE` when it does but has no connector on this platform (its paths are then
 * WalletConnect, Phantom's deeplinks or the relay, which have connectors of their own).
 */
export function connectorKindForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  mobile: boolean,
  injected?: boolean,
): ConnectorKind {
  if (!walletSupportsNamespace(info, namespace)) {
    throw new AppError('UNSUPPORTED_CHAIN', `${info.name} does not support ${namespace}.`)
  }
  const platform: WalletPlatform = !mobile ? 'desktop' : injected ? 'in-app' : 'phone'
  const paths = walletPaths(info, namespace, platform)
  const served = paths.filter((path) => SERVED[path] !== undefined)
  if (platform === 'desktop') {
    // Without its extension a wallet takes its SDK; otherwise the extension is waited for.
    const other = injected === false ? served.find((path) => !INJECTED_PATHS.has(path)) : undefined
    if (other) return SERVED[other] as ConnectorKind
    if (namespace === 'solana') return 'solana-injected'
    return info.rdns ? 'eip6963' : 'injected'
  }
  const first = served[0]
  if (first) return SERVED[first] as ConnectorKind
  const offered = paths.length > 0 ? `: it connects through ${paths.join(', ')}` : ''
  throw new AppError(
    'WALLET_UNAVAILABLE',
    `${info.name} has no ${namespace} connector in a phone browser here${offered}.`,
  )
}

/** The error when a mobile Solana wallet is picked without a universal-link factory. */
export function missingUniversalLinkFactory(info: SupportWalletInfo): AppError {
  return new AppError(
    'WALLET_UNAVAILABLE',
    `Connecting ${info.name} on mobile needs options.universalLink (a UniversalLinkConnector factory).`,
  )
}

/** `SolanaInjectedConnector` options for a registry wallet. */
export function solanaInjectedOptions(
  info: SupportWalletInfo,
  options: { solanaChainId?: Caip2ChainId | undefined },
): SolanaInjectedConnectorOptions {
  return {
    walletId: info.id,
    walletName: info.injected?.walletStandardName ?? info.name,
    ...(options.solanaChainId ? { chainId: options.solanaChainId } : {}),
  }
}
