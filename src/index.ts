/**
 * scope-connect: the public API. Every export is named here on purpose; `test/exports.test.ts`
 * snapshots this list so API changes show in review.
 */

export type {
  ConnectorEvent,
  Eip1193Provider,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from './connectors/types'
export {
  AppError,
  type AppErrorCode,
  type FieldIssue,
  isAppError,
  isProviderRpcError,
  normalizeWalletError,
  ProviderRpcError,
  USER_REJECTED_CODE,
} from './errors'
export { setConsoleLogging, setDebugMode } from './logging'
export {
  type Caip2ChainId,
  type ChainNamespace,
  type ConnectableTarget,
  getNetworkInfo,
  getNetworksForWallet,
  getWalletInfo,
  getWalletNamespaces,
  getWalletsForNetwork,
  isWalletNetworkSupported,
  type ListWalletsOptions,
  listConnectableTargets,
  listSupportedNetworks,
  listSupportedWallets,
  type NativeCurrency,
  type NetworkInfo,
  type SupportWalletInfo,
  supportNetworks,
  supportWallets,
  type WalletId,
  walletIdForConnectorId,
  walletSupportsMobile,
  walletSupportsMobileOn,
  walletSupportsNamespace,
  walletSupportsRelay,
  walletSupportsRelayOn,
} from './registry'
export type { GenericSessionResultWire as GenericSessionResult } from './wire/aliases'
export { buildSignedMessageEnvelope } from './wire/envelope'
export {
  buildPairingUri,
  type CaipNamespace,
  type CaipNamespaces,
  createPairing,
  PAIRING_URI_SCHEME,
  type Pairing,
  type ParsedPairingUri,
  parsePairingUri,
  RELAY_PROTOCOL,
  RELAY_TOKEN_EXPIRY_MARGIN_MS,
  type RelayTokenGrant,
  relayTokenExpired,
  SCOPE_PAIRING_VERSION,
  type Session,
  type SettledNamespace,
  type SettledNamespaces,
} from './relay'
export {
  buildUniversalLinkUrl,
  createBrowserUniversalLinkStore,
  DEFAULT_UNIVERSAL_LINK_STORAGE_KEY,
  parsePersistedState,
  SOLANA_SIGN_TRANSACTION_METHOD,
  UNIVERSAL_LINK_PARAMS,
  UNIVERSAL_LINK_VERSION,
  type UniversalLinkInputs,
  type UniversalLinkMethod,
  type UniversalLinkPersistedState,
  type UniversalLinkStore,
} from './universal-link'
