import type { ConnectionData } from '../connect/connect.types'
import type { ErrorData } from '../shared/error-data'

/**
 * The backend session the flow runs on, without its token: the token lives in a vault keyed by
 * `sessionId` (see `SessionTokenVault`), never in context, events or snapshots.
 */
export interface UniversalLinkSession {
  sessionId: string
  nonce: string
  /** Absolute expiry (ms epoch): the flow's deadline, which survives a reload. */
  expiresAt: number
}

export type UniversalLinkSignMethod = 'signMessage' | 'signTransaction'

/** What the wallet should do when it opens: the `scMethod` of the link. */
export type UniversalLinkWalletMethod = 'connect' | UniversalLinkSignMethod

/** Input of the universal-link machine: the wallet, the chain and the poll cadence. */
export interface UniversalLinkInput {
  walletId: string
  chainId: string
  /** Poll cadence of the session (default 1.5–2 s with jitter). */
  pollIntervalMs?: readonly [number, number] | number
}

/** Tags of the universal-link chart: `resumable` states may be restored after a reload. */
export type UniversalLinkTag = 'resumable' | 'awaitingWallet'

/** JSON-safe: it is persisted across the page reload. */
export interface UniversalLinkContext {
  walletId: string
  chainId: string
  session: UniversalLinkSession | null
  walletAddress: string | null
  /** The connection the wallet gave (the connector id is the wallet id), once connected. */
  connection: ConnectionData | null
  /** The signing request in flight: method and, for transactions, the base64url payload. */
  request: { method: UniversalLinkSignMethod; payload: string | null } | null
  /** The last signature (cleared when the next request starts). */
  signature: string | null
  txSignature: string | null
  /** How many signatures this session delivered (each one returns the flow to `connected`). */
  signatures: number
  error: ErrorData | null
  pollIntervalMs: readonly [number, number] | number | null
}

/** The events the universal-link machine takes: sign a message or a transaction, disconnect, cancel. */
export type UniversalLinkEvent =
  | { type: 'SIGN_MESSAGE' }
  | { type: 'SIGN_TRANSACTION'; payload: string }
  | { type: 'DISCONNECT' }
  | { type: 'CANCEL' }

/**
 * Input of the `openWallet` actor, invoked when the wallet app must be opened: the host builds the
 * link (`buildUniversalLinkUrl`) and opens it.
 */
export interface OpenWalletInput {
  walletId: string
  method: UniversalLinkWalletMethod
  session: UniversalLinkSession
  chainId: string
  payload: string | null
}

/** Input of the `createSession` actor. */
export interface CreateUniversalLinkSessionInput {
  chainId: string
  walletId: string
}

/**
 * How a universal-link flow ended: `disconnected`, `rejected`, `expired`, `failed` or `cancelled`.
 */
export type UniversalLinkFinalStatus =
  | 'disconnected'
  | 'rejected'
  | 'failed'
  | 'expired'
  | 'cancelled'

/**
 * What a universal-link flow ends with: its final status, the wallet address and signature, and the
 * error.
 */
export interface UniversalLinkOutput {
  status: UniversalLinkFinalStatus
  walletAddress: string | null
  signature: string | null
  txSignature: string | null
  /** Why the flow ended (`ABORTED` for a cancellation); `null` after a disconnect. */
  error: ErrorData | null
}

/** Tag of the states whose persisted snapshot may be restored after a reload. */
export const RESUMABLE_TAG = 'resumable'
