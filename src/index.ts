/**
 * scope-connect: the public API. Every export is named here on purpose; `test/exports.test.ts`
 * snapshots this list so API changes show in review. The `Client` (`scope-connect/client`) and the
 * connectors (`scope-connect/connectors`) have entries of their own: they load code on demand, and
 * no module this entry reaches holds an `import()` (see `src/client/index.ts`).
 */

export type { InspectionOptions, InspectOption } from '../machines/shared/inspect'
export { createSafeInspector, sanitizeInspectionEvent } from '../machines/shared/inspect'
export {
  type BalanceReader,
  type BalanceReaderOptions,
  createBalanceReader,
  type TokenBalance,
  type TokenBalanceQuery,
  type TokenBalanceResult,
} from './balance'
export {
  type ConnectConfig,
  type ConnectConfigClient,
  type ConnectConfigClientOptions,
  type ConnectConfigNetwork,
  type ConnectConfigWallet,
  createConnectConfigClient,
} from './config'
export {
  CONNECTION_STORE_FORMAT,
  CONNECTION_STORE_FORMAT_VERSION,
  type ConnectionStore,
  createBrowserConnectionStore,
  createMemoryConnectionStore,
  DEFAULT_CONNECTION_STORAGE_KEY,
  parseStoredConnection,
  type StoredConnection,
} from './connection'
export type {
  AddEthereumChainParameter,
  ConnectorEvent,
  CreateConnectorOptions,
  Eip1193Provider,
  Eip1193ProviderGetter,
  Eip6963ConnectorOptions,
  Eip6963ProviderDetail,
  Eip6963ProviderInfo,
  InjectedConnectorOptions,
  IWalletConnector,
  LegacySolanaProvider,
  MetaMaskSdkDappMetadata,
  MetaMaskSdkOptions,
  MetaMaskSdkProviderGetter,
  RequestArgs,
  SolanaInjectedConnectorOptions,
  SolanaSignAndSendTransactionResult,
  SolanaSignMessageResult,
  SolanaSignTransactionResult,
  WalletConnection,
} from './connectors'
export {
  authorizationOf,
  type BuildEip3009AuthorizationParams,
  buildEip3009Authorization,
  type ContractReader,
  type Eip3009Authorization,
  type Eip3009TypedData,
  type RelaySessionRequester,
  type SignedTransferAuthorization,
  type SignTransferAuthorizationParams,
  type SplitSignature,
  signTransferAuthorization,
  signTypedDataOverRelay,
  splitSignature,
} from './eip3009'
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
  clearNetworks,
  clearPartnerWallets,
  defineNetwork,
  EIP6963_WALLET_PREFIX,
  getNetworkInfo,
  getNetworksForWallet,
  getWalletInfo,
  getWalletNamespaces,
  getWalletsForNetwork,
  isWalletNetworkSupported,
  type ListWalletsOptions,
  listConnectableTargets,
  listPartnerWallets,
  listSupportedNetworks,
  listSupportedWallets,
  type NativeCurrency,
  type NetworkDefinition,
  type NetworkInfo,
  type PartnerWalletInfo,
  type PartnerWalletInput,
  registerNetworks,
  registerPartnerWallets,
  resolveWalletInfo,
  type SupportWalletInfo,
  supportNetworks,
  supportWallets,
  WALLET_STANDARD_WALLET_PREFIX,
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
export {
  createRelayClient,
  createRelayTokenSource,
  type PublishOptions,
  type RelayClient,
  type RelayClientOptions,
  type RelayStatus,
  type RelayStatusChange,
  relayUrlForBaseUrl,
  type WebSocketConstructor,
  type WebSocketLike,
} from './relay/client'
export {
  type PeerMetadata,
  SESSION_ERROR_CODES,
  SESSION_METHODS,
  WALLET_REQUEST_METHODS,
  type WalletRequest,
} from './relay/protocol'
export { GenericWalletSessionClient } from './session/client'
export { type PollGenericSessionOptions, pollGenericSessionResult } from './session/face/poll'
export type {
  CallbackOptions,
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
  WatchedResult,
  WatchResultOptions,
} from './session/types'
export type { RecordEnvelope, RecordStore } from './storage/record-store'
export {
  createBrowserTransactionStore,
  createMemoryTransactionStore,
  createTransactionStatusReader,
  DEFAULT_TRANSACTION_STORAGE_KEY,
  parseTransactionRecord,
  type SendTransactionParameters,
  TRANSACTION_RECORD_FORMAT,
  TRANSACTION_RECORD_VERSION,
  type TransactionCall,
  type TransactionHandle,
  type TransactionReceiptSummary,
  type TransactionRecord,
  type TransactionStatusReaderOptions,
  type TransactionStore,
  toTransactionRequestData,
} from './transaction'
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
export type {
  UniversalLinkConnectorOptions,
  UniversalLinkResumeResult,
} from './universal-link/face/connector'
export { buildSignedMessageEnvelope } from './wire/envelope'
