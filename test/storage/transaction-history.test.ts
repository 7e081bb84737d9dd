import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { TransactionSummary } from '../../machines/transaction/transaction.types'
import {
  createBrowserTransactionStore,
  createMemoryTransactionStore,
  parseTransactionHistory,
  readTransactionHistory,
  rememberSettledTransaction,
  type SettledTransaction,
  TRANSACTION_HISTORY_FORMAT,
  TRANSACTION_HISTORY_LENGTH,
} from '../../src/transaction/store'

// The transaction store's history of settled transactions (what `Client.recentTransactions()` and
// the account screen list): kept newest first, once per hash, at most 10, checked on read.

const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const summary = (n: number, outcome: TransactionSummary['outcome'] = 'confirmed') =>
  ({
    outcome,
    chainId: 'eip155:31337',
    hash: hashOf(n),
    blockNumber: String(n),
    confirmations: 1,
    replacedBy: null,
    revertReason: null,
    error: null,
  }) satisfies TransactionSummary

const entry = (n: number): SettledTransaction => ({
  chainId: 'eip155:31337',
  hash: hashOf(n),
  outcome: 'confirmed',
  blockNumber: String(n),
  settledAt: 1_000 + n,
})
const record = (transactions: unknown[]) => ({
  format: TRANSACTION_HISTORY_FORMAT,
  formatVersion: 1,
  savedAt: 1,
  transactions,
})

describe('rememberSettledTransaction', () => {
  it('keeps settled transactions newest first, once each, the last 10', () => {
    const store = createMemoryTransactionStore()
    for (let n = 1; n <= 12; n++) rememberSettledTransaction(store, summary(n), 1_000 + n)
    rememberSettledTransaction(store, summary(12), 5_000) // seen again: kept once, not moved
    rememberSettledTransaction(store, summary(5, 'reverted'), 6_000) // 5 had dropped out
    const kept = readTransactionHistory(store)
    expect(kept).toHaveLength(TRANSACTION_HISTORY_LENGTH)
    expect(kept.map((t) => t.hash)).toEqual([5, 12, 11, 10, 9, 8, 7, 6, 4, 3].map(hashOf))
    expect(kept[0]).toEqual({ ...entry(5), outcome: 'reverted', settledAt: 6_000 })
    expect(kept[1]?.settledAt).toBe(1_012)
  })

  it('a transaction without a hash (the wallet refused) is not kept', () => {
    const store = createMemoryTransactionStore()
    rememberSettledTransaction(store, { ...summary(1, 'rejected'), hash: null }, 1)
    expect(readTransactionHistory(store)).toEqual([])
  })

  it('survives a reload in localStorage, beside the transaction in flight', () => {
    const items = new Map<string, string>()
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    }
    vi.stubGlobal('localStorage', storage)
    try {
      rememberSettledTransaction(createBrowserTransactionStore('k'), summary(1), 7)
      expect([...items.keys()]).toEqual(['k:history'])
      expect(readTransactionHistory(createBrowserTransactionStore('k'))).toEqual([
        { ...entry(1), settledAt: 7 },
      ])
      expect(createBrowserTransactionStore('k').load()).toBeNull()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('a store without a history keeps none', () => {
    const { history: _, ...plain } = createMemoryTransactionStore()
    rememberSettledTransaction(plain, summary(1), 1)
    expect(readTransactionHistory(plain)).toEqual([])
    expect(readTransactionHistory(null)).toEqual([])
  })
})

describe('parseTransactionHistory', () => {
  it('refuses another format, version or shape', () => {
    for (const garbage of [
      null,
      'x',
      [],
      { ...record([]), format: 'scope-connect/transaction' },
      { ...record([]), formatVersion: 2 },
      { ...record([]), transactions: {} },
      { ...record([]), savedAt: '1' },
    ]) {
      expect(parseTransactionHistory(garbage)).toBeNull()
    }
  })

  it('drops the entries that are not settled transactions, keeps the rest', () => {
    const good = entry(1)
    const parsed = parseTransactionHistory(
      record([
        { ...good, hash: '<img src=x>' },
        { ...good, chainId: 42 },
        null,
        good,
        { ...good, outcome: 'pending' },
        { ...good, blockNumber: '0x10' },
        { ...good, settledAt: Number.NaN },
        { ...good, hash: hashOf(2), extra: 'dropped key' },
      ]),
    )
    expect(parsed?.transactions).toEqual([good, { ...good, hash: hashOf(2) }])
  })

  it('any value: a history or null, never a throw; what it keeps reads back the same', () => {
    fc.assert(
      fc.property(fc.anything(), fc.array(fc.anything(), { maxLength: 15 }), (value, entries) => {
        expect(() => parseTransactionHistory(value)).not.toThrow()
        const parsed = parseTransactionHistory(record(entries))
        expect(parsed?.transactions.length).toBeLessThanOrEqual(TRANSACTION_HISTORY_LENGTH)
        expect(parseTransactionHistory(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed)
      }),
    )
  })
})
