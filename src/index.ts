/**
 * scope-connect: the public API. Every export is named here on purpose; `test/exports.test.ts`
 * snapshots this list so API changes show in review.
 */

export type { InspectionOptions, InspectOption } from '../machines/shared/inspect'
export { createSafeInspector, sanitizeInspectionEvent } from '../machines/shared/inspect'
export {
  type BalanceReader,
  type BalanceReaderOptions,
  createBalanceReader,
  type TokenBalance,
  type TokenBalanceQuery,
} from './balance'
export { Client, type ClientOptions } from './client'
export {
  type ConnectConfig,
  type ConnectConfigClient,
  type ConnectConfigClientOptions,
  type ConnectConfigNetwork,
  type ConnectConfigWallet,
  createConnectConfigClient,
} from './config'
export {
  type ConnectorEvent,
  type CreateConnectorOptions,
  createConnectorForWallet,
  createMetaMaskSdkProviderGetter,
  DEFAULT_EIP6963_TIMEOUT_MS,
  Eip1193Connector,
  type Eip1193Provider,
  type Eip1193ProviderGetter,
  Eip6963Connector,
  type Eip6963ConnectorOptions,
  type Eip6963ProviderDetail,
  type Eip6963ProviderInfo,
  findEip6963Provider,
  findLegacySolanaProvider,
  findSolanaStandardWallet,
  getAnnouncedEip6963Provider,
  InjectedConnector,
  type InjectedConnectorOptions,
  type IWalletConnector,
  isEip1193Provider,
  type LegacySolanaProvider,
  listEip6963Providers,
  MetaMaskSdkConnector,
  type MetaMaskSdkDappMetadata,
  type MetaMaskSdkOptions,
  type MetaMaskSdkProviderGetter,
  normalizeSolanaWalletError,
  type RequestArgs,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SIGN_MESSAGE_METHOD,
  SolanaInjectedConnector,
  type SolanaInjectedConnectorOptions,
  type SolanaSignMessageResult,
  type SolanaSignTransactionResult,
  toEip155ChainId,
  toHexChainId,
  toWalletStandardSolanaChain,
  type WalletConnection,
} from './connectors'
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
export { GenericWalletSessionClient } from './session/client'
export { type PollGenericSessionOptions, pollGenericSessionResult } from './session/poll'
export type {
  CreateSessionOptions,
  GenericSession,
  GenericSessionResult,
  GenericWalletSessionOptions,
  PostConnectBody,
  PostRejectBody,
  PostSignMsgBody,
  PostTransactionBody,
  SessionIntent,
  SessionStatus,
  VerifySessionBody,
} from './session/types'
export {
  buildUniversalLinkUrl,
  createBrowserUniversalLinkStore,
  createMemoryUniversalLinkStore,
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
export {
  UniversalLinkConnector,
  type UniversalLinkConnectorOptions,
  type UniversalLinkResumeResult,
} from './universal-link/connector'
export { buildSignedMessageEnvelope } from './wire/envelope'
