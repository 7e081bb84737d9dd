import type { RelayConnectionSettings } from '../../src/relay/client/settings'
import type { PeerMetadata } from '../../src/relay/protocol/schemas'
import type { CaipNamespaces, SettledNamespaces } from '../../src/relay/types'
import type { ConnectionData } from '../connect/connect.types'
import type { ErrorData } from '../shared/error-data'

/**
 * What the pairing machine starts from. No secret: the pairing topic, the keys and the URI live in
 * the pairing vault under `pairingId`, a local handle (the topics are secrets too).
 */
export interface PairingInput {
  /** The vault record of this pairing (random, local). */
  pairingId: string
  /** The proposal's JSON-RPC id (chosen by the facade, so a republished proposal is the same one). */
  proposalId: number
  relayUrl: string
  requiredNamespaces: CaipNamespaces
  metadata: PeerMetadata
  /** ms since the epoch: the wallet must answer before it. */
  proposalExpiresAt: number
  /** ms since the epoch. */
  startedAt: number
  /** A wallet request or ping without an answer after this long fails with `TIMEOUT`. Default 300 000. */
  requestTimeoutMs?: number
  /** The timing of the relay connection the pairing hosts (backoff, keepalive); default the relay client's. */
  relay?: RelayConnectionSettings
}

/** The settled session as the machine knows it: public facts only. */
export interface PairedSessionData {
  namespaces: SettledNamespaces
  /** The wallet: its X25519 public key and metadata. */
  peer: { publicKey: string; metadata: PeerMetadata }
  /** ms since the epoch (7 days by default). */
  expiresAt: number
}

/**
 * The relay connection as the pairing sees it: `connecting`, `online`, `reconnecting` or `offline`.
 */
export type RelayConnectivity = 'connecting' | 'online' | 'reconnecting' | 'offline'

/** The request in flight: its handle in the facade's outbox and its method (never params or result). */
export interface PairingRequestRef {
  requestId: string
  method: string
}

/**
 * A settled request of the paired session: answered or failed (with the error), never its params or
 * result.
 */
export interface PairingRequestRecord extends PairingRequestRef {
  status: 'answered' | 'failed'
  error: ErrorData | null
  at: number
}

/** Work waiting while the session is busy: a request (by its handle) or a ping. */
export type PairingWork =
  | ({ kind: 'request' } & PairingRequestRef)
  | { kind: 'ping'; pingId: string }

/** How the last ping ended. */
export interface PairingPingRecord {
  pingId: string
  status: 'answered' | 'failed'
  error: ErrorData | null
  at: number
}

/** How a pairing ended: `rejected`, `expired`, `failed`, `disconnected` or `cancelled`. */
export type PairingFinalStatus = 'rejected' | 'expired' | 'failed' | 'disconnected' | 'cancelled'

/**
 * The pairing machine's context: ids, the proposal and its deadline, the paired session and
 * connection, the request and ping records, the work queue and errors (JSON-safe; keys live in the
 * vault).
 */
export interface PairingContext {
  pairingId: string
  proposalId: number
  relayUrl: string
  requiredNamespaces: CaipNamespaces
  metadata: PeerMetadata
  proposalExpiresAt: number
  /** The latest time an actor reported (the machine reads no clock itself). */
  clock: number
  session: PairedSessionData | null
  /** The connection the session gives (its first namespace's accounts), once paired. */
  connection: ConnectionData | null
  /** A wallet request or ping without an answer after this long fails with `TIMEOUT`. */
  requestTimeoutMs: number
  /** The timing of the `relayConnection` child. */
  relay: RelayConnectionSettings
  request: PairingRequestRef | null
  lastRequest: PairingRequestRecord | null
  /** The ping in flight. */
  ping: string | null
  lastPing: PairingPingRecord | null
  lastPingAt: number | null
  /** Requests and pings that arrived while another one was in flight, in order. */
  queue: PairingWork[]
  /** The relay's last connectivity problem (cleared when online). */
  relayError: ErrorData | null
  error: ErrorData | null
}

/**
 * The events the pairing machine takes: relay status, reconnect, requests (and their abandon) and
 * pings, the peer's deletion, cancel and disconnect.
 */
export type PairingEvent =
  /**
   * Raised from each snapshot of the `relayConnection` child (its status and why), and from its
   * output once it closed.
   */
  | {
      type: 'RELAY.STATUS'
      status: RelayConnectivity
      error?: ErrorData
      attempt?: number
    }
  /** Offline: try the relay again. */
  | { type: 'RECONNECT' }
  /** Paired: send the request `requestId` of the facade's outbox (queued while busy). */
  | { type: 'REQUEST'; requestId: string; method: string }
  /**
   * Paired: the caller no longer waits for request `requestId` (it timed out or was cancelled):
   * in flight, it ends `ABORTED` and the next work goes; queued, it is dropped; unknown, ignored.
   */
  | { type: 'ABANDON'; requestId: string }
  /** Paired: ping the wallet (queued while busy); `lastPing` reports it under `pingId`. */
  | { type: 'PING'; pingId?: string }
  /** Paired: end the session (tells the wallet). */
  | { type: 'DISCONNECT' }
  /** Give up (any time before a final state). */
  | { type: 'CANCEL' }
  /** From `maintainSession`: the wallet deleted the session. */
  | { type: 'PEER.DELETED'; code: number; message: string }
  /**
   * From `maintainSession`: the wallet's accounts on `chainId` changed (`scr_sessionEvent`, checked
   * as every wallet answer is), the active one first.
   */
  | { type: 'PEER.ACCOUNTS'; chainId: string; accounts: string[] }
  /** From `maintainSession` when it (re)starts: the time now, for the `sessionExpiry` delay. */
  | { type: 'SESSION.WATCHING'; at: number }

/** What the promise actors report: when they finished. */
export interface ActorTime {
  at: number
}

export interface ApprovalOutput extends ActorTime {
  session: PairedSessionData
}

export interface PairingRefInput {
  pairingId: string
}

export interface AwaitApprovalInput {
  pairingId: string
  proposalId: number
  requiredNamespaces: CaipNamespaces
  metadata: PeerMetadata
  proposalExpiresAt: number
}

export interface SettleSessionInput {
  pairingId: string
  peerPublicKey: string
}

export interface SendRequestInput {
  pairingId: string
  requestId: string
}

/** What a pairing ends with: its final status and the paired session, if one was settled. */
export interface PairingOutput {
  status: PairingFinalStatus
  session: PairedSessionData | null
  /** Why the pairing ended; `null` only when this side disconnected. */
  error: ErrorData | null
}

/** Tag of the states whose persisted snapshot may be restored after a reload. */
export const PAIRING_RESUMABLE_TAG = 'resumable'
