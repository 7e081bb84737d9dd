import { phantomLinkOptions } from '../phantom-link/options'
import type { ChainNamespace, SupportWalletInfo } from '../registry/types'
import {
  connectorKindForWallet,
  missingUniversalLinkFactory,
  solanaInjectedOptions,
} from './connector-kind'
import type { CreateConnectorOptions } from './create-connector'
import type { IWalletConnector } from './types'

/** Options of `loadConnectorForWallet`: those of `createConnectorForWallet`, the universal link async. */
export interface LoadConnectorOptions
  extends Omit<CreateConnectorOptions, 'universalLink' | 'phantomLink' | 'walletConnect'> {
  /** Builds (and may load) the universal-link connector for a mobile Solana wallet. */
  universalLink?: (info: SupportWalletInfo) => Promise<IWalletConnector>
  /** `PhantomLinkConnector` settings, or a function that builds the connector (the `Client` keeps one per wallet). */
  phantomLink?:
    | CreateConnectorOptions['phantomLink']
    | ((info: SupportWalletInfo) => Promise<IWalletConnector>)
  /**
   * Builds (and may load) the WalletConnect connector (the `Client` keeps one, shared by every
   * wallet); without it the `walletconnect` path is not served.
   */
  walletConnect?: (info: SupportWalletInfo) => Promise<IWalletConnector>
}

/**
 * `createConnectorForWallet` with each connector's code loaded by dynamic import: an app bundles the
 * `Client` up front and fetches only the chunk of the connector kind `selectWallet` picks (EIP-6963 /
 * injected, Wallet Standard, MetaMask SDK, Coinbase Wallet SDK, universal link, WalletConnect). Same choice, same errors.
 * @throws {AppError} `UNSUPPORTED_CHAIN`, `WALLET_UNAVAILABLE` as `createConnectorForWallet`.
 */
export async function loadConnectorForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  options: LoadConnectorOptions = {},
): Promise<IWalletConnector> {
  const { walletConnect } = options
  const mobile = options.mobile ?? false
  switch (connectorKindForWallet(info, namespace, mobile, options.injected, !!walletConnect)) {
    case 'solana-injected': {
      const { SolanaInjectedConnector } = await import('./solana-injected')
      return new SolanaInjectedConnector(solanaInjectedOptions(info, options))
    }
    case 'eip6963': {
      const fallback = (await import('./injected-fallback')).injectedFallbackFor(info)
      if (fallback) return fallback
      const { Eip6963Connector } = await import('./eip6963')
      return new Eip6963Connector(info.rdns ?? '', { timeoutMs: options.eip6963TimeoutMs })
    }
    case 'injected': {
      const { InjectedConnector } = await import('./injected')
      return new InjectedConnector(undefined, { walletId: info.id })
    }
    case 'metamask-sdk': {
      const { MetaMaskSdkConnector } = await import('./metamask-sdk')
      return new MetaMaskSdkConnector(options.metaMaskSdk)
    }
    case 'coinbase-sdk': {
      const { CoinbaseSdkConnector } = await import('./coinbase-sdk')
      return new CoinbaseSdkConnector(options.coinbaseSdk)
    }
    case 'universal-link':
      if (!options.universalLink) throw missingUniversalLinkFactory(info)
      return options.universalLink(info)
    case 'phantom-link': {
      const { phantomLink } = options
      if (typeof phantomLink === 'function') return phantomLink(info)
      const { PhantomLinkConnector } = await import('../phantom-link/face/connector')
      return new PhantomLinkConnector(phantomLinkOptions(info, { ...options, phantomLink }))
    }
    case 'walletconnect':
      // Served only with the factory (connectorKindForWallet).
      return (walletConnect as NonNullable<typeof walletConnect>)(info)
  }
}
