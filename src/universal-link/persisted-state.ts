import type { RecordEnvelope } from '../storage/record-store'

/** The `format` tag of the persisted envelope. */
export const UNIVERSAL_LINK_STATE_FORMAT = 'scope-connect/universal-link'

/** The version of the envelope's own shape (not of the flow's record, which `fingerprint` names). */
export const UNIVERSAL_LINK_STATE_FORMAT_VERSION = 2

/**
 * The envelope the universal-link flow persists across the page reload. `tokens` holds the session
 * token (once, keyed by session id; the snapshot itself has none): never copy it to logs or analytics.
 */
export interface UniversalLinkPersistedState extends RecordEnvelope {
  format: typeof UNIVERSAL_LINK_STATE_FORMAT
  formatVersion: typeof UNIVERSAL_LINK_STATE_FORMAT_VERSION
  /**
   * The record schema `snapshot` was written under (`client.link@1`, `universal-link@1`): what the
   * resumed flow needs, versioned. A record of another schema is migrated or discarded, never
   * restored as is; a chart change elsewhere keeps it. Releases before schemas wrote a 16-hex hash
   * of the whole machine here: such records are checked against today's schema.
   */
  fingerprint: string
  /** Milliseconds since the epoch. */
  savedAt: number
  /** Milliseconds since the epoch; past it, the state is discarded instead of resumed. */
  expiresAt: number
  /** JSON-safe persisted XState snapshot (`actor.getPersistedSnapshot()`), children included. */
  snapshot: unknown
  /** Session tokens by session id: what the restored flow needs to poll again. */
  tokens: Record<string, string>
}

/**
 * Validates a stored value (already JSON-parsed). Returns `null` for anything malformed: wrong
 * format tag or version, times that are not non-negative integers, a snapshot that is not a plain
 * object, tokens that are not strings. Never throws. Expiry against the clock and the fingerprint
 * are the caller's checks.
 */
export function parsePersistedState(value: unknown): UniversalLinkPersistedState | null {
  if (!isPlainObject(value)) return null
  const { format, formatVersion, fingerprint, savedAt, expiresAt, snapshot, tokens } = value
  const valid =
    format === UNIVERSAL_LINK_STATE_FORMAT &&
    formatVersion === UNIVERSAL_LINK_STATE_FORMAT_VERSION &&
    typeof fingerprint === 'string' &&
    isNonNegativeInteger(savedAt) &&
    isNonNegativeInteger(expiresAt) &&
    isPlainObject(snapshot) &&
    isPlainObject(tokens) &&
    Object.values(tokens).every((token) => typeof token === 'string')
  // A fresh object: unknown keys of the stored value are dropped, as a schema would.
  return valid
    ? {
        format,
        formatVersion,
        fingerprint,
        savedAt,
        expiresAt,
        snapshot,
        tokens: { ...(tokens as Record<string, string>) },
      }
    : null
}

// Hand-written rather than a zod schema: this check ships with the smallest helper
// (`createBrowserUniversalLinkStore`), where a validator would triple its size.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function isNonNegativeInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}
