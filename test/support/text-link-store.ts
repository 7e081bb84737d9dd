import type { UniversalLinkPersistedState } from '../../src/universal-link/persisted-state'
import type { UniversalLinkStore } from '../../src/universal-link/store'

/**
 * A universal-link store on a string, as `localStorage` keeps it (what an app's own store would do):
 * `value` is the stored text, for tests that read or corrupt it. It checks nothing (the Client does).
 */
export function textLinkStore(): UniversalLinkStore & { value: string | null } {
  const store = {
    value: null as string | null,
    save: (state: UniversalLinkPersistedState) => {
      store.value = JSON.stringify(state)
    },
    load: () =>
      store.value === null ? null : (JSON.parse(store.value) as UniversalLinkPersistedState),
    clear: () => {
      store.value = null
    },
  }
  return store
}
