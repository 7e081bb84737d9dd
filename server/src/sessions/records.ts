import { sessionNotFound } from '../auth/session-auth'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { counterKey, DEFAULT_RATE_LIMITS } from '../rate-limit'
import type { GatedRead, SessionRecord } from '../store/types'
import { isExpired } from './view'

export type SessionPatch = Parameters<AppContext['store']['compareAndSetSession']>[2]

export async function loadSession(ctx: AppContext, sessionId: string): Promise<SessionRecord> {
  const record = await ctx.store.getSession(sessionId)
  // A record whose project left the projects file is as good as gone.
  if (!record || !ctx.projects.byId(record.projectId)) throw sessionNotFound()
  return record
}

/**
 * `loadSession` for the polling routes (result, verify), given the presented token's hash. With
 * the default limiter, the store also counts the session's hit, in the same step and only when
 * the token and the request's origin would pass `authorizeSession`. `hit` is null when nothing
 * was counted; the caller then counts through the limiter. Not async: the poll hot path awaits
 * the store's promise itself (one promise per layer, per poll, otherwise).
 */
export function loadPolledSession(
  ctx: AppContext,
  sessionId: string,
  tokenHash: string,
  origin: string | undefined,
): Promise<GatedRead | null> {
  if (!ctx.countPollsInStore) {
    return ctx.store.getSession(sessionId).then((record) => record && { record, hit: null })
  }
  // Policy names do not change with a project's override, so the counter key is the limiter's.
  return ctx.store.getSessionAndHit(sessionId, counterKey(sessionId, DEFAULT_RATE_LIMITS.session), {
    tokenHash,
    windowsMs: ctx.pollWindows(origin),
  })
}

/** `loadPolledSession`'s read, or 404 when there is none or its project left the projects file. */
export function polledSession(ctx: AppContext, read: GatedRead | null): GatedRead {
  if (!read || !ctx.projects.byId(read.record.projectId)) throw sessionNotFound()
  return read
}

/** State changes on an expired session answer 410, whatever its status. */
export function assertLive(ctx: AppContext, record: SessionRecord): void {
  if (isExpired(record, ctx.now())) throw new ApiError('SESSION_EXPIRED', 'the session has expired')
}

/**
 * Compare-and-set on the version read: of two racing changes exactly one lands. The loser gets
 * `onLost` (given the record as it is now) or 409 SESSION_STATE_CONFLICT. A change that lands is
 * announced on `ctx.sessionEvents` (long-polls waiting on any instance re-read the session).
 */
export async function commit(
  ctx: AppContext,
  record: SessionRecord,
  patch: SessionPatch,
  onLost?: (current: SessionRecord | null) => SessionRecord | undefined,
): Promise<SessionRecord> {
  const updated = await ctx.store.compareAndSetSession(record.sessionId, record.version, patch)
  if (updated) {
    await ctx.sessionEvents.publish(record.sessionId)
    return updated
  }
  if (onLost) {
    const settled = onLost(await ctx.store.getSession(record.sessionId))
    if (settled) return settled
  }
  throw new ApiError('SESSION_STATE_CONFLICT', 'the session changed while this request ran')
}
