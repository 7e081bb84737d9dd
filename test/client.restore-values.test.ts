import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection/memory-store'
import { isAppError } from '../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import {
  createMemoryTransactionStore,
  parseTransactionRecord,
  type TransactionRecord,
} from '../src/transaction/store'
import { createBrowserUniversalLinkStore } from '../src/universal-link/browser-store'
import type { UniversalLinkStore } from '../src/universal-link/store'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { textLinkStore } from './support/text-link-store'

// Issue 27, finding 5 and "What to build" 5: a restore checks the values of a stored record, not
// only its keys. A record whose context no flow can run on — `timeouts: null`, `pending: "bogus"`,
// a 6 MB or a `javascript:` walletUrl — is discarded with a reason in resume()'s answer, and so is
// a record whose envelope is broken; a transaction record with a garbage hash is not watched.
// Real parts: the server (anvil beside it), a real universal-link session for the record.

const backend = useBackendWithAnvil()

const optionsWith = (store: UniversalLinkStore, links: string[] = []) =>
  ({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: true,
    partnerWallets: [TEST_PARTNER_WALLET],
    solanaChainId: SOLANA_DEVNET,
    connectionStore: null,
    universalLink: {
      store,
      openLink: (url: string) => links.push(url),
      returnUrl: 'https://dapp.example/',
      pollIntervalMs: 20,
    },
  }) as const

/** The record a real universal-link connect leaves in the store while the wallet is asked. */
async function liveRecord(): Promise<Record<string, unknown>> {
  const store = textLinkStore()
  const links: string[] = []
  const before = new Client(optionsWith(store, links))
  await before.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
  void before.connect().catch(() => {})
  for (let i = 0; i < 200 && (links.length === 0 || store.value === null); i++)
    await new Promise((r) => setTimeout(r, 5))
  before.actor.stop()
  expect(store.value).not.toBeNull()
  return JSON.parse(store.value ?? 'null')
}

/** A copy of `record` with the root context's `key` set to `value`. */
function withRootContext(record: Record<string, unknown>, key: string, value: unknown) {
  const copy = structuredClone(record) as { snapshot: { context: Record<string, unknown> } }
  copy.snapshot.context[key] = value
  return copy
}

async function resumeWith(record: unknown) {
  const store = textLinkStore()
  store.value = JSON.stringify(record)
  const client = new Client(optionsWith(store))
  const result = await client.resume()
  return { client, result, store }
}

describe('restore checks the values of a universal-link record (finding 5)', () => {
  it('behavior: the untouched record is restored (the check lets a good record through)', async () => {
    const { result } = await resumeWith(await liveRecord())
    expect(result.status).toBe('awaitingWallet')
  })

  it('behavior: a record stored before 0.3 (connector kind spelled universalLink) is migrated on read and resumes as universal-link', async () => {
    const record = (await liveRecord()) as {
      snapshot: { context: { connector: { kind: string } } }
    }
    expect(record.snapshot.context.connector.kind).toBe('universal-link')
    record.snapshot.context.connector.kind = 'universalLink'
    const { client, result } = await resumeWith(record)
    expect(result.status).toBe('awaitingWallet')
    expect(client.getView().connectionKind).toBe('universal-link')
    expect(client.actor.getSnapshot().context.connector?.kind).toBe('universal-link')
    client.actor.stop()
  })

  it('error: timeouts null — discarded with a reason; the next selectWallet works (no misleading NOT_CONNECTED)', async () => {
    const { client, result, store } = await resumeWith(
      withRootContext(await liveRecord(), 'timeouts', null),
    )
    expect(result).toMatchObject({ status: 'discarded', reason: expect.stringMatching(/timeouts/) })
    expect(store.value).toBeNull()
    await expect(
      client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' }),
    ).resolves.toBeDefined()
    expect(client.actor.getSnapshot().status).toBe('active')
  })

  it('error: pending "bogus" — discarded, never in the view', async () => {
    const { client, result } = await resumeWith(
      withRootContext(await liveRecord(), 'pending', 'bogus'),
    )
    expect(result).toMatchObject({ status: 'discarded', reason: expect.stringMatching(/pending/) })
    expect(client.getView().pending).toBeNull()
  })

  it('error: a 6 MB walletUrl — discarded, never in the view', async () => {
    const { client, result } = await resumeWith(
      withRootContext(await liveRecord(), 'walletUrl', `https://phantom.app/ul/${'a'.repeat(6e6)}`),
    )
    expect(result).toMatchObject({
      status: 'discarded',
      reason: expect.stringMatching(/walletUrl/),
    })
    expect(client.getView().walletUrl).toBeNull()
  })

  it('error: a javascript: walletUrl — discarded, never in the view', async () => {
    const { client, result } = await resumeWith(
      withRootContext(await liveRecord(), 'walletUrl', 'javascript:alert(document.cookie)'),
    )
    expect(result).toMatchObject({ status: 'discarded', reason: expect.stringMatching(/https/) })
    expect(client.getView().walletUrl).toBeNull()
  })

  it('error: a broken universal-link child context (a session of the wrong shape) — discarded', async () => {
    const record = structuredClone(await liveRecord()) as {
      snapshot: { children: { universalLink: { snapshot: { context: Record<string, unknown> } } } }
    }
    record.snapshot.children.universalLink.snapshot.context.session = { sessionId: 7 }
    const { result } = await resumeWith(record)
    expect(result).toMatchObject({
      status: 'discarded',
      reason: expect.stringMatching(/universal-link context/),
    })
  })

  it('error: a broken session-polling context (a deadline that is not a time) — discarded', async () => {
    const record = structuredClone(await liveRecord()) as {
      snapshot: {
        children: {
          universalLink: {
            snapshot: { children: { poll: { snapshot: { context: Record<string, unknown> } } } }
          }
        }
      }
    }
    const poll = record.snapshot.children.universalLink.snapshot.children.poll
    expect(poll.snapshot.context.deadline).toBeTypeOf('number')
    poll.snapshot.context.deadline = 'soon'
    const { result } = await resumeWith(record)
    expect(result).toMatchObject({
      status: 'discarded',
      reason: expect.stringMatching(/session-polling context.*deadline/),
    })
  })

  it('property: any root-context value of the wrong type is discarded or restored, never breaks the root or reaches the view unchecked', async () => {
    const good = await liveRecord()
    const keys = Object.keys((good as { snapshot: { context: object } }).snapshot.context)
    const wrong = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant([]),
      fc.constant({}),
      fc.constant('javascript:alert(1)'),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), wrong, async (key, value) => {
        const { client, result } = await resumeWith(withRootContext(good, key, value))
        expect(['discarded', 'awaitingWallet']).toContain(result.status)
        const view = client.getView()
        expect(client.actor.getSnapshot().status).toBe('active')
        if (view.walletUrl !== null) expect(new URL(view.walletUrl).protocol).toBe('https:')
        client.cancel()
        await client
          .selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
          .catch((error) => {
            expect(isAppError(error)).toBe(true)
            expect(error.code).not.toBe('NOT_CONNECTED')
          })
        expect(client.actor.getSnapshot().status).toBe('active')
      }),
      { numRuns: 40, seed: 27 },
    )
  })
})

describe('a broken envelope is discarded with a reason (finding 10)', () => {
  it('error: not JSON in the browser store — resume() answers discarded, with the reason', async () => {
    const storage = new Map<string, string>()
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
      removeItem: (k: string) => storage.delete(k),
    })
    try {
      storage.set('scope-connect:universal-link', '{"format":"scope-connect/universal-link",')
      const client = new Client(optionsWith(createBrowserUniversalLinkStore()))
      const result = await client.resume()
      expect(result).toMatchObject({ status: 'discarded', reason: expect.stringMatching(/JSON/) })
      storage.set('scope-connect:universal-link', JSON.stringify({ format: 'other', snapshot: {} }))
      expect(await client.resume()).toMatchObject({
        status: 'discarded',
        reason: expect.stringMatching(/not a valid universal-link state/),
      })
      expect(storage.size).toBe(0)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('error: an envelope of the wrong version in the app store — discarded with the reason', async () => {
    const record = (await liveRecord()) as Record<string, unknown>
    const { result } = await resumeWith({ ...record, formatVersion: 99 })
    expect(result).toMatchObject({ status: 'discarded', reason: expect.stringMatching(/envelope/) })
  })
})

describe('stored records of other flows are checked by value too', () => {
  const transaction = (hash: string, chainId = 'eip155:31337'): TransactionRecord => ({
    format: 'scope-connect/transaction',
    formatVersion: 1,
    chainId,
    hash,
    confirmations: 1,
    deadlines: { wallet: null, receipt: Date.now() + 60_000, notSeen: null },
    savedAt: Date.now(),
  })

  it('error: a transaction record whose hash is "garbage" is not resumed (nor watched)', async () => {
    const store = createMemoryTransactionStore()
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      transactions: {
        // The app's own store, answering what it holds without a check.
        store: { save: () => {}, load: () => transaction('garbage'), clear: () => store.clear() },
      },
    })
    await expect(client.resumeTransaction()).resolves.toBeNull()
    expect(client.getView().transaction).toBeNull()
  })

  it('behavior: parseTransactionRecord takes a 32-byte hex hash (EVM), a base58 signature (Solana), nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 90 }), (hash) => {
        expect(parseTransactionRecord(transaction(hash))).toBeNull()
      }),
      { seed: 27 },
    )
    expect(parseTransactionRecord(transaction(`0x${'ab'.repeat(32)}`))).not.toBeNull()
    expect(parseTransactionRecord(transaction('5'.repeat(87), SOLANA_DEVNET))).not.toBeNull()
    expect(parseTransactionRecord(transaction(`0x${'ab'.repeat(32)}`, SOLANA_DEVNET))).toBeNull()
    expect(
      parseTransactionRecord({ ...transaction(`0x${'ab'.repeat(32)}`), confirmations: 1.5 }),
    ).toBeNull()
  })

  it('error: a stored connection with a non-address account is not reconnected', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: false,
      connectionStore: {
        save: () => {},
        clear: () => {},
        load: () =>
          ({
            ...createMemoryConnectionStore().load(),
            format: 'scope-connect/connection',
            formatVersion: 1,
            connectorId: 'injected',
            walletId: null,
            namespace: 'eip155',
            chainId: 'eip155:1',
            account: 'not-an-address',
          }) as never,
      },
    })
    expect((await client.resume()).status).toBe('none')
  })
})
