import { createLogger } from '../logging'
import { type ConnectionStore, parseStoredConnection } from './store'

/** The localStorage key `createBrowserConnectionStore` uses by default. */
export const DEFAULT_CONNECTION_STORAGE_KEY = 'scope-connect:connection'

const log = /* @__PURE__ */ createLogger('connection-store')

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
 * A `ConnectionStore` on browser `localStorage` under `storageKey` (the `Client`'s default in a
 * page). Storage is looked up on every call, so a store created during server-side rendering works
 * once the page runs. Without storage every method does nothing and `load()` returns null. A value
 * that is not JSON or fails `parseStoredConnection` is removed. Nothing throws.
 */
export function createBrowserConnectionStore(
  storageKey: string = DEFAULT_CONNECTION_STORAGE_KEY,
): ConnectionStore {
  const clear = () => {
    try {
      storage()?.removeItem(storageKey)
    } catch {
      // Nothing to do: the next load discards it again.
    }
  }
  return {
    save(connection) {
      try {
        storage()?.setItem(storageKey, JSON.stringify(connection))
      } catch (error) {
        log.warn(`could not save the connection under ${storageKey}`, {
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
      try {
        value = JSON.parse(raw)
      } catch {
        value = undefined
      }
      const connection = parseStoredConnection(value)
      if (connection === null) {
        log.warn(`discarded an unusable value under ${storageKey}`)
        clear()
      }
      return connection
    },
    clear,
  }
}
