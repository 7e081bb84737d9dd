import type { SessionIntent, SessionStatus } from 'scope-connect/wire'
import type { UnservedSlots } from './redis-connection'

/** A session as the server keeps it. The token itself is never stored: only its SHA-256. */
export interface SessionRecord {
  sessionId: string
  projectId: string
  /** Hex SHA-256 of the session token. */
  tokenHash: string
  nonce: string
  caip2Chain: string
  walletSlug: string | null
  intent: SessionIntent
  status: SessionStatus
  walletAddress: string | null
  signature: string | null
  txSignature: string | null
  errorCode: string | null
  /** A nonce is good for one signature. */
  nonceUsed: boolean
  createdAt: number
  expiresAt: number
  /** Bumped on every change; the compare-and-set guard. */
  version: number
}

/** Raised by a store whose backend cannot be reached; routes answer 503 STORE_UNAVAILABLE. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError'
}

/** Raised by `createSession` when the id is already taken (a caller bug: ids are random). */
export class SessionExistsError extends Error {
  override readonly name = 'SessionExistsError'
}

export interface SessionStore {
  /** Stores a new record that expires at `record.expiresAt`. */
  createSession(record: SessionRecord): Promise<void>
  getSession(sessionId: string): Promise<SessionRecord | null>
  /**
   * Applies `patch` (and bumps `version`) only when the stored version is `expectedVersion`.
   * Returns the updated record, or null when the record is gone or another change won the race.
   */
  compareAndSetSession(
    sessionId: string,
    expectedVersion: number,
    patch: Partial<Omit<SessionRecord, 'sessionId' | 'version'>>,
  ): Promise<SessionRecord | null>
}

export interface WindowHit {
  /** Hits in the current window, this one included. */
  count: number
  /** Milliseconds until the current window resets. */
  resetInMs: number
}

/** One request counted on the caller's own window and, when that allows it, on a shared ceiling. */
export interface CeilingHitRequest {
  /** The caller's own counter; also who the caller is, among the ceiling's distinct callers. */
  callerKey: string
  callerWindowMs: number
  /** Past this the caller's own window refuses and the ceiling is not counted. */
  callerLimit: number
  ceilingKey: string
  ceilingWindowMs: number
  ceiling: number
  /** Hits this request counts on both windows; default 1 (a balances batch costs more, SPEC 3). */
  cost?: number
}

export interface CeilingHit {
  caller: WindowHit
  /** Absent when the caller's own window refused: a caller past its limit spends no ceiling. */
  ceiling?: WindowHit
  /** Distinct callers counted in the ceiling's window; only once its count is over `ceiling`. */
  callers?: number
}

export interface CounterStore {
  /** Counts one hit on `key` in a fixed window of `windowMs` that starts at the key's first hit. */
  hitWindow(key: string, windowMs: number): Promise<WindowHit>
  /**
   * The caller's window, then (when it allows) the ceiling's window and the ceiling's set of
   * distinct callers, in one atomic step (one round trip on Redis). The limiter's fair ceiling
   * (`decideCeiling`); a store without it gets the plain ceiling (two `hitWindow`s).
   */
  hitWithCeiling?(request: CeilingHitRequest): Promise<CeilingHit>
}

/**
 * Who may spend a session's quota on a poll, known before the session is read: the hash of the
 * presented token, and the projects the request may reach, each with its session window.
 */
export interface PollGate {
  /** Hex SHA-256 of the presented bearer token. */
  tokenHash: string
  /** projectId → window in ms of the project's session policy; only projects the request may reach. */
  windowsMs: ReadonlyMap<string, number>
}

export interface GatedRead {
  record: SessionRecord
  /** The hit counted on the counter; null when the gate did not admit the record. */
  hit: WindowHit | null
}

/** Single-use sign-in nonces (POST /sign-in/nonce, /sign-in/verify), each with its lifetime. */
export interface NonceStore {
  /** Keeps `key` until `expiresAt` (ms epoch). */
  putNonce(key: string, expiresAt: number): Promise<void>
  /**
   * Removes `key` in one atomic step: true for the one caller that found it live, false for
   * every other (unknown, expired, or taken already).
   */
  takeNonce(key: string): Promise<boolean>
}

export interface Store extends SessionStore, CounterStore, NonceStore {
  readonly kind: 'memory' | 'redis'
  /**
   * `getSession`, and in the same atomic step, only when the gate admits the record (its
   * tokenHash is the gate's and its project is one of the gate's), `hitWindow(counterKey, the
   * project's window)`. Polls cost one round trip this way, and a caller without the session's
   * token never spends its quota. Null when there is no such session (nothing counted).
   */
  getSessionAndHit(sessionId: string, counterKey: string, gate: PollGate): Promise<GatedRead | null>
  /** True when the backend answers (for /readyz); on a Redis Cluster, every slot range too. */
  isReady(): Promise<boolean>
  /**
   * `isReady` with the reason when not ready; on a Redis Cluster the slot ranges no primary
   * serves now (`/readyz` names them). Absent: `isReady` says all there is.
   */
  readiness?(): Promise<StoreReadiness>
  /**
   * Tells `listener` of each sign that the backend is away (a connection lost, a slot range
   * unserved), requests or not, so the app's outage starts without waiting for a refused
   * request. Returns the function that stops telling it.
   */
  onUnavailable?(listener: (reason: string) => void): () => void
  close(): Promise<void>
}

/** What `Store.readiness` answers. */
export interface StoreReadiness {
  ready: boolean
  /** Why not, when not ready (a connection error, the unserved slots in a sentence). */
  reason?: string
  /** On a Redis Cluster: the slot ranges no primary serves now. */
  unservedSlots?: readonly UnservedSlots[]
}
