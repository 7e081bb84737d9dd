import type { RelayConnectionSettings } from '../../src/relay/client/settings'
import type { ErrorData } from '../shared/error-data'

/** What a relay connection starts from: its timing settings (the URL and I/O are its actors'). */
export interface RelayConnectionInput extends RelayConnectionSettings {
  /** ms since the epoch: the clock's reading when the connection was created. */
  startedAt: number
  /**
   * Which environment the actors work in, when one provided machine serves several connections
   * (a pairing hosts its connection under the pairing's id); default `''`.
   */
  connectionId?: string
}

/**
 * The relay-connection machine's context: its input plus the reconnect attempt, the clock, the
 * token's expiry and the last error.
 */
export interface RelayConnectionContext extends Required<RelayConnectionInput> {
  /**
   * The reconnect attempt about to run or running (1, 2, …); 0 on the first connection, after
   * going online, and after `RECONNECT`.
   */
  attempt: number
  /** The latest time an actor reported (the chart reads no clock itself). */
  clock: number
  /** ms since the epoch: when the token in use expires (`null`: none yet). */
  tokenExpiresAt: number | null
  /** The next token fetch must not reuse the cached grant (refused before open, or expired). */
  tokenStale: boolean
  /** Why the connection is reconnecting, offline or closed. */
  error: ErrorData | null
}

/**
 * The events the relay-connection machine takes: connect, reconnect, close, and the socket opening
 * or closing.
 */
export type RelayConnectionEvent =
  /** Connect now (from `idle`, `offline`); a scheduled reconnect keeps its backoff. */
  | { type: 'CONNECT' }
  /** From `offline` or `reconnecting`: try now, with a fresh attempt budget. */
  | { type: 'RECONNECT' }
  /** Close for good. */
  | { type: 'CLOSE' }
  /** From the `socket` actor: the WebSocket opened. */
  | { type: 'SOCKET.OPEN' }
  /** From the `socket` actor: the WebSocket closed (or could not be created: 1006). */
  | { type: 'SOCKET.CLOSED'; code: number }

/** The grant a token fetch reports: its expiry, and when it was fetched. */
export interface TokenOutput {
  expiresAt: number
  at: number
}

/** What the other actors report: when they finished. */
export interface ActorTime {
  at: number
}

/** What every actor of a connection is started with: the environment it works in. */
export interface ConnectionRef {
  connectionId: string
}

export interface FetchTokenInput extends ConnectionRef {
  /** Fetch a new grant even when the cached one looks good. */
  stale: boolean
}

/** How a connection ended (its final state, `closed`): the error it closed with. */
export interface RelayConnectionOutput {
  error: ErrorData | null
}

/** Tag of the states the relay connection is online in. */
export const RELAY_ONLINE_TAG = 'online'

/**
 * Tag of the whole chart: a host's record may hold it in any state, because the record restarts it
 * idle (`restartableRelayConnection`) — a socket does not survive a reload.
 */
export const RELAY_RESUMABLE_TAG = 'resumable'
