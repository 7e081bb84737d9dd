import type { SessionRecord } from './types'

/** A record stays readable this long after `expiresAt`, so routes can tell 410 from 404. */
export const SESSION_GRACE_MS = 10 * 60_000

export type SessionPatch = Partial<Omit<SessionRecord, 'sessionId' | 'version'>>

/**
 * How long a store keeps a record: its lifetime plus the grace period. Computed from the record's
 * own timestamps so no store depends on another machine's clock agreeing with the server's.
 */
export function sessionRetentionMs(record: SessionRecord, graceMs: number): number {
  return Math.max(0, record.expiresAt - record.createdAt) + graceMs
}

/** Drops the identity and guard fields and undefined values a caller may slip into a patch. */
export function cleanPatch(patch: SessionPatch): SessionPatch {
  const clean: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined || field === 'sessionId' || field === 'version') continue
    clean[field] = value
  }
  return clean as SessionPatch
}
