import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import { parsePersistedState } from './persisted-state'
import type { UniversalLinkStore } from './store'

/** The localStorage key `createBrowserUniversalLinkStore` uses by default. */
export const DEFAULT_UNIVERSAL_LINK_STORAGE_KEY = 'scope-connect:universal-link'

const log = /* @__PURE__ */ createLogger('universal-link-store')

/**
 * A `UniversalLinkStore` on browser `localStorage` under `storageKey`. Storage is looked up on every
 * call, so a store created during server-side rendering works once the page runs in the browser.
 * Without storage (SSR, disabled, SecurityError) every method does nothing and `load()` returns
 * null. A value that does not parse as JSON or fails `parsePersistedState` is removed and `load()`
 * returns null. Nothing throws, QuotaExceededError on save included (the state is then not kept).
 * The stored state holds the session token: this store logs only what it did, never the content.
 */
export function createBrowserUniversalLinkStore(
  storageKey: string = DEFAULT_UNIVERSAL_LINK_STORAGE_KEY,
): UniversalLinkStore {
  return createLocalStorageRecord({
    storageKey,
    parse: parsePersistedState,
    log,
    what: 'universal-link state',
  })
}
