/**
 * scope-connect: the public API. Every export is named here on purpose; `test/exports.test.ts`
 * snapshots this list so API changes show in review. The `Client` (`scope-connect/client`) and the
 * connectors (`scope-connect/connectors`) have entries of their own: they load code on demand, and
 * no module this entry reaches holds an `import()` (see `src/client/index.ts`).
 *
 * Values are re-exported through `./root/*` (one file per module, naming its exports) with
 * `export *`: esbuild with code splitting keeps every module an index names with
 * `export { … } from` once the app also has an `import()` (evanw/esbuild#1110), which loaded the
 * shared modules of the Client's lazy chunks up front (a typical app: 70 KB instead of 34 KB).
 */

export type { InspectionOptions, InspectOption } from '../machines/shared/inspect'
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
export * from './root/balance'
export * from './root/config'
export * from './root/connection'
export * from './root/eip3009'
export * from './root/errors'
export * from './root/logging'
export * from './root/machines-shared-inspect'
export * from './root/registry'
export * from './root/relay'
export * from './root/relay-client'
export * from './root/relay-protocol'
export * from './root/session-client'
export * from './root/session-face-poll'
export * from './root/sign-in'
export * from './root/transaction'
export * from './root/universal-link'
export * from './root/wire-envelope'
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
export type { SignInParameters } from './siwe/parameters'
export type { RecordEnvelope, RecordStore } from './storage/record-store'
export type {
  UniversalLinkConnectorOptions,
  UniversalLinkResumeResult,
} from './universal-link/face/connector'
export type { SignInRecord } from './wire/schemas/sign-in'
export type { SignInMessage, SignInNamespace } from './wire/sign-in-message'
