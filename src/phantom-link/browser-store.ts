import { createLogger } from '../logging'
import { createLocalStorageRecord } from '../storage/local-storage-record'
import type { UniversalLinkStore } from '../universal-link/store'
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
): UniversalLinkStore<PhantomLinkPersistedState> {
  return createLocalStorageRecord({
    storageKey,
    parse: parsePhantomLinkState,
    log,
    what: 'Phantom-link state',
  })
}

/** An in-memory store of the Phantom-link flow (tests, Node, React Native with its own storage). */
export function createMemoryPhantomLinkStore(): UniversalLinkStore<PhantomLinkPersistedState> {
  let stored: string | null = null
  return {
    save: (state) => {
      stored = JSON.stringify(state)
    },
    load: () => (stored === null ? null : parsePhantomLinkState(JSON.parse(stored))),
    clear: () => {
      stored = null
    },
  }
}
