/**
 * `scope-connect/connectors`: the built-in EVM and Solana connectors, EIP-6963 discovery, the
 * universal-link connector and the factories `Client.selectWallet` uses. Apps that go through the
 * `Client` never import this entry: `selectWallet` loads the one connector it picks on demand.
 */

export {
  createBrowserPhantomLinkStore,
  createMemoryPhantomLinkStore,
  DEFAULT_PHANTOM_LINK_STORAGE_KEY,
} from '../phantom-link/browser-store'
export {
  DEFAULT_PHANTOM_LINK_ANSWER_MS,
  PhantomLinkConnector,
  type PhantomLinkConnectorOptions,
  type PhantomLinkRefusal,
  type PhantomLinkResumeResult,
} from '../phantom-link/face/connector'
export {
  PHANTOM_LINK_STATE_FORMAT,
  PHANTOM_LINK_STATE_VERSION,
  type PhantomLinkPersistedState,
  parsePhantomLinkState,
} from '../phantom-link/persisted'
export { PHANTOM_LINK_FLOW_PARAM, phantomErrorCode } from '../phantom-link/protocol'
export {
  UniversalLinkConnector,
  type UniversalLinkConnectorOptions,
  type UniversalLinkResumeResult,
} from '../universal-link/face/connector'
export { toEip155ChainId, toHexChainId } from './chain-id'
export { CoinbaseSdkConnector, type CoinbaseSdkOptions } from './coinbase-sdk'
export {
  type ConnectorKind,
  connectorKindForWallet,
  isInjectedPath,
  isServedPath,
  type ServedPathOptions,
  solanaInjectedOptions,
  type WalletPath,
  type WalletPlatform,
  walletPaths,
} from './connector-kind'
export {
  type CreateConnectorOptions,
  createConnectorForWallet,
} from './create-connector'
export { Eip1193Connector, type Eip1193ProviderGetter } from './eip1193'
export { Eip6963Connector, type Eip6963ConnectorOptions } from './eip6963'
export {
  DEFAULT_EIP6963_TIMEOUT_MS,
  type Eip6963ProviderDetail,
  type Eip6963ProviderInfo,
  findEip6963Provider,
  getAnnouncedEip6963Provider,
  listEip6963Providers,
} from './eip6963-discovery'
export { InjectedConnector, type InjectedConnectorOptions, isEip1193Provider } from './injected'
export { injectedFallbackFor } from './injected-fallback'
export {
  createMetaMaskSdkProviderGetter,
  MetaMaskSdkConnector,
  type MetaMaskSdkDappMetadata,
  type MetaMaskSdkOptions,
  type MetaMaskSdkProviderGetter,
} from './metamask-sdk'
export { isWalletInjected } from './presence'
export { normalizeSolanaWalletError } from './solana-errors'
export {
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SIGN_AND_SEND_TRANSACTION_METHOD,
  SOLANA_SIGN_MESSAGE_METHOD,
  SolanaInjectedConnector,
  type SolanaInjectedConnectorOptions,
  type SolanaSignAndSendTransactionResult,
  type SolanaSignMessageResult,
  type SolanaSignTransactionResult,
} from './solana-injected'
export { findLegacySolanaProvider, type LegacySolanaProvider } from './solana-legacy'
export {
  registerSolanaMobileWalletAdapter,
  SOLANA_MOBILE_WALLET_NAME,
  type SolanaMobileWalletAdapterOptions,
} from './solana-mobile'
export {
  type AddEthereumChainParameter,
  addEthereumChainParameter,
  switchEthereumChain,
} from './switch-chain'
export type {
  ConnectorEvent,
  Eip1193Provider,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from './types'
export { walletConnectDeepLink } from './wallet-connect-deep-link'
export {
  findSolanaStandardWallet,
  type SolanaSignMessageFeature,
  type SolanaSignTransactionFeature,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  toWalletStandardSolanaChain,
} from './wallet-standard-solana'
export {
  WalletConnectConnector,
  type WalletConnectConnectorOptions,
} from './walletconnect'
export {
  WALLETCONNECT_EIP155_EVENTS,
  WALLETCONNECT_EIP155_METHODS,
  WALLETCONNECT_SOLANA_METHODS,
  walletConnectNamespaces,
} from './walletconnect-namespaces'
export type {
  WalletConnectMetadata,
  WalletConnectNamespaceProposal,
  WalletConnectSession,
  WalletConnectSessionNamespace,
  WalletConnectSignClient,
  WalletConnectStorage,
} from './walletconnect-sign-client'
