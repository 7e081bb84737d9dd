import { createFixedWindows } from './fixed-windows'
import { cleanPatch, SESSION_GRACE_MS, sessionRetentionMs } from './session-patch'
import { SessionExistsError, type SessionRecord, type Store } from './types'

export interface MemoryStoreOptions {
  /** Clock in ms (tests inject one). */
  now?: () => number
  /** How long a record stays readable after `expiresAt` (so routes can answer 410, not 404). */
  sessionGraceMs?: number
  /** Period of the background sweep of expired entries; 0 turns it off. */
  sweepIntervalMs?: number
}

export interface MemoryStore extends Store {
  readonly kind: 'memory'
  /** Drops expired sessions and windows now; returns how many entries went. */
  sweep(): number
  /** Live entry counts, for tests and metrics. */
  size(): { sessions: number; windows: number }
}

interface StoredSession {
  record: SessionRecord
  deleteAt: number
}

/**
 * The embedded single-process store. Entries leave only when they expire: there is deliberately
 * no size cap or LRU, because evicting a live rate-limit window would let a client at its limit
 * start over. Memory is bounded by the keys live within one window instead.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const now = options.now ?? Date.now
  const graceMs = options.sessionGraceMs ?? SESSION_GRACE_MS
  const sessions = new Map<string, StoredSession>()
  const windows = createFixedWindows(now)
  const nonces = new Map<string, number>()

  const liveSession = (sessionId: string): StoredSession | undefined => {
    const stored = sessions.get(sessionId)
    if (stored && now() >= stored.deleteAt) {
      sessions.delete(sessionId)
      return undefined
    }
    return stored
  }

  const sweep = (): number => {
    const at = now()
    let removed = 0
    for (const [id, stored] of sessions) {
      if (at >= stored.deleteAt) {
        sessions.delete(id)
        removed++
      }
    }
    for (const [key, expiresAt] of nonces) {
      if (at >= expiresAt) {
        nonces.delete(key)
        removed++
      }
    }
    return removed + windows.sweep(at)
  }

  const sweepIntervalMs = options.sweepIntervalMs ?? 30_000
  // unref: the sweep must never keep a process alive on its own.
  const timer = sweepIntervalMs > 0 ? setInterval(sweep, sweepIntervalMs).unref() : undefined

  return {
    kind: 'memory',

    async createSession(record) {
      if (liveSession(record.sessionId)) {
        throw new SessionExistsError(`session ${record.sessionId} already exists`)
      }
      sessions.set(record.sessionId, {
        record: { ...record },
        deleteAt: now() + sessionRetentionMs(record, graceMs),
      })
    },

    async getSession(sessionId) {
      const stored = liveSession(sessionId)
      return stored ? { ...stored.record } : null
    },

    async compareAndSetSession(sessionId, expectedVersion, patch) {
      const stored = liveSession(sessionId)
      if (!stored || stored.record.version !== expectedVersion) return null
      const clean = cleanPatch(patch)
      // A moved expiresAt moves the deletion time by the same amount (as PTTL does in Redis).
      if (clean.expiresAt !== undefined) {
        stored.deleteAt += clean.expiresAt - stored.record.expiresAt
      }
      stored.record = { ...stored.record, ...clean, version: expectedVersion + 1 }
      return { ...stored.record }
    },

    async getSessionAndHit(sessionId, counterKey, gate) {
      const stored = liveSession(sessionId)
      if (!stored) return null
      const { tokenHash, projectId } = stored.record
      const windowMs = tokenHash === gate.tokenHash ? gate.windowsMs.get(projectId) : undefined
      return {
        record: { ...stored.record },
        hit: windowMs === undefined ? null : windows.hit(counterKey, windowMs),
      }
    },

    async putNonce(key, expiresAt) {
      nonces.set(key, expiresAt)
    },

    async takeNonce(key) {
      const expiresAt = nonces.get(key)
      if (expiresAt === undefined) return false
      nonces.delete(key)
      return now() < expiresAt
    },

    async hitWindow(key, windowMs) {
      return windows.hit(key, windowMs)
    },

    async hitWithCeiling(request) {
      return windows.hitWithCeiling(request)
    },

    async isReady() {
      return true
    },

    async close() {
      if (timer) clearInterval(timer)
    },

    sweep,

    size() {
      return { sessions: sessions.size, windows: windows.size() }
    },
  }
}
