import { LONG_POLL_MAX_MS, type SessionStatus } from 'scope-connect/wire'
import type { AppContext } from '../context'
import { fieldError } from '../errors'
import type { SessionRecord } from '../store/types'
import { effectiveStatus } from './view'

/**
 * The result's entity tag: the record's version and the status as read now (an open session
 * turns `expired` at its expiry without a write, and its tag must change then too). Quoted, as
 * RFC 9110 wants; it tells nothing the answer does not.
 */
export function resultEtag(record: SessionRecord, now: number): string {
  return statusEtag(record, effectiveStatus(record, now))
}

/** `resultEtag` when the effective status is already known. */
export function statusEtag(record: SessionRecord, status: SessionStatus): string {
  return `"${record.version}-${status}"`
}

/**
 * `If-None-Match` against the current tag (weak comparison, RFC 9110 §13.1.2): a list of tags, or
 * `*` (any current state). Absent: false, so the answer is a 200 with the body.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false
  const value = Array.isArray(header) ? header.join(',') : header
  if (value.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare)
}

/**
 * `waitMs` of the query: absent → 0 (answer at once); an integer 0..LONG_POLL_MAX_MS otherwise,
 * anything else is 422 VALIDATION_FAILED naming `waitMs`.
 */
export function parseWaitMs(query: unknown): number {
  const raw = (query as { waitMs?: unknown } | undefined)?.waitMs
  if (raw === undefined) return 0
  const text = Array.isArray(raw) ? undefined : String(raw)
  if (text === undefined || !/^\d{1,6}$/.test(text) || Number(text) > LONG_POLL_MAX_MS) {
    throw fieldError('waitMs', `must be an integer from 0 to ${LONG_POLL_MAX_MS}`)
  }
  return Number(text)
}

export interface WaitOptions {
  /** The tag the client holds; the wait ends when the session's differs. */
  etag: string
  /** The longest wait, ms (already capped at LONG_POLL_MAX_MS). */
  waitMs: number
  /** Ends the wait early (the client went away, the server is closing). */
  signal: AbortSignal
  /** Registered before the first read of the request, so no change can slip between. */
  changed: ChangeFlag
}

/** A change seen by a watcher set up before the request read its record. */
export interface ChangeFlag {
  readonly seen: boolean
  /** Resolves at the next change (or at once when one was seen and not yet consumed). */
  next(): Promise<void>
  /** Clears `seen` before a re-read. */
  consume(): void
  stop(): void
}

/** Watches `sessionId` through `ctx.sessionEvents` from now on. */
export function watchChanges(ctx: AppContext, sessionId: string): ChangeFlag {
  let seen = false
  let wake: (() => void) | undefined
  const stop = ctx.sessionEvents.watch(sessionId, () => {
    seen = true
    wake?.()
  })
  return {
    get seen() {
      return seen
    },
    next: () =>
      seen
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            wake = () => {
              wake = undefined
              resolve()
            }
          }),
    consume() {
      seen = false
    },
    stop,
  }
}

/**
 * Waits until the session's tag differs from `options.etag` (re-reading the record, uncounted,
 * on each announced change and once more when `waitMs` has passed) or the wait ends: `waitMs`
 * passed, the session's expiry passed (its status, hence its tag, changes then), or `signal`
 * aborted. Returns the record as last read, or null when the session is gone (the caller answers
 * 404).
 */
export async function waitForChange(
  ctx: AppContext,
  sessionId: string,
  initial: SessionRecord,
  options: WaitOptions,
): Promise<SessionRecord | null> {
  let record = initial
  const timers: ReturnType<typeof setTimeout>[] = []
  const after = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => {
      timers.push(setTimeout(() => resolve(value), Math.max(0, ms)))
    })
  let stopWaiting: (() => void) | undefined
  const ended = new Promise<'ended'>((resolve) => {
    stopWaiting = () => resolve('ended')
    if (options.signal.aborted) resolve('ended')
    options.signal.addEventListener('abort', () => resolve('ended'), { once: true })
  })
  // One real-time timer for the whole wait (the app's clock may be a test's, standing still).
  const over = after(options.waitMs, 'over' as const)
  ctx.longPolls.open++
  try {
    for (;;) {
      const now = ctx.now()
      if (resultEtag(record, now) !== options.etag || options.signal.aborted) return record
      // An open session's expiry changes its status without a write: look again just after it.
      const open = record.status === 'pending' || record.status === 'connected'
      const outcome = await Promise.race([
        options.changed.next().then(() => 'changed' as const),
        over,
        ended,
        ...(open ? [after(record.expiresAt + 1 - now, 'expiry' as const)] : []),
      ])
      if (outcome === 'ended') return record
      if (outcome === 'expiry') continue
      // On a change, and once more when the wait is over: an announcement lost on the way (a
      // pub/sub connection that was down) must not make the answer a 304 for a changed session.
      options.changed.consume()
      const fresh = await ctx.store.getSession(sessionId)
      if (!fresh) return null
      record = fresh
      if (outcome === 'over') return record
    }
  } finally {
    ctx.longPolls.open--
    for (const timer of timers) clearTimeout(timer)
    stopWaiting?.()
  }
}
