import * as z from 'zod/mini'

/** The `format` tag of the persisted envelope. */
export const UNIVERSAL_LINK_STATE_FORMAT = 'scope-connect/universal-link'

/** The version of the envelope's own shape (not of the machine). */
export const UNIVERSAL_LINK_STATE_FORMAT_VERSION = 1

/**
 * Schema of the versioned envelope the universal-link machine persists. `snapshot` must be a plain
 * JSON object (a persisted XState snapshot always is).
 */
export const UniversalLinkPersistedStateSchema = z.object({
  format: z.literal(UNIVERSAL_LINK_STATE_FORMAT),
  formatVersion: z.literal(UNIVERSAL_LINK_STATE_FORMAT_VERSION),
  machineVersion: z.int().check(z.gte(0)),
  savedAt: z.int().check(z.gte(0)),
  expiresAt: z.int().check(z.gte(0)),
  snapshot: z.record(z.string(), z.unknown()),
})

/**
 * The versioned envelope the universal-link machine persists. It holds the session token (inside
 * `snapshot`): never copy it to logs or analytics.
 */
export interface UniversalLinkPersistedState {
  format: typeof UNIVERSAL_LINK_STATE_FORMAT
  formatVersion: typeof UNIVERSAL_LINK_STATE_FORMAT_VERSION
  /** The machine definition's version; a snapshot of another version is not rehydrated. */
  machineVersion: number
  /** Milliseconds since the epoch. */
  savedAt: number
  /** Milliseconds since the epoch; past it, the state is discarded instead of resumed. */
  expiresAt: number
  /** JSON-safe persisted XState snapshot (`actor.getPersistedSnapshot()`). */
  snapshot: unknown
}

/**
 * Validates a stored value (already JSON-parsed). Returns `null` for anything malformed: wrong
 * format tag or version, times that are not non-negative integers, a snapshot that is not a plain
 * object. Never throws. Expiry against the clock is the caller's check (`expiresAt`).
 */
export function parsePersistedState(value: unknown): UniversalLinkPersistedState | null {
  const result = UniversalLinkPersistedStateSchema.safeParse(value)
  return result.success ? result.data : null
}
