import { createMemoryRecordStore } from '../storage/record-store'
import { parsePersistedState, type UniversalLinkPersistedState } from './persisted-state'
import type { UniversalLinkStore } from './store'

/**
 * A `UniversalLinkStore` in memory, for tests, server-side rendering (one per request) and
 * environments without `localStorage` (React Native, a worker, Node scripts). It keeps what
 * `createBrowserUniversalLinkStore` would keep: the state serialised to JSON, so a saved state is a
 * copy (later changes to the object do not reach the store, and `load()` returns a fresh copy),
 * and a value that is not JSON-safe or fails `parsePersistedState` is not kept. Nothing throws.
 * `initial` seeds it, e.g. with a state loaded from your own storage. The state holds the session
 * token: do not log what `load()` returns.
 */
export function createMemoryUniversalLinkStore(
  initial: UniversalLinkPersistedState | null = null,
): UniversalLinkStore {
  const store = createMemoryRecordStore(parsePersistedState, 'universal-link state')
  if (initial !== null) store.save(initial)
  return store
}
