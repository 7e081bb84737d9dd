import type { SnapshotFrom } from 'xstate'
import type { TokenBalanceQuery } from '../../src/balance'
import type { ChainNamespace } from '../../src/registry/types'
import type { ConnectMachine } from '../connect/connect.machine'
import type { ConnectionData } from '../connect/connect.types'
import type { PairingInput, PairingRequestRecord } from '../pairing/pairing.types'
import type { ErrorData } from '../shared/error-data'
import type { TopState } from '../shared/top-state'
import type { SignMachine } from '../sign/sign.machine'
import type { SignRequest } from '../sign/sign.types'
import type { TransactionInput } from '../transaction/transaction.types'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'

/** Named timeouts of the `Client` (ms). Every flow settles by one of them at the latest. */
export interface ClientTimeouts {
  /** Loading a connector's code (a dynamic import) and building it. Default 15 000. */
  connectorLoadMs: number
  /** Waiting for an EIP-6963 wallet to announce itself. Default 3 000. */
  discoveryMs: number
  /**
   * The wallet's answer to a connection request (desktop prompt or mobile round trip), a chain
   * switch, and a transaction (`sendTransaction`, unless `transactions.timeouts` sets its own).
   * Default 300 000.
   */
  walletAnswerMs: number
  /** The wallet's answer to a signature request. Default 300 000. */
  signatureMs: number
  /** A silent reconnect (`resume()`): the wallet's answer without a prompt. Default 10 000. */
  reconnectMs: number
}

/** The defaults of `ClientTimeouts`. */
export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = {
  connectorLoadMs: 15_000,
  discoveryMs: 3_000,
  walletAnswerMs: 300_000,
  signatureMs: 300_000,
  reconnectMs: 10_000,
}

/**
 * Which machine drives the connection (`view.connectionKind`): `wallet`, a connector in the page
 * (`connect` and `sign` machines; which connector is `ConnectorKind` of `scope-connect/connectors`);
 * `universal-link`, the mobile flow by `sc*` links (`universalLink` machine); `relay`, a wallet
 * paired over the relay (`pair()`, `pairing` machine). Records stored before 0.3 spell the
 * second `universalLink`: it is read as `universal-link` (`migrateStoredConnectionKind`).
 */
export type ConnectionKind = 'wallet' | 'universal-link' | 'relay'

/** What `loadConnector` reports (the connector object itself stays with the facade). */
export interface LoadedConnector {
  kind: ConnectionKind
  connectorId: string
  walletId: string | null
  /** The chain of a universal-link flow. */
  chainId: string | null
  /** The poll cadence of a universal-link flow (null: the default). */
  pollIntervalMs?: readonly [number, number] | number | null
}

/**
 * Input of the `loadConnector` actor: `walletId` null picks the default connector; `connectorId`
 * (a reconnect's stored connector) picks that connector when it is a custom one or `injected`.
 */
export interface LoadConnectorInput {
  walletId: string | null
  connectorId: string | null
  namespace: ChainNamespace | null
  discoveryMs: number
}

/**
 * The kinds of operation a public method of the `Client` starts (`context.pending`); each ends in
 * exactly one `OperationOutcome`. (`context.flow` counts them: the number of the operation.)
 */
export type OperationKind =
  | 'select'
  | 'connect'
  | 'reconnect'
  | 'switchChain'
  | 'pair'
  | 'sign'
  | 'disconnect'
  | 'transaction'

/** How an operation ended (`flow`: its number): `error` null for success, `signature` for a signature. */
export interface OperationOutcome {
  flow: number
  kind: OperationKind
  error: ErrorData | null
  signature: string | null
}

/** A signature request: the wallet request and, for a universal link, what the link carries. */
export interface ClientSignRequest {
  request: SignRequest
  /** Universal link: `signTransaction` with the base64url payload, else `signMessage`. */
  link: { method: 'signMessage' | 'signTransaction'; payload: string | null }
}

/** Input of the root machine: the named timeouts that override `DEFAULT_CLIENT_TIMEOUTS`. */
export interface ClientInput {
  timeouts?: Partial<ClientTimeouts>
}

/** A wallet call over the paired session: its handle in the pairing outbox and its method. */
export interface RelayRequestRef {
  requestId: string
  method: string
}

/** The relay pairing of the root (`pair()`): the pairing child's input, its URI while pairing. */
export interface ClientRelay {
  /** The input of the invoked `pairing` machine (no secret: the keys stay in the pairing vault). */
  input: PairingInput
  /** The pairing URI to show as a QR code, until the wallet answers (it holds `symKeyP`). */
  uri: string | null
  /** The request in flight over the paired session. */
  request: RelayRequestRef | null
}

/** When operation number `flow` stops waiting (ms since the epoch): kept in context, so a restored root keeps it. */
export interface OperationDeadline {
  flow: number
  at: number
}

/**
 * The result polls of a universal-link wait are failing: how many in a row, and what the last one
 * met (`HTTP 503`, `no answer from the backend`, `an invalid answer (HTTP 200)`); never the
 * backend's own words.
 */
export interface LinkPollTrouble {
  failed: number
  last: string
}

/** The root machine's context: JSON-safe, no connector object, no token. */
export interface ClientContext {
  timeouts: ClientTimeouts
  walletId: string | null
  namespace: ChainNamespace | null
  /** The connector a reconnect asks for (the stored one); null: the wallet's own choice. */
  selectedConnectorId: string | null
  connector: LoadedConnector | null
  connection: ConnectionData | null
  /** The last flow's error, for display (also in `outcome`). */
  error: ErrorData | null
  /** The number of the last operation a method started (it increases with each). */
  flow: number
  /** The operation in progress, if any. */
  pending: OperationKind | null
  /** The last settled operation. */
  outcome: OperationOutcome | null
  sign: ClientSignRequest | null
  /** The universal link the wallet was last opened with. */
  walletUrl: string | null
  relay: ClientRelay | null
  /** A remote wallet's pairing URI (WalletConnect's `wc:`) while it is asked to connect. */
  walletPairingUri: string | null
  /** The deadline of the wait in progress (wallet answer or signature), by absolute time. */
  deadline: OperationDeadline | null
  /** The chains the project enables (its config, read once connected); null: not known. */
  projectChains: string[] | null
  /**
   * The universal-link flow's result polls are failing (null: the last one succeeded): a timeout
   * then says the backend did not return the wallet's answer, not that the wallet did not answer.
   */
  linkPolls: LinkPollTrouble | null
  /**
   * The relay connection of a pairing is down (what its last attempt met; null: online or not
   * known to fail): a timeout then says the relay did not deliver the wallet's answer.
   */
  relayDown: string | null
}

/** Tags of the root chart: the view is derived from them, not from state names. */
export type ClientTag = 'busy' | 'cancellable' | 'connected' | 'resumable' | 'selected'

/**
 * The events the root machine takes: the `Client`'s methods send them (select, connect, sign, pair,
 * cancel, disconnect, reads).
 */
export type ClientEvent =
  /** Load the connector of a wallet (`walletId` null: the default); `connect` continues to connect. */
  | {
      type: 'SELECT_WALLET'
      walletId: string | null
      namespace: ChainNamespace | null
      connect: boolean
    }
  | { type: 'CONNECT' }
  /** Restore a stored desktop connection without a prompt: load its connector, then reconnect. */
  | {
      type: 'RECONNECT'
      walletId: string | null
      namespace: ChainNamespace | null
      connectorId: string
    }
  /** Ask the connected desktop wallet to switch to `chainId` (EVM). */
  | { type: 'SWITCH_CHAIN'; chainId: string }
  | ({ type: 'SIGN' } & ClientSignRequest)
  | { type: 'DISCONNECT' }
  /** Ends the pending flow: its promise rejects with `ABORTED`. */
  | { type: 'CANCEL' }
  /** Pair a wallet over the relay: invokes the `pairing` machine with `input`; `uri` is for the QR. */
  | { type: 'PAIR'; input: PairingInput; uri: string }
  /** Paired: send the request `requestId` of the pairing outbox (a signature). */
  | ({ type: 'RELAY.REQUEST' } & RelayRequestRef)
  /** The root was restored from a snapshot: a waiting state schedules its deadline again. */
  | { type: 'RESUMED' }
  /** The facade opened the wallet with this link. */
  | { type: 'WALLET_OPENED'; url: string }
  /**
   * Sends a transaction: spawns the `transaction` machine (replacing a previous one) with `input`;
   * the flow settles with the hash once the wallet answers. Connected, no flow pending, not a
   * universal link.
   */
  | { type: 'SEND_TRANSACTION'; input: Omit<TransactionInput, 'flow'> }
  /** Watches a transaction the wallet already sent (`input.submitted`), e.g. after a reload: no flow. */
  | { type: 'WATCH_TRANSACTION'; input: Omit<TransactionInput, 'flow'> }
  /**
   * Internal: the `transaction` child changed (raised from its snapshot): the flow that sent it
   * (null: a watched transaction) and the wallet's hash once it answered.
   */
  | { type: 'TRANSACTION.CHANGED'; flow: number | null; hash: string | null }
  /**
   * Reads, as child actors of the root: `id` is the read's system id (`actor.system.get(id)`), a
   * name its caller picks and never reuses.
   */
  | { type: 'READ_CONFIG'; id: string }
  | { type: 'READ_BALANCE'; id: string; query: TokenBalanceQuery }
  | { type: 'READ_BALANCES'; id: string; queries: readonly TokenBalanceQuery[] }
  /** Internal: the `connection` child changed (raised from its snapshot). */
  | {
      type: 'CONNECTION.CHANGED'
      status: ConnectionStatus
      connection: ConnectionData | null
      error: ErrorData | null
      /** The URI a remote wallet pairs from (WalletConnect) while the child is connecting. */
      pairingUri: string | null
    }
  /** Internal: the `universalLink` child changed (raised from its snapshot). */
  | {
      type: 'LINK.CHANGED'
      status: LinkStatus
      connection: ConnectionData | null
      signature: string | null
    }
  /** Internal: the `pairing` child changed (raised from its snapshot; public facts only). */
  | {
      type: 'PAIRING.CHANGED'
      status: PairingStatus
      connection: ConnectionData | null
      /** The pairing's record of its last request: id, method, outcome; never the result. */
      lastRequest: PairingRequestRecord | null
    }

/** The state of the `connection` child (the connect machine) its `CONNECTION.CHANGED` reports. */
export type ConnectionStatus = TopState<SnapshotFrom<ConnectMachine>['value']>
/** The state of the `universalLink` child its `LINK.CHANGED` reports. */
export type LinkStatus = TopState<SnapshotFrom<UniversalLinkMachine>['value']>
/** The phase of the `pairing` child its `PAIRING.CHANGED` reports. */
export type PairingStatus = 'pairing' | 'paired'
/** The state of a `sign` child. */
export type SignStatus = TopState<SnapshotFrom<SignMachine>['value']>
/** Any state a child's `*.CHANGED` event reports (what `childIn` matches). */
export type ChildStatus = ConnectionStatus | LinkStatus | PairingStatus
