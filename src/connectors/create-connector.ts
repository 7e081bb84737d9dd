import { invalidArgument, optionsObject } from '../errors/arguments'
import {
  PhantomLinkConnector,
  type PhantomLinkConnectorOptions,
} from '../phantom-link/face/connector'
import { phantomLinkOptions } from '../phantom-link/options'
import type { Caip2ChainId, ChainNamespace, SupportWalletInfo } from '../registry/types'
import { CoinbaseSdkConnector, type CoinbaseSdkOptions } from './coinbase-sdk'
import {
  connectorKindForWallet,
  missingUniversalLinkFactory,
  solanaInjectedOptions,
} from './connector-kind'
import { Eip6963Connector } from './eip6963'
import { InjectedConnector } from './injected'
import { injectedFallbackFor } from './injected-fallback'
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
  /**
   * Whether the wallet's provider is in the page (`isWalletInjected`): on a phone, a wallet's in-app
   * browser, where the injected connector is taken; on a desktop `false` takes the wallet's SDK
   * (Coinbase) instead of waiting for an extension. Default: unknown (`connectorKindForWallet`).
   */
  injected?: boolean
  /** Passed to `Eip6963Connector`. */
  eip6963TimeoutMs?: number
  /** Passed to `MetaMaskSdkConnector` (`dappMetadata`, `importSdk`, SDK options). */
  metaMaskSdk?: MetaMaskSdkOptions
  /** Passed to `CoinbaseSdkConnector` (`appName`, `importSdk`, SDK options). */
  coinbaseSdk?: CoinbaseSdkOptions
  /** Solana chain for `SolanaInjectedConnector` and `PhantomLinkConnector`; default mainnet. */
  solanaChainId?: Caip2ChainId
  /** Settings of `PhantomLinkConnector` (mobile Solana wallets with a `phantomLink` entry). */
  phantomLink?: Omit<PhantomLinkConnectorOptions, 'walletId' | 'baseUrl' | 'chainId'>
  /**
   * Builds the WalletConnect connector (e.g. one `WalletConnectConnector` shared by every wallet);
   * without it the `walletconnect` path is not served.
   */
  walletConnect?: (info: SupportWalletInfo) => IWalletConnector
}

/**
 * The connector for one wallet on one namespace. Creating it reads no `window`; availability is
 * checked by the connector's `isAvailable()` and `connect()`.
 *
 * | where   | namespace | connector                                                          |
 * |---------|-----------|--------------------------------------------------------------------|
 * | desktop | eip155    | `Eip6963Connector(info.rdns)`; `InjectedConnector` without rdns, or at once when `window.ethereum` is the wallet and it does not announce itself (`injectedFallbackFor`) |
 * | desktop | solana    | `SolanaInjectedConnector({ walletId, walletName })`                |
 * | desktop | eip155    | `CoinbaseSdkConnector` for `coinbase` when `options.injected` is `false` |
 * | phone   | eip155    | `MetaMaskSdkConnector` for `metamask`, `CoinbaseSdkConnector` for `coinbase` |
 * | phone   | solana    | `options.universalLink(info)` for a partner wallet with a Solana `sc*` universal link |
 * | phone   | solana    | `PhantomLinkConnector` when the wallet has `phantomLink` (Phantom, Solflare) |
 * | in-app  | both      | as on a desktop: the wallet's injected provider (`options.injected`) |
 * | desktop / phone | both | `options.walletConnect(info)` when that is the wallet's first served path (no extension; no SDK or deeplinks on a phone; the generic `walletconnect` wallet) |
 *
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the wallet does not support `namespace` at all;
 * `WALLET_UNAVAILABLE` when it does but has no connector on this platform (a phone wallet whose
 * paths are WalletConnect or Phantom's deeplinks only, see `walletPaths`; or
 * `options.universalLink` missing); `INVALID_CONFIG` when `info` is not a registry wallet,
 * `namespace` not `eip155`/`solana`, or `options` (its factories) not of the documented type.
 */
export function createConnectorForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  options: CreateConnectorOptions = {},
): IWalletConnector {
  options = optionsObject<CreateConnectorOptions>(options, 'options')
  for (const name of ['walletConnect', 'universalLink'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw invalidArgument(`options.${name}`, 'must be a function')
    }
  }
  const { walletConnect } = options
  const mobile = options.mobile ?? false
  switch (connectorKindForWallet(info, namespace, mobile, options.injected, !!walletConnect)) {
    case 'solana-injected':
      return new SolanaInjectedConnector(solanaInjectedOptions(info, options))
    case 'eip6963':
      return (
        injectedFallbackFor(info) ??
        new Eip6963Connector(info.rdns ?? '', { timeoutMs: options.eip6963TimeoutMs })
      )
    case 'injected':
      return new InjectedConnector(undefined, { walletId: info.id })
    case 'metamask-sdk':
      return new MetaMaskSdkConnector(options.metaMaskSdk)
    case 'coinbase-sdk':
      return new CoinbaseSdkConnector(options.coinbaseSdk)
    case 'universal-link':
      if (!options.universalLink) throw missingUniversalLinkFactory(info)
      return options.universalLink(info)
    case 'phantom-link':
      return new PhantomLinkConnector(phantomLinkOptions(info, options))
    case 'walletconnect':
      // Served only with the factory (connectorKindForWallet).
      return (walletConnect as NonNullable<typeof walletConnect>)(info)
  }
}
