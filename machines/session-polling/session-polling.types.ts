import type { GenericSessionResult } from '../../src/session/types'
import type { SessionIntent } from '../../src/wire/schemas'
import type { ErrorData } from '../shared/error-data'

/**
 * What counts as complete: the wallet connected, its signature was verified, or (transaction
 * sessions) a transaction signature was recorded.
 */
export type PollTarget = 'connected' | 'signed' | 'transaction'

/** A session as the machine knows it: never the session token (actors get it from a vault). */
export interface SessionRef {
  sessionId: string
  nonce?: string
  /** Server expiry, ms since the epoch; caps the deadline. */
  expiresAt?: number
}

/** Parameters for creating the session when no existing one is given. */
export interface CreateSessionParams {
  caip2Chain: string
  walletSlug?: string
  intent?: SessionIntent
}

/** Default poll interval range: a delay between 1.5 and 2 s, drawn with jitter for each poll. */
export const DEFAULT_POLL_INTERVAL_MS: readonly [number, number] = [1500, 2000]
/** Default overall deadline: 10 minutes (the backend's default session TTL), capped further by `expiresAt`. */
export const DEFAULT_POLL_TIMEOUT_MS = 600_000
/** Default attempt cap: 600 lookups (the deadline normally ends polling first, after ~340). */
export const DEFAULT_MAX_ATTEMPTS = 600
/** Transient failures back off exponentially: 1 s, 2 s, 4 s … up to 30 s, ±25 % jitter. */
export const BACKOFF_BASE_MS = 1000
/** The ceiling of that backoff: 30 s. */
export const BACKOFF_MAX_MS = 30_000

/**
 * Input of the session-polling machine: a session to poll or one to create, with cadence, deadline
 * and attempt cap.
 */
export interface SessionPollingInput {
  /** Poll an existing session (the token goes to the actors' vault, never into the machine). */
  session?: SessionRef
  /** Or create one first. One of `session` / `create` is required. */
  create?: CreateSessionParams
  /** Default: `connected` for `intent: 'connect'` (the default intent) when creating, else `signed`. */
  target?: PollTarget
  /** `[min, max]` ms, or one fixed value. Default 1500–2000. */
  pollIntervalMs?: readonly [number, number] | number
  /** Overall cap from `startedAt`. Default 600 000 ms; the session's `expiresAt` caps it further. */
  timeoutMs?: number
  /** Default 600. */
  maxAttempts?: number
  /** When the flow started (ms since the epoch); the factories pass `Date.now()`. */
  startedAt: number
}

/**
 * The session-polling machine's context: the session, attempts, deadline, cadence, the last result
 * and error (tokens stay in the vault).
 */
export interface SessionPollingContext {
  session: SessionRef | null
  create: CreateSessionParams | null
  target: PollTarget
  result: GenericSessionResult | null
  /** Final error (terminal states other than success). */
  error: ErrorData | null
  /** The last transient failure while retrying (429, network, 5xx); cleared by a good answer. */
  lastError: ErrorData | null
  startedAt: number
  /** Absolute deadline in ms since the epoch; checked on every step, so a restored actor keeps it. */
  deadline: number
  /** The latest time an actor reported (the machine reads no clock itself). */
  clock: number
  attempts: number
  maxAttempts: number
  /** Consecutive transient failures (drives the backoff). */
  failures: number
  interval: [number, number]
  /** The wait chosen for the next lookup, before clamping to the deadline. */
  nextDelayMs: number
}

/** Output of the `createSession` actor: the session without its token, and when it was created. */
export interface CreatedSession {
  session: Required<Pick<SessionRef, 'sessionId'>> & SessionRef
  at: number
}

/** Input of the `fetchResult` actor. */
export interface FetchResultInput {
  sessionId: string
  /** The machine's deadline (ms since the epoch): a long-poll never waits past it. */
  deadline?: number
}

/** Output of the `fetchResult` actor: the result, the time it arrived and a random draw in [0, 1). */
export interface FetchResultOutput {
  result: GenericSessionResult
  at: number
  jitter: number
  /**
   * How long the backend held this lookup (a long-poll), ms; the next wait is shortened by it.
   * 0 or absent for a plain lookup.
   */
  heldMs?: number
  /**
   * The backend long-polls and this answer is news (a new state, or the first answer): look again
   * at once, the next lookup waits at the backend. Absent: wait the interval (less `heldMs`).
   */
  pushed?: boolean
}

/** What the `fetchResult` actor throws: JSON-safe error data plus the same observations. */
export interface PollFailure extends ErrorData {
  at: number
  jitter: number
}

/** The events the session-polling machine takes from outside: `CANCEL` and `POLL_NOW`. */
export type SessionPollingEvent =
  /** Stop polling; ends in `cancelled` (error `ABORTED`). */
  | { type: 'CANCEL' }
  /** Look up now instead of waiting (page became visible; after restoring a snapshot). */
  | { type: 'POLL_NOW' }

/** How polling ended: the settled result and session, or the error with what was known. */
export type SessionPollingOutput =
  | { ok: true; result: GenericSessionResult; session: SessionRef }
  | { ok: false; error: ErrorData; result: GenericSessionResult | null; session: SessionRef | null }
