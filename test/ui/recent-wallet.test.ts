import { describe, expect, it } from 'vitest'
import {
  putRecentFirst,
  RECENT_WALLET_KEY,
  readRecentWallet,
  rememberRecentWallet,
} from '../../src/ui/lazy/recent'
import { walletOptions } from '../../src/ui/lazy/wallets'
import { projectConfig } from './support/project-config'

// Issue 31 item 6: the wallet last used to connect comes first in the list, marked "Recent"; its id
// is remembered in localStorage and validated on read (a garbage value is ignored, not thrown).

/** A Map-backed Storage: Node has no localStorage (a stand-in for the browser's, named so). */
class MemoryStorageDouble implements Storage {
  #items = new Map<string, string>()
  get length() {
    return this.#items.size
  }
  clear() {
    this.#items.clear()
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.#items.delete(key)
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value)
  }
}

const config = projectConfig()

describe('the Recent wallet', () => {
  it('the wallet remembered after a connection comes first, marked recent; the others keep their order', () => {
    const storage = new MemoryStorageDouble()
    rememberRecentWallet('zerion', storage)
    const rows = walletOptions(config, false, { walletConnect: true })
    const ordered = putRecentFirst(rows, readRecentWallet(storage), 'Recent')
    expect(ordered[0]).toMatchObject({ name: 'Zerion', recent: 'Recent' })
    expect(ordered.map((row) => row.name)).toEqual([
      'Zerion',
      ...rows.map((row) => row.name).filter((name) => name !== 'Zerion'),
    ])
    expect(ordered.filter((row) => row.recent)).toHaveLength(1)
  })

  it('nothing remembered: the list is unchanged, nothing is marked', () => {
    const rows = walletOptions(config, false, { walletConnect: true })
    expect(putRecentFirst(rows, readRecentWallet(new MemoryStorageDouble()), 'Recent')).toEqual(
      rows,
    )
  })

  it.each([
    ['markup', '<img src=x onerror=alert(1)>'],
    ['empty', ''],
    ['too long', 'a'.repeat(101)],
    ['JSON', '{"id":"metamask"}'],
  ])('a garbage stored value (%s) is ignored', (_, value) => {
    const storage = new MemoryStorageDouble()
    storage.setItem(RECENT_WALLET_KEY, value)
    expect(readRecentWallet(storage)).toBeNull()
  })

  it('a wallet no longer in the list (or a throwing storage) leaves the list as it is', () => {
    const rows = walletOptions(config, false, { walletConnect: true })
    expect(putRecentFirst(rows, 'phantom', 'Recent')).toEqual(rows)
    const throwing = new MemoryStorageDouble()
    throwing.getItem = () => {
      throw new Error('SecurityError')
    }
    throwing.setItem = throwing.getItem
    expect(readRecentWallet(throwing)).toBeNull()
    expect(() => rememberRecentWallet('metamask', throwing)).not.toThrow()
  })
})
