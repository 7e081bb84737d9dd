import { afterEach, describe, expect, it } from 'vitest'
import {
  createBrowserPairingStore,
  DEFAULT_PAIRING_STORAGE_KEY,
  type PairingPersistedState,
} from '../../machines/pairing/pairing.persistence'

const state = { format: 'scope-connect/pairing', formatVersion: 1 } as PairingPersistedState

function installStorage(items = new Map<string, string>(), failing = false) {
  ;(globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (failing) throw Object.assign(new Error('full'), { name: 'QuotaExceededError' })
      items.set(key, value)
    },
    removeItem: (key: string) => void items.delete(key),
  }
  return items
}

afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage
})

describe('createBrowserPairingStore', () => {
  it('saves, loads and clears JSON under its key', () => {
    const items = installStorage()
    const store = createBrowserPairingStore()
    store.save(state)
    expect(JSON.parse(items.get(DEFAULT_PAIRING_STORAGE_KEY) as string)).toEqual(state)
    expect(store.load()).toEqual(state)
    store.clear()
    expect(items.size).toBe(0)
    expect(store.load()).toBeNull()
  })

  it('removes a value that is not JSON; a full storage does not throw', () => {
    const items = installStorage(new Map([['k', '{nope']]))
    const { load } = createBrowserPairingStore('k')
    expect(load()).toBeNull()
    expect(items.has('k')).toBe(false)
    installStorage(new Map(), true)
    expect(() => createBrowserPairingStore().save(state)).not.toThrow()
  })

  it('does nothing, safely, without storage (SSR)', () => {
    const store = createBrowserPairingStore()
    expect(() => store.save(state)).not.toThrow()
    expect(store.load()).toBeNull()
    expect(() => store.clear()).not.toThrow()
  })
})
