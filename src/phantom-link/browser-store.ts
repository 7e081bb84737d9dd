import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import { createMemoryRecordStore, type RecordStore } from '../storage/record-store'
import { type PhantomLinkPersistedState, parsePhantomLinkState } from './persisted'

/** The localStorage key `createBrowserPhantomLinkStore` uses by default. */
export const DEFAULT_PHANTOM_LINK_STORAGE_KEY = 'scope-connect:phantom-link'

const log = /* @__PURE__ */ createLogger('phantom-link-store')

/**
 * A store of the Phantom-link flow on browser `localStorage` (nothing where there is none); a
 * value that fails `parsePhantomLinkState` is removed. Never throws. The record holds the dApp's
 * x25519 secret: this store logs only what it did.
 */
export function createBrowserPhantomLinkStore(
  storageKey: string = DEFAULT_PHANTOM_LINK_STORAGE_KEY,
): RecordStore<PhantomLinkPersistedState> {
  return createLocalStorageRecord({
    storageKey,
    parse: parsePhantomLinkState,
    log,
    what: 'Phantom-link state',
  })
}

/** An in-memory store of the Phantom-link flow (tests, Node, React Native with its own storage). */
export function createMemoryPhantomLinkStore(): RecordStore<PhantomLinkPersistedState> {
  return createMemoryRecordStore(parsePhantomLinkState, 'Phantom-link state')
}
