import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../../examples/wallet-simulator/src/index'
import { SOLANA_DEVNET, startTestServer, type TestServer } from '../../server/test/support/server'
import { GenericWalletSessionClient } from '../../src/session/client'
import {
  createMemoryUniversalLinkStore,
  type UniversalLinkPersistedState,
} from '../../src/universal-link'
import { UniversalLinkConnector } from '../../src/universal-link/face/connector'

const STATE: UniversalLinkPersistedState = {
  format: 'scope-connect/universal-link',
  formatVersion: 2,
  fingerprint: '0123456789abcdef',
  tokens: { 's-1': 'token-token-token' },
  savedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_600_000,
  snapshot: { status: 'active', value: 'awaitingWallet', context: { sessionId: 's-1' } },
}

describe('createMemoryUniversalLinkStore', () => {
  it('starts empty, keeps what is saved, forgets it on clear', () => {
    const store = createMemoryUniversalLinkStore()
    expect(store.load()).toBeNull()
    store.save(STATE)
    expect(store.load()).toEqual(STATE)
    store.clear()
    expect(store.load()).toBeNull()
  })

  it('keeps a copy, as localStorage would: later changes to either side do not leak', () => {
    const store = createMemoryUniversalLinkStore()
    const state = structuredClone(STATE)
    store.save(state)
    state.expiresAt = 0
    const loaded = store.load()
    expect(loaded?.expiresAt).toBe(STATE.expiresAt)
    ;(loaded as UniversalLinkPersistedState).fingerprint = 'changed'
    expect(store.load()?.fingerprint).toBe(STATE.fingerprint)
    expect(store.load()).not.toBe(store.load())
  })

  it('is seeded by `initial`', () => {
    expect(createMemoryUniversalLinkStore(STATE).load()).toEqual(STATE)
  })

  it('does not keep what localStorage could not hold, and never throws', () => {
    const store = createMemoryUniversalLinkStore(STATE)
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => store.save({ ...STATE, snapshot: cyclic })).not.toThrow()
    expect(store.load()).toBeNull()
    store.save({ ...STATE, snapshot: { big: 1n } })
    expect(store.load()).toBeNull()
    store.save({ ...STATE, formatVersion: 1 } as unknown as UniversalLinkPersistedState)
    expect(store.load()).toBeNull()
  })

  it('separate stores are separate (one per request during SSR)', () => {
    const a = createMemoryUniversalLinkStore()
    const b = createMemoryUniversalLinkStore()
    a.save(STATE)
    expect(b.load()).toBeNull()
  })
})

describe('the memory store under the universal-link connector, against the real server', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('holds the flow while the wallet is away and is empty once it is done', async () => {
    const store = createMemoryUniversalLinkStore()
    const links: string[] = []
    const connector = new UniversalLinkConnector({
      walletId: 'phantom',
      universalLink: 'https://phantom.app/ul/v1/connect',
      session: new GenericWalletSessionClient(server.baseUrl, server.appKey),
      chainId: SOLANA_DEVNET,
      store,
      openLink: (url) => links.push(url),
      pollIntervalMs: 20,
    })
    const wallet = createWalletSimulator({ walletSlug: 'phantom' })

    const connecting = connector.connect()
    for (let i = 0; i < 500 && links.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    expect(store.load()?.format).toBe('scope-connect/universal-link')
    expect(JSON.stringify(store.load()?.snapshot)).toContain('awaitingWallet')

    await wallet.handle(links[0] ?? '')
    await expect(connecting).resolves.toMatchObject({ accounts: [wallet.address] })
    await connector.disconnect()
    expect(store.load()).toBeNull()
  })
})
