import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest'
import { PAIRING_MACHINE_VERSION } from '../../machines/pairing/pairing.machine'
import {
  createBrowserPairingStore,
  type PairingPersistedState,
  type PairingStore,
} from '../../machines/pairing/pairing.persistence'
import {
  createBrowserPhantomLinkStore,
  createMemoryPhantomLinkStore,
} from '../../src/phantom-link/browser-store'
import type { PhantomLinkPersistedState } from '../../src/phantom-link/persisted'
import type { RecordEnvelope, RecordStore } from '../../src/storage/record-store'
import {
  createBrowserTransactionStore,
  createMemoryTransactionStore,
  type TransactionHistoryRecord,
  type TransactionRecord,
  type TransactionStore,
} from '../../src/transaction/store'
import {
  createBrowserUniversalLinkStore,
  createMemoryUniversalLinkStore,
  type UniversalLinkPersistedState,
  type UniversalLinkStore,
} from '../../src/universal-link'

// One RecordStore<T> and one envelope header for the library's four stored records: the
// universal-link flow, the Phantom-link flow, a paired relay session, a transaction awaiting its
// receipt. Each store keeps a JSON copy, refuses what its record's check refuses, and never throws.

const link: UniversalLinkPersistedState = {
  format: 'scope-connect/universal-link',
  formatVersion: 2,
  fingerprint: 'client.link@1',
  savedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_600_000,
  snapshot: { status: 'active', value: 'awaitingWallet', context: {} },
  tokens: { 's-1': 'token-token-token' },
}
const phantom: PhantomLinkPersistedState = {
  format: 'scope-connect/phantom-link',
  formatVersion: 1,
  savedAt: 1_700_000_000_000,
  snapshot: {
    status: 'active',
    value: 'connected',
    context: {
      walletId: 'phantom',
      chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      dappPublicKey: null,
      dappSecretKey: null,
      walletEncryptionKey: null,
      session: null,
      account: null,
      request: null,
      seenNonces: [],
      last: null,
    },
  },
}
const transaction: TransactionRecord = {
  format: 'scope-connect/transaction',
  formatVersion: 1,
  chainId: 'eip155:31337',
  hash: `0x${'ab'.repeat(32)}`,
  confirmations: 1,
  deadlines: { wallet: null, receipt: null, notSeen: null },
  savedAt: 1_700_000_000_000,
}
const pairing: PairingPersistedState = {
  format: 'scope-connect/pairing',
  formatVersion: 1,
  machineVersion: PAIRING_MACHINE_VERSION,
  fingerprint: 'client.relay@1',
  savedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_600_000,
  snapshot: {},
  secrets: {
    pairingId: '0f'.repeat(16),
    sessionTopic: '1e'.repeat(32),
    symKeyS: '2d'.repeat(32),
    publicKey: '3c'.repeat(32),
  },
}

/** A `localStorage` of the browser's contract, for the browser stores. */
function installStorage() {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (index: number) => [...items.keys()][index] ?? null,
    get length() {
      return items.size
    },
  }
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true })
  return items
}

let items: Map<string, string>
beforeEach(() => {
  items = installStorage()
})
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'localStorage')
})

type Case = [string, () => RecordStore<RecordEnvelope>, RecordEnvelope]
const cases: Case[] = [
  ['universal link, memory', () => createMemoryUniversalLinkStore(), link],
  ['universal link, browser', () => createBrowserUniversalLinkStore(), link],
  ['Phantom link, memory', () => createMemoryPhantomLinkStore(), phantom],
  ['Phantom link, browser', () => createBrowserPhantomLinkStore(), phantom],
  ['transaction, memory', () => createMemoryTransactionStore(), transaction],
  ['transaction, browser', () => createBrowserTransactionStore(), transaction],
  ['pairing, browser', () => createBrowserPairingStore(), pairing],
] as unknown as Case[]

describe('default: every store of the package is a RecordStore of an enveloped record', () => {
  it.each(cases)('%s: keeps a copy, forgets it on clear', (_, create, record) => {
    const store = create()
    expect(store.load()).toBeNull()
    store.save(structuredClone(record))
    const loaded = store.load()
    expect(loaded).toEqual(record)
    expect(loaded).not.toBe(store.load())
    expect(loaded).toMatchObject({
      format: record.format,
      formatVersion: record.formatVersion,
      savedAt: record.savedAt,
    })
    store.clear()
    expect(store.load()).toBeNull()
  })

  it.each(
    cases.filter(([name]) => !name.startsWith('pairing')), // the pairing record is judged on restore
  )('%s: a record of another format is not given back, and says why', (_, create, record) => {
    const store = create()
    store.save({ ...record, format: 'someone-else/record' } as never)
    // Memory stores refuse it on save; browser stores on load (and remove it).
    expect(store.load()).toBeNull()
    expect(store.load()).toBeNull()
  })

  it('types: the five records share the envelope; TransactionStore is a RecordStore of its own, with an optional history', () => {
    expectTypeOf<UniversalLinkPersistedState>().toExtend<RecordEnvelope>()
    expectTypeOf<PhantomLinkPersistedState>().toExtend<RecordEnvelope>()
    expectTypeOf<TransactionRecord>().toExtend<RecordEnvelope>()
    expectTypeOf<PairingPersistedState>().toExtend<RecordEnvelope>()
    expectTypeOf<TransactionHistoryRecord>().toExtend<RecordEnvelope>()
    expectTypeOf<TransactionStore>().toExtend<RecordStore<TransactionRecord>>()
    expectTypeOf<RecordStore<TransactionRecord>>().toExtend<TransactionStore>()
    expectTypeOf<TransactionStore['history']>().toEqualTypeOf<
      RecordStore<TransactionHistoryRecord> | undefined
    >()
    expectTypeOf<UniversalLinkStore>().toEqualTypeOf<RecordStore<UniversalLinkPersistedState>>()
    expectTypeOf<PairingStore>().toEqualTypeOf<RecordStore<PairingPersistedState>>()
  })
})

describe('behavior: records written by the previous release are read', () => {
  it('a Phantom-link record with `version` (before the shared envelope) loads as formatVersion 1', () => {
    const { formatVersion, ...rest } = phantom
    items.set('scope-connect:phantom-link', JSON.stringify({ ...rest, version: formatVersion }))
    expect(createBrowserPhantomLinkStore().load()).toEqual(phantom)
  })

  it('a transaction and a universal-link record in the previous release’s JSON load unchanged', () => {
    items.set('scope-connect:transaction', JSON.stringify(transaction))
    items.set('scope-connect:universal-link', JSON.stringify(link))
    expect(createBrowserTransactionStore().load()).toEqual(transaction)
    expect(createBrowserUniversalLinkStore().load()).toEqual(link)
  })

  it('error: text that is not JSON is removed and the reason given once', () => {
    items.set('scope-connect:transaction', '{not json')
    const store = createBrowserTransactionStore()
    expect(store.load()).toBeNull()
    expect(store.discarded?.()).toBe('the stored record is not JSON')
    expect(store.discarded?.()).toBeNull()
    expect(items.has('scope-connect:transaction')).toBe(false)
    store.save(transaction)
    expect(store.load()).toEqual(transaction)
  })
})
