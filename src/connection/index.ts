export { createBrowserConnectionStore, DEFAULT_CONNECTION_STORAGE_KEY } from './browser-store'
export { createMemoryConnectionStore } from './memory-store'
export {
  CONNECTION_STORE_FORMAT,
  CONNECTION_STORE_FORMAT_VERSION,
  type ConnectionStore,
  parseStoredConnection,
  type StoredConnection,
} from './store'
