/** Wallet and network registry (built in, partner wallets, registered networks) and its lookups (source section 4.3). */
export {
  getWalletNamespaces,
  walletSupportsMobile,
  walletSupportsMobileOn,
  walletSupportsNamespace,
  walletSupportsRelay,
  walletSupportsRelayOn,
} from './capabilities'
export { walletIdForConnectorId } from './connector-id'
export { clearNetworks, registerNetworks } from './custom-networks'
export { defineNetwork, type NetworkDefinition } from './define-network'
export {
  EIP6963_WALLET_PREFIX,
  resolveWalletInfo,
  WALLET_STANDARD_WALLET_PREFIX,
} from './generic'
export {
  getNetworkInfo,
  getNetworksForWallet,
  getWalletInfo,
  getWalletsForNetwork,
  isWalletNetworkSupported,
  listSupportedNetworks,
  listSupportedWallets,
} from './lookups'
export { supportNetworks } from './networks'
export type { PartnerWalletInfo, PartnerWalletInput } from './partners'
export {
  clearPartnerWallets,
  listPartnerWallets,
  registerPartnerWallets,
} from './partners'
export { listConnectableTargets } from './targets'
export type {
  Caip2ChainId,
  ChainNamespace,
  ConnectableTarget,
  ListWalletsOptions,
  NativeCurrency,
  NetworkInfo,
  SupportWalletInfo,
  WalletId,
} from './types'
export { supportWallets } from './wallets'
