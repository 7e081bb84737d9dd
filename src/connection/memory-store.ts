import { type ConnectionStore, parseStoredConnection, type StoredConnection } from './store'

/**
 * A `ConnectionStore` in memory: for tests, server-side rendering and places without
 * `localStorage` (React Native, a worker, Node scripts). It keeps a copy (JSON, as
 * `createBrowserConnectionStore` would), and a record that fails `parseStoredConnection` is not
 * kept. Nothing throws. `initial` seeds it, e.g. with a record from your own storage.
 */
export function createMemoryConnectionStore(
  initial: StoredConnection | null = null,
): ConnectionStore {
  let stored: string | null = null
  const store: ConnectionStore = {
    save(connection) {
      stored = parseStoredConnection(connection) === null ? null : JSON.stringify(connection)
    },
    load() {
      return stored === null ? null : parseStoredConnection(JSON.parse(stored))
    },
    clear() {
      stored = null
    },
  }
  if (initial !== null) store.save(initial)
  return store
}
