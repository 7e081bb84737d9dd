import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../../examples/wallet-simulator/src/index'
import { SOLANA_DEVNET, startTestServer, type TestServer } from '../../server/test/support/server'
import { isAppError } from '../../src/errors'
import { GenericWalletSessionClient } from '../../src/session/client'
import { UniversalLinkConnector } from '../../src/universal-link/face/connector'
import type { UniversalLinkPersistedState } from '../../src/universal-link/persisted-state'
import type { UniversalLinkStore } from '../../src/universal-link/store'

// End to end: the real server (in-process store), the reference wallet simulator with a real
// ed25519 key, and the universal-link connector whose flow is the persisted statechart.

let server: TestServer
let sessions: GenericWalletSessionClient

beforeAll(async () => {
  server = await startTestServer()
  sessions = new GenericWalletSessionClient(server.baseUrl, server.appKey)
})
afterAll(() => server.close())

/** Session tokens seen in saved records, by session id: the test reads results with them. */
const tokens = new Map<string, string>()

/** A store that keeps what localStorage would: a JSON string. */
function jsonStore(initial: string | null = null) {
  let value = initial
  const store: UniversalLinkStore & { raw(): string | null } = {
    save: (state) => {
      value = JSON.stringify(state)
      // The token is stored once, beside the snapshot (which holds none).
      expect(JSON.stringify(state.snapshot)).not.toMatch(/sessionToken/)
      for (const [sessionId, token] of Object.entries(state.tokens)) tokens.set(sessionId, token)
    },
    load: () => (value === null ? null : (JSON.parse(value) as UniversalLinkPersistedState)),
    clear: () => {
      value = null
    },
    raw: () => value,
  }
  return store
}

function connectorFor(store: UniversalLinkStore) {
  const links: string[] = []
  const connector = new UniversalLinkConnector({
    walletId: 'phantom',
    universalLink: 'https://phantom.app/ul/v1/connect',
    session: sessions,
    chainId: SOLANA_DEVNET,
    store,
    returnUrl: 'https://dapp.example/return',
    dappName: 'Example dApp',
    openLink: (url) => links.push(url),
    pollIntervalMs: 20,
  })
  return { connector, links }
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}

/** The page reload: the old page's JS is gone; only what storage held survives. */
function reload(old: UniversalLinkConnector, store: ReturnType<typeof jsonStore>) {
  const survived = store.raw()
  old.getActor()?.stop()
  const fresh = jsonStore(survived)
  return { store: fresh, ...connectorFor(fresh) }
}

function resultOf(sessionId: string) {
  return sessions.getResult(sessionId, tokens.get(sessionId) ?? '')
}

function sessionIdOf(link: string) {
  return new URL(link).searchParams.get('scSessionId') ?? ''
}

describe('universal-link connector against the real server', () => {
  it('connects and signs without interruption; the store is empty at the end', async () => {
    const wallet = createWalletSimulator({ walletSlug: 'phantom' })
    const store = jsonStore()
    const { connector, links } = connectorFor(store)

    const connecting = connector.connect()
    await until(() => links.length === 1)
    const link = new URL(links[0] ?? '')
    expect(link.origin + link.pathname).toBe('https://phantom.app/ul/v1/connect')
    expect(link.searchParams.get('scMethod')).toBe('connect')
    expect(link.searchParams.get('scChain')).toBe(SOLANA_DEVNET)
    expect(link.searchParams.get('scReturnUrl')).toBe('https://dapp.example/return')
    expect(links[0]).not.toMatch(/token/i)
    expect(store.raw()).toContain('"awaitingWallet"')

    expect((await wallet.handle(links[0] ?? '')).callbackStatus).toBe(204)
    const connection = await connecting
    expect(connection).toEqual({
      walletId: 'phantom',
      connectorId: 'phantom',
      namespace: 'solana',
      chainId: SOLANA_DEVNET,
      accounts: [wallet.address],
    })
    expect(connector.getAccounts()).toEqual([wallet.address])

    const signing = connector.request<{ signature: string; publicKey: string }>({
      method: 'solana_signMessage',
    })
    await until(() => links.length === 2)
    expect(new URL(links[1] ?? '').searchParams.get('scMethod')).toBe('signMessage')
    await wallet.handle(links[1] ?? '')
    const signed = await signing
    expect(signed.publicKey).toBe(wallet.address)
    const first = await resultOf(sessionIdOf(links[0] ?? ''))
    expect(first.status).toBe('signed')
    expect(JSON.parse(store.raw() ?? '{}').snapshot.value).toBe('connected')

    // A second signature: the backend burnt the first session's nonce, so the flow renews the
    // session (the wallet connects it), then asks for the signature.
    const again = connector.request<{ signature: string }>({ method: 'solana_signMessage' })
    await until(() => links.length === 3)
    expect(new URL(links[2] ?? '').searchParams.get('scMethod')).toBe('connect')
    await wallet.handle(links[2] ?? '')
    await until(() => links.length === 4)
    expect(new URL(links[3] ?? '').searchParams.get('scMethod')).toBe('signMessage')
    await wallet.handle(links[3] ?? '')
    const second = await again
    const renewed = await resultOf(sessionIdOf(links[2] ?? ''))
    expect(renewed.status).toBe('signed')
    expect(second.signature).toBe(renewed.signature)
    expect(second.signature).not.toBe(first.signature)
    await connector.disconnect()
    expect(store.raw()).toBeNull()
    expect(connector.getConnection()).toBeNull()
  })

  it('a transaction request reaches the wallet with its payload and returns the tx signature', async () => {
    const wallet = createWalletSimulator({ walletSlug: 'phantom' })
    const store = jsonStore()
    const { connector, links } = connectorFor(store)
    const connecting = connector.connect()
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '')
    await connecting
    const tx = Buffer.from('a serialized transaction ++//').toString('base64')
    const signing = connector.request<{ signature: string }>({
      method: 'solana_signTransaction',
      params: { transaction: tx },
    })
    await until(() => links.length === 2)
    expect(new URL(links[1] ?? '').searchParams.get('scPayload')).toMatch(/^[A-Za-z0-9_-]+$/)
    await wallet.handle(links[1] ?? '')
    expect((await signing).signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect(JSON.parse(store.raw() ?? '{}').snapshot.value).toBe('connected')
  })

  it('a wallet rejection ends the flow with USER_REJECTED and clears the store', async () => {
    const wallet = createWalletSimulator({ walletSlug: 'phantom' })
    const store = jsonStore()
    const { connector, links } = connectorFor(store)
    const connecting = connector.connect().catch((error: unknown) => error)
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '', 'reject')
    const error = await connecting
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    expect(store.raw()).toBeNull()
  })

  describe('reload at every resumable state reaches the uninterrupted outcome', () => {
    it('awaitingWallet: reload before the wallet answers', async () => {
      const wallet = createWalletSimulator({ walletSlug: 'phantom' })
      const firstStore = jsonStore()
      const a = connectorFor(firstStore)
      void a.connector.connect().catch(() => {})
      await until(() => a.links.length === 1)
      expect(JSON.parse(firstStore.raw() ?? '{}').snapshot.value).toBe('awaitingWallet')

      const b = reload(a.connector, firstStore)
      await wallet.handle(a.links[0] ?? '')
      const resumed = await b.connector.resume()
      expect(resumed.status).toBe('connected')
      if (resumed.status !== 'connected') return
      expect(resumed.connection?.accounts).toEqual([wallet.address])
      expect(b.links).toEqual([]) // resuming does not reopen the wallet

      const signing = b.connector.request<{ publicKey: string }>({ method: 'solana_signMessage' })
      await until(() => b.links.length === 1)
      await wallet.handle(b.links[0] ?? '')
      expect((await signing).publicKey).toBe(wallet.address)
      expect((await resultOf(sessionIdOf(a.links[0] ?? ''))).status).toBe('signed')
      expect(JSON.parse(b.store.raw() ?? '{}').snapshot.value).toBe('connected')
    })

    it('connected: reload between connecting and signing', async () => {
      const wallet = createWalletSimulator({ walletSlug: 'phantom' })
      const store = jsonStore()
      const a = connectorFor(store)
      const connecting = a.connector.connect()
      await until(() => a.links.length === 1)
      await wallet.handle(a.links[0] ?? '')
      await connecting
      expect(JSON.parse(store.raw() ?? '{}').snapshot.value).toBe('connected')

      const b = reload(a.connector, store)
      const resumed = await b.connector.resume()
      expect(resumed.status).toBe('connected')
      if (resumed.status !== 'connected') return
      expect(await b.connector.connect()).toEqual(resumed.connection)
      expect(b.links).toEqual([])

      const signing = b.connector.request<{ publicKey: string }>({ method: 'solana_signMessage' })
      await until(() => b.links.length === 1)
      await wallet.handle(b.links[0] ?? '')
      await signing
      expect((await resultOf(sessionIdOf(a.links[0] ?? ''))).status).toBe('signed')
      expect(JSON.parse(b.store.raw() ?? '{}').snapshot.value).toBe('connected')
    })

    it('awaitingSignature: reload while the wallet signs', async () => {
      const wallet = createWalletSimulator({ walletSlug: 'phantom' })
      const store = jsonStore()
      const a = connectorFor(store)
      const connecting = a.connector.connect()
      await until(() => a.links.length === 1)
      await wallet.handle(a.links[0] ?? '')
      await connecting
      void a.connector.request({ method: 'solana_signMessage' }).catch(() => {})
      await until(() => a.links.length === 2)
      expect(JSON.parse(store.raw() ?? '{}').snapshot.value).toBe('awaitingSignature')

      const b = reload(a.connector, store)
      await wallet.handle(a.links[1] ?? '')
      const resumed = await b.connector.resume()
      expect(resumed.status).toBe('connected')
      if (resumed.status !== 'connected') return
      const result = await resultOf(sessionIdOf(a.links[0] ?? ''))
      expect(result.status).toBe('signed')
      expect(resumed.signature).toBe(result.signature)
      // Back to connected after the signature: the stored flow is the connected one.
      expect(JSON.parse(b.store.raw() ?? '{}').snapshot.value).toBe('connected')
    })
  })

  describe('records that must not be resumed start fresh', () => {
    async function storedRecord() {
      const store = jsonStore()
      const a = connectorFor(store)
      void a.connector.connect().catch(() => {})
      await until(() => a.links.length === 1)
      a.connector.getActor()?.stop()
      return JSON.parse(store.raw() ?? '{}') as UniversalLinkPersistedState & {
        snapshot: Record<string, unknown>
      }
    }

    it.each([
      ['corrupt JSON', () => '{"format": "scope-connect/universal-link", "snap'],
      [
        'another record schema',
        (r: UniversalLinkPersistedState) =>
          JSON.stringify({ ...r, fingerprint: 'universal-link@0' }),
      ],
      [
        'an expired record',
        (r: UniversalLinkPersistedState) => JSON.stringify({ ...r, expiresAt: Date.now() - 1 }),
      ],
      [
        'a snapshot in a non-resumable state',
        (r: UniversalLinkPersistedState & { snapshot: Record<string, unknown> }) =>
          JSON.stringify({ ...r, snapshot: { ...r.snapshot, value: 'creatingSession' } }),
      ],
      [
        'a snapshot without its session',
        (r: UniversalLinkPersistedState & { snapshot: Record<string, unknown> }) =>
          JSON.stringify({ ...r, snapshot: { ...r.snapshot, context: {} } }),
      ],
    ])('%s is discarded and cleared', async (_, corrupt) => {
      const raw = corrupt(await storedRecord())
      const store = jsonStore(raw)
      const safeStore: UniversalLinkStore = {
        save: store.save,
        clear: store.clear,
        // A real store answers null for values that do not parse (createBrowserUniversalLinkStore does).
        load: () => {
          try {
            return store.load()
          } catch {
            store.clear()
            return null
          }
        },
      }
      const { connector, links } = connectorFor(safeStore)
      const resumed = await connector.resume()
      expect(['discarded', 'none']).toContain(resumed.status)
      expect(store.raw()).toBeNull()
      expect(links).toEqual([])
      expect(connector.getActor()).toBeNull()
    })
  })
})
