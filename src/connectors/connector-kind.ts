import { AppError } from '../errors/app-error'
import { optionsObject } from '../errors/arguments'
import { walletSupportsNamespace } from '../registry/capabilities'
import type { Caip2ChainId, ChainNamespace, SupportWalletInfo } from '../registry/types'
import type { SolanaInjectedConnectorOptions } from './solana-injected'
import { checkNamespace, checkWalletInfo } from './wallet-arguments'
import {
  type ConnectorKind,
  isInjectedPath,
  servedKind,
  type WalletPlatform,
  walletPaths,
} from './wallet-paths'

export {
  type ConnectorKind,
  isInjectedPath,
  isServedPath,
  type ServedPathOptions,
  type WalletPath,
  type WalletPlatform,
  walletPaths,
} from './wallet-paths'

/**
 * Which built-in connector serves `info` on `namespace` (the table of `createConnectorForWallet`):
 * the first of `walletPaths` it has a connector for. `injected` says whether the wallet's provider
 * is in the page (`isWalletInjected`): on a phone it means a wallet's in-app browser, where the
 * injected path is taken; on a desktop `false` lets a wallet without its extension take its SDK
 * (Coinbase). Unknown (`undefined`): the extension on a desktop, the mobile paths on a phone.
 * `walletConnect`: the app configured WalletConnect (`ClientOptions.walletConnect`), so the
 * `walletconnect` path is served: a desktop without the wallet's extension, a phone browser whose
 * wallet has no vendor SDK or deeplinks, and the generic `walletconnect` wallet take it.
 * Pure: it reads the registry entry only, so the choice costs no connector code.
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the wallet does not support `namespace` at all;
 * `WALLET_UNAVAILABLE` when it does but has no connector on this platform (its paths are then
 * WalletConnect, Phantom's deeplinks or the relay, which have connectors of their own);
 * `INVALID_CONFIG` when `info` is not a registry wallet or `namespace` not `eip155`/`solana`.
 */
export function connectorKindForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  mobile: boolean,
  injected?: boolean,
  walletConnect = false,
): ConnectorKind {
  checkWalletInfo(info)
  checkNamespace(namespace)
  if (!walletSupportsNamespace(info, namespace)) {
    throw new AppError('UNSUPPORTED_CHAIN', `${info.name} does not support ${namespace}.`)
  }
  const platform: WalletPlatform = !mobile ? 'desktop' : injected ? 'in-app' : 'phone'
  const paths = walletPaths(info, namespace, platform)
  const served = paths.flatMap((path) => {
    const kind = servedKind(path, { walletConnect })
    return kind === undefined ? [] : [{ path, kind }]
  })
  if (platform === 'desktop') {
    // Without its extension a wallet takes its SDK; otherwise the extension is waited for.
    // A wallet with no extension path at all (the generic `walletconnect`) takes its other path.
    const other = served.find(({ path }) => !isInjectedPath(path))
    const noExtension = !served.some(({ path }) => isInjectedPath(path))
    if (other && (injected === false || noExtension)) return other.kind
    if (namespace === 'solana') return 'solana-injected'
    return info.rdns ? 'eip6963' : 'injected'
  }
  const first = served[0]
  if (first) return first.kind
  const offered = paths.length > 0 ? `: it connects through ${paths.join(', ')}` : ''
  const hint =
    !walletConnect && paths.includes('walletconnect')
      ? ' (configure WalletConnect: new Client({ walletConnect: { projectId, metadata } }))'
      : ''
  throw new AppError(
    'WALLET_UNAVAILABLE',
    `${info.name} has no ${namespace} connector in a phone browser here${offered}${hint}.`,
  )
}

/** The error when a mobile Solana wallet is picked without a universal-link factory. */
export function missingUniversalLinkFactory(info: SupportWalletInfo): AppError {
  return new AppError(
    'WALLET_UNAVAILABLE',
    `Connecting ${info.name} on mobile needs options.universalLink (a UniversalLinkConnector factory).`,
  )
}

/**
 * `SolanaInjectedConnector` options for a registry wallet.
 * @throws AppError `INVALID_CONFIG` when `info` is not a registry wallet or `options` not an object.
 */
export function solanaInjectedOptions(
  info: SupportWalletInfo,
  options: { solanaChainId?: Caip2ChainId | undefined },
): SolanaInjectedConnectorOptions {
  checkWalletInfo(info)
  options = optionsObject(options, 'options')
  return {
    walletId: info.id,
    walletName: info.injected?.walletStandardName ?? info.name,
    ...(options.solanaChainId ? { chainId: options.solanaChainId } : {}),
  }
}
