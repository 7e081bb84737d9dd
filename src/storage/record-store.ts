/**
 * The header every record the library stores starts with: what it is (`format`, e.g.
 * `scope-connect/universal-link`), the version of its shape, and when it was written. A reader
 * refuses a format it does not know and migrates or discards a version it does not read.
 */
export interface RecordEnvelope {
  format: string
  formatVersion: number
  /** Milliseconds since the epoch. */
  savedAt: number
}

/**
 * Where one record survives a reload: the universal-link flow's, the Phantom-link flow's, a paired
 * relay session's, a transaction waiting for its receipt. The package's stores keep the record as
 * JSON (localStorage, or memory for tests, SSR and React Native); write your own for other storage.
 */
export interface RecordStore<T> {
  /** Replaces the stored record. Must not throw. */
  save(record: T): void
  /** The stored record, or `null` when there is none (or it is unusable). Must not throw. */
  load(): T | null
  /** Forgets the stored record. Must not throw. */
  clear(): void
  /**
   * Optional: why the last `load()` found nothing usable although something was stored (not JSON,
   * not a record of this format), once; null otherwise. `Client.resume()` answers `discarded` with
   * this reason. The stores of this package have it.
   */
  discarded?(): string | null
}

/**
 * A `RecordStore` in memory, keeping what a browser store would: the record as JSON text (a saved
 * record is a copy; `load()` returns a fresh one), checked by `parse` on the way in and out. A record
 * that is not JSON-safe or that `parse` refuses is not kept. Nothing throws.
 */
export function createMemoryRecordStore<T>(
  parse: (value: unknown) => T | null,
  what: string,
): RecordStore<T> & { discarded(): string | null } {
  let stored: string | null = null
  let discarded: string | null = null
  return {
    save(record) {
      try {
        stored = parse(record) === null ? null : JSON.stringify(record)
      } catch {
        stored = null // a bigint or a cycle: not JSON-safe, so not kept (as localStorage would)
      }
    },
    load() {
      if (stored === null) return null
      const record = parse(JSON.parse(stored))
      if (record === null) {
        stored = null
        discarded = `the stored record is not a valid ${what}`
      }
      return record
    },
    clear() {
      stored = null
    },
    discarded() {
      const reason = discarded
      discarded = null
      return reason
    },
  }
}
