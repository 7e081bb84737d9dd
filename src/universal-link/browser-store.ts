import { createLogger } from '../logging'
import { parsePersistedState, type UniversalLinkPersistedState } from './persisted-state'
import type { UniversalLinkStore } from './store'

/** The localStorage key `createBrowserUniversalLinkStore` uses by default. */
export const DEFAULT_UNIVERSAL_LINK_STORAGE_KEY = 'scope-connect:universal-link'

const log = /* @__PURE__ */ createLogger('universal-link-store')

/** `globalThis.localStorage`, or null in SSR, without storage, or when touching it throws. */
function storage(): Storage | null {
  try {
    const candidate = (globalThis as { localStorage?: Storage }).localStorage
    return candidate !== undefined && candidate !== null && typeof candidate.getItem === 'function'
      ? candidate
      : null
  } catch {
    // SecurityError: storage disabled, sandboxed iframe, opaque origin.
    return null
  }
}

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
): UniversalLinkStore<UniversalLinkPersistedState> {
  return {
    save(state) {
      const target = storage()
      if (target === null) return
      try {
        target.setItem(storageKey, JSON.stringify(state))
        log.debug(`saved state under ${storageKey}`)
      } catch (error) {
        log.warn(`could not save state under ${storageKey}`, {
          reason: error instanceof Error ? error.name : typeof error,
        })
      }
    },
    load() {
      const target = storage()
      if (target === null) return null
      let raw: string | null
      try {
        raw = target.getItem(storageKey)
      } catch {
        return null
      }
      if (raw === null) return null
      let value: unknown
      try {
        value = JSON.parse(raw)
      } catch {
        value = undefined
      }
      const state = parsePersistedState(value)
      if (state === null) {
        try {
          target.removeItem(storageKey)
        } catch {
          // Nothing more to do: the next load will discard it again.
        }
        log.warn(`discarded corrupt value under ${storageKey}`)
      }
      return state
    },
    clear() {
      const target = storage()
      if (target === null) return
      try {
        target.removeItem(storageKey)
        log.debug(`cleared state under ${storageKey}`)
      } catch {
        // Nothing to do.
      }
    },
  }
}
