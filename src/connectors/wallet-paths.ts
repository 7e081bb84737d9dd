import { walletSupportsMobileOn, walletSupportsNamespace } from '../registry/capabilities'
import type { ChainNamespace, SupportWalletInfo } from '../registry/types'

/** The built-in connector a wallet gets on one namespace and platform. */
export type ConnectorKind =
  | 'eip6963'
  | 'injected'
  | 'solana-injected'
  | 'metamask-sdk'
  | 'coinbase-sdk'
  | 'universal-link'
  | 'phantom-link'
  | 'walletconnect'

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
  'phantom-link': 'phantom-link',
  walletconnect: 'walletconnect',
}

/** What the app configured that a path needs: `walletConnect` (the `Client` option of that name). */
export interface ServedPathOptions {
  /** WalletConnect is configured (`ClientOptions.walletConnect`): the `walletconnect` path is served. */
  walletConnect?: boolean
}

/**
 * True for a path `selectWallet` can complete in this build: one `connectorKindForWallet` has a
 * connector for. The connect modal offers a wallet only by such a path (or `relay`, `client.pair()`).
 * `walletconnect` is served only once the app configures WalletConnect (`options.walletConnect`).
 */
export function isServedPath(path: WalletPath, options: ServedPathOptions = {}): boolean {
  return servedKind(path, options) !== undefined
}

/** The connector kind `connectorKindForWallet` gives a served path; undefined for the others. */
export function servedKind(
  path: WalletPath,
  options: ServedPathOptions = {},
): ConnectorKind | undefined {
  if (path === 'walletconnect' && options?.walletConnect !== true) return undefined
  return SERVED[path]
}

/** True for the paths through a provider the wallet injects into the page. */
export function isInjectedPath(path: WalletPath): boolean {
  return INJECTED_PATHS.has(path)
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
 * - `phone` (a browser outside any wallet): the vendor SDK, the partner `sc*` universal link
 *   (Solana), Phantom's deeplinks, then WalletConnect (the wallet's link + `?uri=`).
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
  // A wallet that declares the scope-connect universal link (a partner) integrated it on purpose.
  if (!evm && walletSupportsMobileOn(info, namespace)) paths.push('universal-link')
  if (!evm && info.phantomLink) paths.push('phantom-link')
  if (onWalletConnect) paths.push('walletconnect')
  return paths
}

/**
 * A wallet's WalletConnect deep link for a pairing URI, by WalletConnect's convention: the wallet's
 * registry `walletConnect.link` + `?uri=` + the percent-encoded `wc:` URI (`&uri=` when the link
 * already carries a query). Used by the modal's phone view, one link per wallet.
 */
export function walletConnectDeepLink(link: string, pairingUri: string): string {
  const separator = link.includes('?') ? '&' : '?'
  return `${link}${separator}uri=${encodeURIComponent(pairingUri)}`
}
