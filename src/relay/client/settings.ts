import { DEFAULT_RELAY_BACKOFF, type RelayBackoff } from './backoff'

/** A relay connection's timing: what its chart starts from, besides the clock. */
export interface RelayConnectionSettings {
  backoff: RelayBackoff
  /** `scr_ping` every this many ms while online; 0: off. */
  keepaliveMs: number
  /** A keepalive ping without an answer after this long drops the socket. */
  requestTimeoutMs: number
}

/** The settings of a relay client's options, defaults filled in (JSON-safe: a pairing keeps them). */
export function relayConnectionSettings(
  options: {
    backoff?: Partial<RelayBackoff>
    keepaliveMs?: number
    requestTimeoutMs?: number
  } = {},
): RelayConnectionSettings {
  return {
    backoff: { ...DEFAULT_RELAY_BACKOFF, ...options.backoff },
    keepaliveMs: options.keepaliveMs ?? 25_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
  }
}
