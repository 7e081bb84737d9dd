import { AppError } from '../../src/errors/app-error'
import { invalidArgument } from '../../src/errors/arguments'
import type { ErrorData } from '../shared/error-data'
import { toErrorData } from '../shared/error-data'
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_POLL_TIMEOUT_MS,
  type PollFailure,
  type SessionPollingContext,
  type SessionPollingInput,
} from './session-polling.types'

/** Pure helpers of the polling chart (exported for tests and docs). */

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0.5)

/**
 * A delay in `[min, max]` for the jitter draw `jitter` ∈ [0, 1).
 * @throws `INVALID_CONFIG` when `interval` is not a `[min, max]` pair of numbers or `jitter` not a number.
 */
export function intervalDelay(interval: readonly [number, number], jitter: number): number {
  if (
    !Array.isArray(interval) ||
    typeof interval[0] !== 'number' ||
    typeof interval[1] !== 'number'
  )
    throw invalidArgument('intervalDelay: interval', 'must be a [min, max] pair of numbers')
  if (typeof jitter !== 'number') throw invalidArgument('intervalDelay: jitter', 'must be a number')
  const [min, max] = interval
  return Math.round(min + (max - min) * clamp01(jitter))
}

/**
 * The wait before the next lookup. After news from a long-polling backend (`pushed`: the first
 * answer, or a new state) none: the next lookup waits at the backend for the change after it.
 * Otherwise the interval draw, less the time the backend held the lookup: a long-poll that waited
 * a whole interval is followed at once, one cut short without news (a backend restarting) is
 * not, so lookups never loop faster than plain polling. Lookups per session are then at most
 * 1 + the session's state changes (≤ 4) + one per wait (≤ 25 s), far below one per 1.5–2 s.
 */
export function nextPollDelay(
  interval: readonly [number, number],
  output: { jitter: number; heldMs?: number | undefined; pushed?: boolean | undefined },
): number {
  if (output.pushed === true) return 0
  const held = Number.isFinite(output.heldMs) ? Math.max(0, output.heldMs ?? 0) : 0
  return Math.max(0, intervalDelay(interval, output.jitter) - held)
}

/**
 * How long to ask the backend to hold a long-poll: its offer (`X-Long-Poll-Max-Ms`), capped so
 * the answer comes before the machine's deadline; 0 (a plain lookup) when that leaves under 1 s.
 */
export function longPollWaitMs(
  offeredMs: number,
  deadline: number | undefined,
  now: number,
): number {
  const left = deadline === undefined ? offeredMs : Math.min(offeredMs, deadline - now - 250)
  return left >= 1000 ? Math.floor(left) : 0
}

/**
 * Backoff after the n-th consecutive transient failure: 1 s × 2^(n-1), ±25 % jitter, ≤ 30 s.
 * @throws `INVALID_CONFIG` when `failures` or `jitter` is not a number.
 */
export function backoffDelay(failures: number, jitter: number): number {
  if (typeof failures !== 'number' || typeof jitter !== 'number')
    throw invalidArgument('backoffDelay: failures, jitter', 'must be numbers')
  const base = BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1)
  return Math.round(Math.min(BACKOFF_MAX_MS, base * (0.75 + 0.5 * clamp01(jitter))))
}

/**
 * Network failures, timeouts, 408, 5xx and invalid bodies are worth retrying; 4xx are not.
 * @throws `INVALID_CONFIG` when `failure` is not an object (an `ErrorData`).
 */
export function isTransientFailure(failure: ErrorData): boolean {
  if (typeof failure !== 'object' || failure === null)
    throw new AppError(
      'INVALID_CONFIG',
      'isTransientFailure: `failure` must be an ErrorData object.',
    )
  if (failure.code !== 'BACKEND_ERROR' && failure.code !== 'RPC_ERROR') return false
  if (failure.status === undefined) return true
  if (failure.status === 408 || failure.status >= 500) return true
  // A 2xx that did not match the schema (a proxy page): try again.
  return failure.status >= 200 && failure.status < 300
}

export function isGoneFailure(failure: ErrorData): boolean {
  return failure.status === 410 || failure.backendCode === 'SESSION_EXPIRED'
}

/** Reads what a `fetchResult` / `createSession` actor threw, tolerating foreign errors. */
export function toPollFailure(error: unknown, context: SessionPollingContext): PollFailure {
  const data = toErrorData(error, 'BACKEND_ERROR')
  const e = (typeof error === 'object' && error !== null ? error : {}) as Partial<PollFailure>
  return {
    ...data,
    at: typeof e.at === 'number' ? e.at : context.clock,
    jitter: typeof e.jitter === 'number' ? e.jitter : 0.5,
  }
}

function normalizeInterval(value: SessionPollingInput['pollIntervalMs']): [number, number] {
  const [min, max] =
    value === undefined
      ? DEFAULT_POLL_INTERVAL_MS
      : typeof value === 'number'
        ? [value, value]
        : value
  const lo = Math.max(0, Math.min(min, max))
  return [lo, Math.max(lo, max)]
}

/** The initial context for an input (deadline = min(startedAt + timeoutMs, session.expiresAt)). */
export function initialContext(input: SessionPollingInput): SessionPollingContext {
  const timeoutMs = input.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS
  const cap = input.startedAt + timeoutMs
  const expiresAt = input.session?.expiresAt
  const intent = input.create?.intent ?? 'connect'
  return {
    session: input.session ? { ...input.session } : null,
    create: input.session ? null : input.create ? { ...input.create } : null,
    target:
      input.target ?? (input.session ? 'signed' : intent === 'connect' ? 'connected' : 'signed'),
    result: null,
    error: null,
    lastError: null,
    startedAt: input.startedAt,
    deadline: expiresAt === undefined ? cap : Math.min(cap, expiresAt),
    clock: input.startedAt,
    attempts: 0,
    maxAttempts: Math.max(1, input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    failures: 0,
    interval: normalizeInterval(input.pollIntervalMs),
    nextDelayMs: 0,
  }
}
