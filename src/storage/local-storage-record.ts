import type { Logger } from '../logging'
import type { RecordStore } from './record-store'

/** `globalThis.localStorage`, or null in SSR, without storage, or when touching it throws. */
function storage(): Storage | null {
  try {
    const candidate = (globalThis as { localStorage?: Storage }).localStorage
    return candidate && typeof candidate.getItem === 'function' ? candidate : null
  } catch {
    // SecurityError: storage disabled, sandboxed iframe, opaque origin.
    return null
  }
}

/**
 * A record on browser `localStorage` under `storageKey`. Storage is looked up on every call, so a
 * record created during server-side rendering works once the page runs; without storage every
 * method does nothing and `load()` returns null. Nothing throws (QuotaExceededError on save
 * included: the value is then not kept). Records may hold secrets (a session token, session keys):
 * `log` hears only what was done under which key (`what` names the record), never the content.
 */
export function createLocalStorageRecord<T>(options: {
  storageKey: string
  parse: (value: unknown) => T | null
  log: Logger
  what: string
}): RecordStore<T> & { discarded(): string | null } {
  const { storageKey, parse, log, what } = options
  let discarded: string | null = null
  const clear = () => {
    try {
      storage()?.removeItem(storageKey)
      log.debug(`cleared the ${what} under ${storageKey}`)
    } catch {
      // Nothing more to do: the next load discards it again.
    }
  }
  return {
    save(value) {
      try {
        storage()?.setItem(storageKey, JSON.stringify(value))
        log.debug(`saved the ${what} under ${storageKey}`)
      } catch (error) {
        log.warn(`could not save the ${what} under ${storageKey}`, {
          reason: error instanceof Error ? error.name : typeof error,
        })
      }
    },
    load() {
      let raw: string | null | undefined
      try {
        raw = storage()?.getItem(storageKey)
      } catch {
        return null
      }
      if (raw == null) return null
      let value: unknown
      let json = true
      try {
        value = JSON.parse(raw)
      } catch {
        value = undefined
        json = false
      }
      const parsed = parse(value)
      if (parsed === null) {
        log.warn(`discarded corrupt value under ${storageKey} (not a ${what})`)
        discarded = json
          ? `the stored record is not a valid ${what} (format, version or fields)`
          : 'the stored record is not JSON'
        clear()
      }
      return parsed
    },
    clear,
    discarded() {
      const reason = discarded
      discarded = null
      return reason
    },
  }
}
