export {
  CONNECTION_STORE_FORMAT,
  CONNECTION_STORE_FORMAT_VERSION,
  type ConnectionStore,
  createBrowserConnectionStore,
  createMemoryConnectionStore,
  DEFAULT_CONNECTION_STORAGE_KEY,
  parseStoredConnection,
  type StoredConnection,
} from '../connection'
