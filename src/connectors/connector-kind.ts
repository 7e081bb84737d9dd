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
  | 'universal-link'
  | 'phantom-link'

/**
 * Which built-in connector serves `info` on `namespace` (the table of `createConnectorForWallet`).
 * Pure: it reads the registry entry only, so the choice costs no connector code.
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the wallet does not support `namespace` at all;
 * `WALLET_UNAVAILABLE` when it does but has no connector on this platform.
 */
export function connectorKindForWallet(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
  mobile: boolean,
): ConnectorKind {
  if (!walletSupportsNamespace(info, namespace)) {
    throw new AppError('UNSUPPORTED_CHAIN', `${info.name} does not support ${namespace}.`)
  }
  if (!mobile) {
    if (namespace === 'solana') return 'solana-injected'
    return info.rdns ? 'eip6963' : 'injected'
  }
  if (namespace === 'eip155') {
    if (info.id === 'metamask') return 'metamask-sdk'
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `${info.name} has no mobile EVM connector; pair it over the relay instead.`,
    )
  }
  // Phantom's deeplink protocol v1 (Phantom, Solflare): what these wallets' apps answer today. A
  // wallet that also declares the scope-connect universal link (a partner) keeps that one.
  if (info.phantomLink && !walletSupportsMobileOn(info, 'solana')) return 'phantom-link'
  if (!walletSupportsMobileOn(info, 'solana')) {
    throw new AppError('WALLET_UNAVAILABLE', `${info.name} has no Solana universal link.`)
  }
  return 'universal-link'
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
