/**
 * `scope-connect/machines`: the library's flows as XState v5 statecharts. Each machine is pure
 * (actors provided by name), typed with `setup()`, JSON-safe in context, and comes with its I/O
 * actors and a small factory for UIs. See docs/statecharts.md. What the library itself wires the
 * machines with (lazy stand-ins, persistence checks, redaction, request helpers) is in
 * `scope-connect/internal`, without semver guarantees (docs/internal.md).
 */

// ---- client (the root machine) -------------------------------------------------------------------
export type { ClientActor } from './client/client.facade'
export { type ClientMachine, clientMachine } from './client/client.machine'
export type { SnapshotMigration, SnapshotMigrations } from './client/client.persistence'
export {
  type ClientContext,
  type ClientEvent,
  type ClientInput,
  type ClientRelay,
  type ClientSignRequest,
  type ClientTag,
  type ClientTimeouts,
  type ConnectionKind,
  DEFAULT_CLIENT_TIMEOUTS,
  type LoadConnectorInput,
  type LoadedConnector,
  type OperationDeadline,
  type OperationKind,
  type OperationOutcome,
  type RelayRequestRef,
} from './client/client.types'
export {
  type ClientSnapshot,
  type ClientStatus,
  type ClientView,
  toClientView,
} from './client/client.view'
// ---- connect -------------------------------------------------------------------------------------
export { createConnectActors } from './connect/connect.actors'
export {
  type ConnectActor,
  type ConnectSnapshot,
  createConnectActor,
  provideConnect,
} from './connect/connect.facade'
export { type ConnectMachine, connectMachine } from './connect/connect.machine'
export type {
  ConnectContext,
  ConnectEvent,
  ConnectInput,
  ConnectionData,
  WalletWatchEvent,
} from './connect/connect.types'
// ---- pairing -------------------------------------------------------------------------------------
export {
  createPairingActors,
  type OutboxEntry,
  type PairingEnvironment,
  type PairingOutbox,
} from './pairing/pairing.actors'
export {
  type PairingActor,
  type PairingConnectionOptions,
  type PairingHandle,
  type PairingOptions,
  type PairingResumeResult,
  type PairingSnapshot,
  resumePairing,
  startPairing,
} from './pairing/pairing.facade'
export {
  PAIRING_MACHINE_VERSION,
  type PairingMachine,
  pairingMachine,
} from './pairing/pairing.machine'
export {
  checkRestorablePairing,
  createBrowserPairingStore,
  DEFAULT_PAIRING_STORAGE_KEY,
  PAIRING_STATE_FORMAT,
  PAIRING_STATE_FORMAT_VERSION,
  type PairingPersistedState,
  type PairingRestoreCheck,
  type PairingStore,
  persistWhilePaired,
} from './pairing/pairing.persistence'
export type {
  PairedSessionData,
  PairingContext,
  PairingEvent,
  PairingFinalStatus,
  PairingInput,
  PairingOutput,
  PairingRequestRecord,
  RelayConnectivity,
} from './pairing/pairing.types'
export {
  createMemoryPairingVault,
  type PairingSecrets,
  type PairingVault,
} from './pairing/pairing.vault'
export {
  type PairingMachineSnapshot,
  type PairingView,
  toPairingView,
} from './pairing/pairing.view'
// ---- phantom-link (Phantom's deeplinks v1) -------------------------------------------------------
export { type PhantomLinkMachine, phantomLinkMachine } from './phantom-link/phantom-link.machine'
export type {
  PhantomLinkContext,
  PhantomLinkEvent,
  PhantomLinkInput,
  PhantomLinkOutcome,
  PhantomLinkRequest,
} from './phantom-link/phantom-link.types'
// ---- relay connection ----------------------------------------------------------------------------
export {
  createRelayConnectionActors,
  type RelayConnectionEnvironment,
} from './relay-connection/relay-connection.actors'
export {
  type RelayConnectionMachine,
  relayConnectionMachine,
} from './relay-connection/relay-connection.machine'
export {
  RELAY_ONLINE_TAG,
  type RelayConnectionContext,
  type RelayConnectionEvent,
  type RelayConnectionInput,
} from './relay-connection/relay-connection.types'
export {
  type RelayConnectionSnapshot,
  type RelayConnectionView,
  toRelayConnectionView,
} from './relay-connection/relay-connection.view'
// ---- session polling -----------------------------------------------------------------------------
export {
  createMemoryTokenVault,
  createSessionPollingActors,
  type PollingEnvironment,
  type SessionPollingClient,
  type SessionTokenVault,
} from './session-polling/session-polling.actors'
export {
  createSessionPollingActor,
  provideSessionPolling,
  resumeSessionPollingActor,
  type SessionPollingActor,
  type SessionPollingActorOptions,
  type SessionPollingSnapshot,
} from './session-polling/session-polling.facade'
export {
  type SessionPollingMachine,
  sessionPollingMachine,
} from './session-polling/session-polling.machine'
export {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  type CreatedSession,
  type CreateSessionParams,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_POLL_TIMEOUT_MS,
  type FetchResultInput,
  type FetchResultOutput,
  type PollFailure,
  type PollTarget,
  type SessionPollingContext,
  type SessionPollingEvent,
  type SessionPollingInput,
  type SessionPollingOutput,
  type SessionRef,
} from './session-polling/session-polling.types'
// ---- shared --------------------------------------------------------------------------------------
export type { ErrorData } from './shared/error-data'
export {
  createSafeInspector,
  type InspectionOptions,
  type InspectOption,
  sanitizeInspectionEvent,
} from './shared/inspect'
// ---- sign ----------------------------------------------------------------------------------------
export { createSignActors, type SignVerifier, sessionSignInput } from './sign/sign.actors'
export {
  createSignActor,
  provideSign,
  type SignActor,
  type SignActorOptions,
  type SignSnapshot,
} from './sign/sign.facade'
export { type SignMachine, signMachine } from './sign/sign.machine'
export type {
  JsonValue,
  SignContext,
  SignEvent,
  SignInput,
  SignOutput,
  SignRequest,
  SignVerification,
  VerifySignatureInput,
} from './sign/sign.types'
// ---- transaction ---------------------------------------------------------------------------------
export {
  createTransactionActors,
  provideTransaction,
  type TransactionEnvironment,
} from './transaction/transaction.actors'
export { type TransactionMachine, transactionMachine } from './transaction/transaction.machine'
export {
  DEFAULT_TRANSACTION_TIMEOUTS,
  type EvmCallData,
  MAX_STATUS_FAILURES,
  type ReadStatusInput,
  type StatusRead,
  type TransactionContext,
  type TransactionDeadlines,
  type TransactionEvent,
  type TransactionInput,
  type TransactionOutcome,
  type TransactionRequestData,
  type TransactionSummary,
  type TransactionTimeouts,
} from './transaction/transaction.types'
export {
  type TransactionSnapshot,
  type TransactionStage,
  type TransactionView,
  toTransactionView,
} from './transaction/transaction.view'
// ---- universal link (machine by the universal-link module) ---------------------------------------
export {
  createUniversalLinkActors,
  type UniversalLinkActorOptions,
} from './universal-link/universal-link.actors'
export {
  type UniversalLinkActor,
  type UniversalLinkMachine,
  type UniversalLinkSnapshot,
  universalLinkMachine,
} from './universal-link/universal-link.machine'
export type {
  CreateUniversalLinkSessionInput,
  OpenWalletInput,
  UniversalLinkContext,
  UniversalLinkEvent,
  UniversalLinkFinalStatus,
  UniversalLinkInput,
  UniversalLinkOutput,
  UniversalLinkSession,
  UniversalLinkTag,
} from './universal-link/universal-link.types'
