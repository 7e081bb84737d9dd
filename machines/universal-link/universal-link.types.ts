import type { ErrorData } from '../shared/error-data'

/** The backend session the flow runs on. Persisted (the token is needed to resume), never logged. */
export interface UniversalLinkSession {
  sessionId: string
  nonce: string
  sessionToken: string
  /** Absolute expiry (ms epoch): the flow's deadline, which survives a reload. */
  expiresAt: number
}

export type UniversalLinkSignMethod = 'signMessage' | 'signTransaction'

/** What the wallet should do when it opens: the `scMethod` of the link. */
export type UniversalLinkWalletMethod = 'connect' | UniversalLinkSignMethod

export interface UniversalLinkInput {
  walletId: string
  chainId: string
}

/** JSON-safe: it is persisted across the page reload. */
export interface UniversalLinkContext {
  walletId: string
  chainId: string
  session: UniversalLinkSession | null
  walletAddress: string | null
  /** The signing request in flight: method and, for transactions, the base64url payload. */
  request: { method: UniversalLinkSignMethod; payload: string | null } | null
  signature: string | null
  txSignature: string | null
  error: ErrorData | null
  /** Set on entering a final state. */
  outcome: UniversalLinkFinalStatus | null
}

export type UniversalLinkEvent =
  | { type: 'SIGN_MESSAGE' }
  | { type: 'SIGN_TRANSACTION'; payload: string }
  | { type: 'DISCONNECT' }
  | { type: 'CANCEL' }

/** Emitted when the wallet app must be opened; the connector builds the link and opens it. */
export interface OpenWalletEmitted {
  type: 'openWallet'
  method: UniversalLinkWalletMethod
  session: UniversalLinkSession
  chainId: string
  payload: string | null
}

/** Input of the `awaitWallet` actor: poll the session until it reaches `until`. */
export interface AwaitWalletInput {
  session: UniversalLinkSession
  until: 'connected' | 'signed' | 'transaction'
}

/** What the wallet reported, as the backend recorded it. */
export interface AwaitWalletOutput {
  walletAddress: string | null
  signature: string | null
  txSignature: string | null
}

export type UniversalLinkFinalStatus =
  | 'done'
  | 'disconnected'
  | 'rejected'
  | 'failed'
  | 'expired'
  | 'cancelled'

export interface UniversalLinkOutput {
  status: UniversalLinkFinalStatus
  walletAddress: string | null
  signature: string | null
  txSignature: string | null
  error: ErrorData | null
}

/** Tag of the states whose persisted snapshot may be restored after a reload. */
export const RESUMABLE_TAG = 'resumable'
