/** The `format` tag of the persisted envelope. */
export const UNIVERSAL_LINK_STATE_FORMAT = 'scope-connect/universal-link'

/** The version of the envelope's own shape (not of the machine). */
export const UNIVERSAL_LINK_STATE_FORMAT_VERSION = 1

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
  if (!isPlainObject(value)) return null
  const { format, formatVersion, machineVersion, savedAt, expiresAt, snapshot } = value
  const valid =
    format === UNIVERSAL_LINK_STATE_FORMAT &&
    formatVersion === UNIVERSAL_LINK_STATE_FORMAT_VERSION &&
    isNonNegativeInteger(machineVersion) &&
    isNonNegativeInteger(savedAt) &&
    isNonNegativeInteger(expiresAt) &&
    isPlainObject(snapshot)
  // A fresh object: unknown keys of the stored value are dropped, as a schema would.
  return valid ? { format, formatVersion, machineVersion, savedAt, expiresAt, snapshot } : null
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
