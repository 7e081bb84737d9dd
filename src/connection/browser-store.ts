import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import { type ConnectionStore, parseStoredConnection } from './store'

/** The localStorage key `createBrowserConnectionStore` uses by default. */
export const DEFAULT_CONNECTION_STORAGE_KEY = 'scope-connect:connection'

const log = /* @__PURE__ */ createLogger('connection-store')

/**
 * A `ConnectionStore` on browser `localStorage` under `storageKey` (the `Client`'s default in a
 * page). Storage is looked up on every call, so a store created during server-side rendering works
 * once the page runs. Without storage every method does nothing and `load()` returns null. A value
 * that is not JSON or fails `parseStoredConnection` is removed. Nothing throws.
 */
export function createBrowserConnectionStore(
  storageKey: string = DEFAULT_CONNECTION_STORAGE_KEY,
): ConnectionStore {
  return createLocalStorageRecord({
    storageKey,
    parse: parseStoredConnection,
    log,
    what: 'connection',
  })
}
