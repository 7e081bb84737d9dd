import type { OutageStats } from './outage-tracker'

/**
 * Tells waiting requests (long-polls on `GET /sessions/{id}/result?waitMs=…`) that a session
 * changed. The message is only "session X changed": a waiter re-reads the record from the store,
 * so a lost or duplicated message never shows a wrong state, at worst a late one.
 */
export interface SessionEvents {
  readonly kind: 'memory' | 'redis'
  /**
   * Announces a change of `sessionId` to the watchers of every instance (this one at once).
   * Never rejects: when the message cannot be sent, remote waiters see the change at the end of
   * their wait instead (at most `LONG_POLL_MAX_MS` later).
   */
  publish(sessionId: string): Promise<void>
  /**
   * Calls `listener` on each change of `sessionId`, from any instance, and also when the
   * instance may have missed messages (after a lost pub/sub connection came back). Returns the
   * function that stops watching.
   */
  watch(sessionId: string, listener: () => void): () => void
  /** How many watchers this instance holds now (tests, metrics). */
  watching(): number
  /** Redis outages of the events since start, each once (absent in process). */
  outages?(): OutageStats
  close(): Promise<void>
}

/** The in-process registry of watchers that both implementations use. */
export interface LocalWatchers {
  add(sessionId: string, listener: () => void): () => void
  notify(sessionId: string): void
  notifyAll(): void
  count(): number
}

export function createLocalWatchers(): LocalWatchers {
  const bySession = new Map<string, Set<() => void>>()
  let total = 0
  const call = (listeners: Iterable<() => void>) => {
    for (const listener of [...listeners]) {
      try {
        listener()
      } catch {
        // One waiter's failure must not keep the others waiting.
      }
    }
  }
  return {
    add(sessionId, listener) {
      let listeners = bySession.get(sessionId)
      if (!listeners) {
        listeners = new Set()
        bySession.set(sessionId, listeners)
      }
      // A wrapper, so the same function watched twice is two watchers.
      const entry = () => listener()
      listeners.add(entry)
      total++
      let active = true
      return () => {
        if (!active) return
        active = false
        total--
        const current = bySession.get(sessionId)
        current?.delete(entry)
        if (current?.size === 0) bySession.delete(sessionId)
      }
    },
    notify(sessionId) {
      const listeners = bySession.get(sessionId)
      if (listeners) call(listeners)
    },
    notifyAll() {
      for (const listeners of [...bySession.values()]) call(listeners)
    },
    count: () => total,
  }
}

/** One process: a change is announced to this instance's watchers only (the embedded default). */
export function createMemorySessionEvents(): SessionEvents {
  const watchers = createLocalWatchers()
  return {
    kind: 'memory',
    async publish(sessionId) {
      watchers.notify(sessionId)
    },
    watch: (sessionId, listener) => watchers.add(sessionId, listener),
    watching: () => watchers.count(),
    async close() {},
  }
}
