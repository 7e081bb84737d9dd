import type { AppContext } from '../context'
import { ApiError } from '../errors'
import type { SessionRecord } from '../store/types'
import { isExpired } from './view'

export type SessionPatch = Parameters<AppContext['store']['compareAndSetSession']>[2]

export async function loadSession(ctx: AppContext, sessionId: string): Promise<SessionRecord> {
  const record = await ctx.store.getSession(sessionId)
  // A record whose project left the projects file is as good as gone.
  if (!record || !ctx.projects.byId(record.projectId)) {
    throw new ApiError('SESSION_NOT_FOUND', 'no such session')
  }
  return record
}

/** State changes on an expired session answer 410, whatever its status. */
export function assertLive(ctx: AppContext, record: SessionRecord): void {
  if (isExpired(record, ctx.now())) throw new ApiError('SESSION_EXPIRED', 'the session has expired')
}

/**
 * Compare-and-set on the version read: of two racing changes exactly one lands. The loser gets
 * `onLost` (given the record as it is now) or 409 SESSION_STATE_CONFLICT.
 */
export async function commit(
  ctx: AppContext,
  record: SessionRecord,
  patch: SessionPatch,
  onLost?: (current: SessionRecord | null) => SessionRecord | undefined,
): Promise<SessionRecord> {
  const updated = await ctx.store.compareAndSetSession(record.sessionId, record.version, patch)
  if (updated) return updated
  if (onLost) {
    const settled = onLost(await ctx.store.getSession(record.sessionId))
    if (settled) return settled
  }
  throw new ApiError('SESSION_STATE_CONFLICT', 'the session changed while this request ran')
}
