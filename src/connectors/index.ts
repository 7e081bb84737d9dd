/**
 * `scope-connect/connectors`: the built-in EVM and Solana connectors, EIP-6963 discovery, the
 * universal-link connector and the factories `Client.selectWallet` uses. Apps that go through the
 * `Client` never import this entry: `selectWallet` loads the one connector it picks on demand.
 */

export {
  UniversalLinkConnector,
  type UniversalLinkConnectorOptions,
  type UniversalLinkResumeResult,
} from '../universal-link/face/connector'
export { toEip155ChainId, toHexChainId } from './chain-id'
export {
  type ConnectorKind,
  connectorKindForWallet,
  solanaInjectedOptions,
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
