import { AppError } from '../errors'
import { walletSupportsMobileOn, walletSupportsNamespace } from '../registry'
import type { Caip2ChainId, ChainNamespace, SupportWalletInfo } from '../registry/types'
import { Eip6963Connector } from './eip6963'
import { InjectedConnector } from './injected'
import { MetaMaskSdkConnector, type MetaMaskSdkOptions } from './metamask-sdk'
import { SolanaInjectedConnector } from './solana-injected'
import type { IWalletConnector } from './types'

/** Options of `createConnectorForWallet`: platform, the universal-link factory, connector settings. */
export interface CreateConnectorOptions {
  /** Pick the mobile path (SDK provider or universal link) instead of the desktop extension. */
  mobile?: boolean
  /**
   * Builds the universal-link connector for a mobile Solana wallet (the client passes one that
   * creates a `UniversalLinkConnector` with its session client and store).
   */
  universalLink?: (info: SupportWalletInfo) => IWalletConnector
  /** Passed to `Eip6963Connector`. */
  eip6963TimeoutMs?: number
  /** Passed to `MetaMaskSdkConnector` (`dappMetadata`, `importSdk`, SDK options). */
  metaMaskSdk?: MetaMaskSdkOptions
  /** Solana chain for `SolanaInjectedConnector`; default mainnet. */
  solanaChainId?: Caip2ChainId
}

/**
 * The connector for one wallet on one namespace. Creating it reads no `window`; availability is
 * checked by the connector's `isAvailable()` and `connect()`.
 *
 * | where   | namespace | connector                                                          |
 * |---------|-----------|--------------------------------------------------------------------|
 * | desktop | eip155    | `Eip6963Connector(info.rdns)`, or `InjectedConnector()` without rdns |
 * | desktop | solana    | `SolanaInjectedConnector({ walletId, walletName })`                |
 * | mobile  | eip155    | `MetaMaskSdkConnector` for `metamask`                              |
 * | mobile  | solana    | `options.universalLink(info)` when the wallet has a Solana universal link |
 *
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the wallet does not support `namespace` at all;
 * `WALLET_UNAVAILABLE` when it does but has no connector on this platform (mobile EVM wallets
 * other than MetaMask, which pair over the relay; a mobile Solana wallet without a universal link;
 * or `options.universalLink` missing).
 */
export function createConnectorForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  options: CreateConnectorOptions = {},
): IWalletConnector {
  if (!walletSupportsNamespace(info, namespace)) {
    throw new AppError('UNSUPPORTED_CHAIN', `${info.name} does not support ${namespace}.`)
  }
  if (!options.mobile) {
    if (namespace === 'solana') {
      return new SolanaInjectedConnector({
        walletId: info.id,
        walletName: info.injected?.walletStandardName ?? info.name,
        ...(options.solanaChainId ? { chainId: options.solanaChainId } : {}),
      })
    }
    return info.rdns
      ? new Eip6963Connector(info.rdns, { timeoutMs: options.eip6963TimeoutMs })
      : new InjectedConnector(undefined, { walletId: info.id })
  }
  if (namespace === 'eip155') {
    if (info.id === 'metamask') return new MetaMaskSdkConnector(options.metaMaskSdk)
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `${info.name} has no mobile EVM connector; pair it over the relay instead.`,
    )
  }
  if (!walletSupportsMobileOn(info, 'solana')) {
    throw new AppError('WALLET_UNAVAILABLE', `${info.name} has no Solana universal link.`)
  }
  if (!options.universalLink) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `Connecting ${info.name} on mobile needs options.universalLink (a UniversalLinkConnector factory).`,
    )
  }
  return options.universalLink(info)
}
