import type { RelayConnectionContext } from '../../../machines/relay-connection/relay-connection.types'
/** Reconnect backoff of the relay client. */
export interface RelayBackoff {
  /** First wait, ms. Default 500. */
  baseMs: number
  /** Longest wait, ms. Default 30 000. */
  maxMs: number
  /** Consecutive failed attempts before the client goes `offline`. Default 10 (about 2.5 min). */
  maxAttempts: number
}

export const DEFAULT_RELAY_BACKOFF: RelayBackoff = { baseMs: 500, maxMs: 30_000, maxAttempts: 10 }

/**
 * The wait before reconnect attempt `attempt` (1, 2, …): `baseMs × 2^(attempt-1)`, capped at
 * `maxMs`, times a jitter factor in [0.75, 1.25) drawn from `random` ∈ [0, 1).
 */
export function reconnectDelay(attempt: number, random: number, backoff: RelayBackoff): number {
  const exponential = backoff.baseMs * 2 ** Math.max(0, attempt - 1)
  const jitter = 0.75 + 0.5 * (Number.isFinite(random) ? Math.min(Math.max(random, 0), 1) : 0.5)
  return Math.round(Math.min(backoff.maxMs, exponential) * jitter)
}

/** How long a relay that answered `TRY_AGAIN_LATER` (close 1013) is left alone at least. */
export const TRY_AGAIN_LATER_MS = 10_000

/** `reconnectDelay`, but at least `TRY_AGAIN_LATER_MS` after the relay asked to try again later. */
export function reconnectWait(
  attempt: number,
  random: number,
  backoff: RelayBackoff,
  lastBackendCode: string | undefined,
): number {
  const delay = reconnectDelay(attempt, random, backoff)
  return lastBackendCode === 'TRY_AGAIN_LATER' ? Math.max(delay, TRY_AGAIN_LATER_MS) : delay
}

/** The relay-connection chart's `reconnectBackoff` delay with a client's jitter (±25 %). */
export const jitteredBackoff =
  (random: () => number) =>
  ({ context }: { context: RelayConnectionContext }) =>
    reconnectWait(context.attempt, random(), context.backoff, context.error?.backendCode)
