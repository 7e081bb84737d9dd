import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setConsoleLogging, setDebugMode } from '../../src/logging'
import {
  createBrowserUniversalLinkStore,
  DEFAULT_UNIVERSAL_LINK_STORAGE_KEY,
  type UniversalLinkPersistedState,
} from '../../src/universal-link'

const SESSION_TOKEN = 'dG9rZW4tc2VjcmV0LXZhbHVlLXRoYXQtbXVzdC1ub3QtbGVhaw'

const STATE: UniversalLinkPersistedState = {
  format: 'scope-connect/universal-link',
  formatVersion: 2,
  fingerprint: '0123456789abcdef',
  tokens: { 's-1': 'token-token-token' },
  savedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_600_000,
  snapshot: {
    status: 'active',
    value: 'awaitingWallet',
    context: { sessionId: 's-1', sessionToken: SESSION_TOKEN },
  },
}

/** A minimal in-memory `Storage`. */
class MemoryStorage implements Storage {
  readonly data = new Map<string, string>()
  get length(): number {
    return this.data.size
  }
  clear(): void {
    this.data.clear()
  }
  getItem(key: string): string | null {
    return this.data.get(key) ?? null
  }
  key(index: number): string | null {
    return [...this.data.keys()][index] ?? null
  }
  removeItem(key: string): void {
    this.data.delete(key)
  }
  setItem(key: string, value: string): void {
    this.data.set(key, String(value))
  }
}

function domException(name: string): Error {
  const error = new Error(`${name} thrown by test storage`)
  error.name = name
  return error
}

/** Storage whose every method throws (setItem: QuotaExceededError, the rest: SecurityError). */
class ThrowingStorage extends MemoryStorage {
  override getItem(): string | null {
    throw domException('SecurityError')
  }
  override setItem(): void {
    throw domException('QuotaExceededError')
  }
  override removeItem(): void {
    throw domException('SecurityError')
  }
}

const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')

function installStorage(descriptor: PropertyDescriptor | undefined): void {
  if (descriptor === undefined) {
    delete (globalThis as { localStorage?: unknown }).localStorage
  } else {
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, ...descriptor })
  }
}

afterEach(() => {
  installStorage(original)
  vi.restoreAllMocks()
  setDebugMode(false)
  setConsoleLogging(false)
})

describe('createBrowserUniversalLinkStore on working storage', () => {
  let storage: MemoryStorage
  beforeEach(() => {
    storage = new MemoryStorage()
    installStorage({ value: storage, writable: true })
  })

  it('saves, loads and clears under the default key', () => {
    const store = createBrowserUniversalLinkStore()
    expect(DEFAULT_UNIVERSAL_LINK_STORAGE_KEY).toBe('scope-connect:universal-link')
    expect(store.load()).toBeNull()
    store.save(STATE)
    expect(JSON.parse(storage.getItem('scope-connect:universal-link')!)).toEqual(STATE)
    expect(store.load()).toEqual(STATE)
    store.clear()
    expect(storage.length).toBe(0)
    expect(store.load()).toBeNull()
  })

  it('uses a custom key and leaves other keys alone', () => {
    storage.setItem('other', 'x')
    const store = createBrowserUniversalLinkStore('my-app:ul')
    store.save(STATE)
    expect(storage.getItem('my-app:ul')).not.toBeNull()
    store.clear()
    expect(storage.getItem('my-app:ul')).toBeNull()
    expect(storage.getItem('other')).toBe('x')
  })

  it('replaces the previous state on save', () => {
    const store = createBrowserUniversalLinkStore()
    store.save(STATE)
    store.save({ ...STATE, savedAt: STATE.savedAt + 1 })
    expect(store.load()?.savedAt).toBe(STATE.savedAt + 1)
    expect(storage.length).toBe(1)
  })

  it.each([
    ['not JSON', '{"format":'],
    ['JSON null', 'null'],
    ['a number', '42'],
    ['another format', JSON.stringify({ ...STATE, format: 'other' })],
    ['another format version', JSON.stringify({ ...STATE, formatVersion: 1 })],
    ['a fractional time', JSON.stringify({ ...STATE, savedAt: 1.5 })],
    ['a negative expiry', JSON.stringify({ ...STATE, expiresAt: -1 })],
    ['a string snapshot', JSON.stringify({ ...STATE, snapshot: 'x' })],
    ['no snapshot', JSON.stringify({ ...STATE, snapshot: undefined })],
  ])('discards and removes a stored value that is %s', (_, raw) => {
    storage.setItem(DEFAULT_UNIVERSAL_LINK_STORAGE_KEY, raw)
    const store = createBrowserUniversalLinkStore()
    expect(store.load()).toBeNull()
    expect(storage.getItem(DEFAULT_UNIVERSAL_LINK_STORAGE_KEY)).toBeNull()
  })

  it('does not throw when the state cannot be serialized', () => {
    const store = createBrowserUniversalLinkStore()
    const circular: Record<string, unknown> = {}
    circular.self = circular
    expect(() => store.save({ ...STATE, snapshot: circular })).not.toThrow()
    expect(store.load()).toBeNull()
  })

  it('never logs the stored content, but logs what it did', () => {
    setDebugMode(true)
    const lines: unknown[][] = []
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args)
      })
    }
    const store = createBrowserUniversalLinkStore()
    store.save(STATE)
    store.load()
    store.clear()
    storage.setItem(DEFAULT_UNIVERSAL_LINK_STORAGE_KEY, `{"corrupt":"${SESSION_TOKEN}`)
    store.load()
    const printed = JSON.stringify(lines)
    expect(printed).toMatch(/saved/)
    expect(printed).toMatch(/cleared/)
    expect(printed).toMatch(/discarded corrupt value/)
    expect(printed).not.toContain(SESSION_TOKEN)
    expect(printed).not.toContain('awaitingWallet')
  })
})

describe('createBrowserUniversalLinkStore without usable storage', () => {
  it('does nothing safely when there is no localStorage (SSR)', () => {
    installStorage(undefined)
    expect('localStorage' in globalThis).toBe(false)
    const store = createBrowserUniversalLinkStore()
    expect(() => store.save(STATE)).not.toThrow()
    expect(store.load()).toBeNull()
    expect(() => store.clear()).not.toThrow()
  })

  it('does nothing safely when localStorage is null', () => {
    installStorage({ value: null, writable: true })
    const store = createBrowserUniversalLinkStore()
    store.save(STATE)
    expect(store.load()).toBeNull()
  })

  it('does nothing safely when touching localStorage throws SecurityError', () => {
    installStorage({
      get() {
        throw domException('SecurityError')
      },
    })
    expect(() => globalThis.localStorage).toThrow('SecurityError')
    const store = createBrowserUniversalLinkStore()
    expect(() => store.save(STATE)).not.toThrow()
    expect(store.load()).toBeNull()
    expect(() => store.clear()).not.toThrow()
  })

  it('swallows QuotaExceededError on save and errors on load/clear', () => {
    const storage = new ThrowingStorage()
    const setItem = vi.spyOn(storage, 'setItem')
    installStorage({ value: storage, writable: true })
    const store = createBrowserUniversalLinkStore()
    expect(() => store.save(STATE)).not.toThrow()
    expect(setItem).toHaveBeenCalledTimes(1)
    expect(store.load()).toBeNull()
    expect(() => store.clear()).not.toThrow()
  })

  it('survives a corrupt value whose removal throws', () => {
    const storage = new MemoryStorage()
    storage.setItem(DEFAULT_UNIVERSAL_LINK_STORAGE_KEY, 'garbage')
    vi.spyOn(storage, 'removeItem').mockImplementation(() => {
      throw domException('SecurityError')
    })
    installStorage({ value: storage, writable: true })
    expect(createBrowserUniversalLinkStore().load()).toBeNull()
  })

  it('picks storage up when it appears after the store was created (SSR, then hydration)', () => {
    installStorage(undefined)
    const store = createBrowserUniversalLinkStore()
    store.save(STATE)
    const storage = new MemoryStorage()
    installStorage({ value: storage, writable: true })
    store.save(STATE)
    expect(store.load()).toEqual(STATE)
  })
})
