import { ed25519 } from '@noble/curves/ed25519.js'
import { base64 } from '@scure/base'
import { getWallets } from '@wallet-standard/app'
import { type Hex, verifyMessage } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import type { InspectionEvent } from 'xstate'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import type { ClientView } from '../machines/client/client.view'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { SolanaInjectedConnector } from '../src/connectors/solana-injected'
import { isAppError } from '../src/errors'
import { setConsoleLogging } from '../src/logging'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import type { UniversalLinkPersistedState } from '../src/universal-link/persisted-state'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { textLinkStore } from './support/text-link-store'
import { createTestSolanaWallet } from './support/wallet-standard-wallet'

// The Client's root actor against real parts: anvil and a viem-keyed EIP-1193 wallet on desktop,
// the real server and the reference wallet simulator (real ed25519 key) over universal links.

const backend = useBackendWithAnvil()

/** The real test wallet, whose user can take their time: `hold()` leaves the next requests unanswered. */
async function slowWallet() {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  let holding = false
  const held: Array<() => void> = []
  const provider: TestEip1193Wallet = Object.create(wallet, {
    request: {
      value: (args: Parameters<TestEip1193Wallet['request']>[0]) =>
        holding
          ? new Promise((resolve, reject) =>
              held.push(() => wallet.request(args).then(resolve, reject)),
            )
          : wallet.request(args),
    },
  })
  return {
    wallet,
    connector: new Eip1193Connector('metamask', () => provider),
    hold: () => {
      holding = true
    },
    release: () => {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
  }
}

function desktopClient(connector: Eip1193Connector, extra: Partial<ClientOptions> = {}) {
  return new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [connector],
    mobile: false,
    ...extra,
  })
}

/** A mobile client on the real server; `requests` counts every HTTP request it makes. */
function mobileClient(store = textLinkStore(), extra: Partial<ClientOptions> = {}) {
  const links: string[] = []
  const requests: string[] = []
  const options: ClientOptions = {
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: true,
    // The sc* universal links are a partner wallet's protocol (no built-in brand declares them).
    partnerWallets: [TEST_PARTNER_WALLET],
    solanaChainId: SOLANA_DEVNET,
    fetchImpl: (input, init) => {
      requests.push(String(input instanceof Request ? input.url : input))
      return fetch(input, init)
    },
    universalLink: {
      store,
      openLink: (url: string) => links.push(url),
      returnUrl: 'https://dapp.example/',
      pollIntervalMs: 20,
    },
    ...extra,
  }
  return { client: new Client(options), links, requests, store, options }
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}
const settle = <T>(promise: Promise<T>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  )
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('cancel() ends every pending flow with ABORTED', () => {
  it('desktop connect: the wallet never answers; cancel rejects at once and the client can connect again', async () => {
    const { connector, hold, release, wallet } = await slowWallet()
    const client = desktopClient(connector)
    await client.selectWallet('metamask', { namespace: 'eip155' })
    hold()
    const connecting = settle(client.connect())
    await until(() => client.getView().status === 'connecting')
    expect(client.getView()).toMatchObject({ canCancel: true, isBusy: true })
    // The wallet is held: the rejection cannot have waited for it (latency: docs/client.md).
    client.cancel()
    const error = await connecting
    expect(isAppError(error, 'ABORTED')).toBe(true)
    expect(client.getView()).toMatchObject({ status: 'disconnected', canCancel: false })
    expect(client.getView().error?.code).toBe('ABORTED')
    release()
    const connection = await client.connect()
    expect(connection.accounts[0]?.toLowerCase()).toBe(wallet.accounts[0]?.address.toLowerCase())
  })

  it('desktop signature: cancel rejects the pending signMessage and keeps the connection', async () => {
    const { connector, hold, release, wallet } = await slowWallet()
    const client = desktopClient(connector)
    await client.connect()
    hold()
    const signing = settle(client.signMessage('hello'))
    await until(() => client.getView().status === 'signing')
    client.cancel()
    expect(isAppError(await signing, 'ABORTED')).toBe(true)
    expect(client.getView()).toMatchObject({ status: 'connected', isConnected: true })
    release()
    const signature = (await client.signMessage('hello again')) as Hex
    const address = wallet.accounts[0]?.address as Hex
    expect(await verifyMessage({ address, message: 'hello again', signature })).toBe(true)
  })

  it('connect() while a wallet is being selected connects that wallet', async () => {
    const { connector } = await slowWallet()
    const client = desktopClient(connector)
    const selecting = client.selectWallet('metamask', { namespace: 'eip155' })
    const connection = await client.connect()
    expect(await selecting).toBe(connector)
    expect(connection.connectorId).toBe('metamask')
  })

  it('selecting a wallet: cancel while its connector loads', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: false,
    })
    const selecting = settle(client.selectWallet('phantom', { namespace: 'solana' }))
    expect(client.getView().status).toBe('selecting')
    client.cancel()
    expect(isAppError(await selecting, 'ABORTED')).toBe(true)
    expect(client.getView().status).toBe('idle')
  })

  it('a named timeout ends a connection the wallet never answers (walletAnswerMs)', async () => {
    const { connector, hold } = await slowWallet()
    const client = desktopClient(connector, { timeouts: { walletAnswerMs: 80 } })
    hold()
    const t0 = performance.now()
    const error = await settle(client.connect())
    expect(isAppError(error, 'TIMEOUT')).toBe(true)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(75)
    expect(client.getView()).toMatchObject({ status: 'disconnected', canRetry: true })
  })

  it('universal link awaiting the wallet: cancel rejects, clears the store, and nothing is sent after', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { client, links, requests, store } = mobileClient()
    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = settle(client.connect())
    await until(() => links.length === 1 && store.value !== null)
    await until(() => client.getView().status === 'awaitingWallet')
    expect(client.getView().walletUrl).toBe(links[0])
    // The wallet is held: the rejection cannot have waited for it (latency: docs/client.md).
    client.cancel()
    const error = await connecting
    expect(isAppError(error, 'ABORTED')).toBe(true)
    expect(store.value).toBeNull()
    const sent = requests.length
    // The wallet acts anyway: the page does not connect, and polls no more.
    await wallet.handle(links[0] ?? '')
    await sleep(150)
    expect(requests.length).toBe(sent)
    expect(client.getView()).toMatchObject({ status: 'disconnected', isConnected: false })
    expect(client.getConnection()).toBeNull()
  })

  it('universal link awaiting a signature: disconnect() rejects it with ABORTED and clears the store', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { client, links, requests, store } = mobileClient()
    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = client.connect()
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '')
    await connecting
    const signing = settle(client.signMessage('x'))
    await until(() => links.length === 2)
    expect(client.getView().status).toBe('awaitingSignature')
    await client.disconnect()
    expect(isAppError(await signing, 'ABORTED')).toBe(true)
    expect(store.value).toBeNull()
    const sent = requests.length
    await sleep(100)
    expect(requests.length).toBe(sent)
    expect(client.getView().status).toBe('disconnected')
  })
})

describe('signTransaction through the sign machine', () => {
  it('a Wallet Standard wallet signs a real transaction; the answer comes back whole', async () => {
    const phantom = createTestSolanaWallet({ name: 'Phantom' })
    const unregister = getWallets().register(phantom.wallet)
    try {
      const connector = new SolanaInjectedConnector({ walletId: 'phantom', chainId: SOLANA_DEVNET })
      const client = new Client({
        baseUrl: backend.server.baseUrl,
        appKey: backend.server.appKey,
        connectors: [connector],
        mobile: false,
      })
      await client.connect()
      // A legacy transaction with one instruction and the wallet's key as its only signer.
      const message = Uint8Array.from([
        ...[1, 0, 1],
        2,
        ...phantom.key.publicKey,
        ...new Uint8Array(32),
        ...crypto.getRandomValues(new Uint8Array(32)),
        ...[1, 1, 1, 0, 0],
      ])
      const unsigned = Uint8Array.from([1, ...new Uint8Array(64), ...message])
      const states: string[] = []
      client.subscribe((view) => states.push(view.status))
      const { signedTransaction } = await client.signTransaction<{ signedTransaction: string }>(
        base64.encode(unsigned),
      )
      expect(states).toContain('signing')
      const signed = base64.decode(signedTransaction)
      expect(signed.subarray(65)).toEqual(message)
      expect(ed25519.verify(signed.subarray(1, 65), message, phantom.key.publicKey)).toBe(true)
      expect(client.getView().status).toBe('connected')
    } finally {
      unregister()
    }
  })
})

describe('universal link through the Client', () => {
  it('two signatures in a row against the real server: the flow returns to connected', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { client, links } = mobileClient()
    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = client.connect()
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '')
    expect((await connecting).accounts).toEqual([wallet.address])

    const first = client.signMessage('one')
    await until(() => links.length === 2)
    await wallet.handle(links[1] ?? '')
    const firstSignature = await first
    expect(client.getView()).toMatchObject({ status: 'connected', canSign: true })

    const second = client.signMessage('two')
    await until(() => links.length === 3)
    expect(new URL(links[2] ?? '').searchParams.get('scMethod')).toBe('connect')
    await wallet.handle(links[2] ?? '')
    await until(() => links.length === 4)
    expect(new URL(links[3] ?? '').searchParams.get('scMethod')).toBe('signMessage')
    await wallet.handle(links[3] ?? '')
    const secondSignature = await second
    expect(secondSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect(secondSignature).not.toBe(firstSignature)
    expect(client.getView().status).toBe('connected')
  })

  it('behavior: the root learns the link before the wallet opens, to connect and to sign', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const known: boolean[] = []
    const links: string[] = []
    const { options } = mobileClient()
    const opening = new Client({
      ...options,
      universalLink: {
        ...options.universalLink,
        // When the wallet opens, the view already shows its link (a UI's "open again" button).
        openLink: (url: string) => {
          known.push(opening.getView().walletUrl === url)
          links.push(url)
        },
      },
    })
    await opening.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = opening.connect()
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '')
    await connecting
    // The signature is asked within the root's own step: the link still reaches it first.
    const signing = opening.signMessage('one')
    await until(() => links.length === 2)
    await wallet.handle(links[1] ?? '')
    await signing
    expect(known).toEqual([true, true])
  })

  it('error: a wallet link that fails to open is logged, and the flow goes on waiting for the wallet', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    setConsoleLogging(true)
    try {
      const links: string[] = []
      const { options } = mobileClient()
      const client = new Client({
        ...options,
        universalLink: {
          ...options.universalLink,
          openLink: (url: string) => {
            links.push(url)
            throw new Error('the browser blocked the link')
          },
        },
      })
      await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
      const connecting = client.connect()
      await until(() => links.length === 1 && client.getView().status === 'awaitingWallet')
      expect(client.getView().walletUrl).toBe(links[0])
      expect(warnings).toHaveBeenCalledWith(
        '[scope-connect:client] opening the wallet link failed',
        expect.objectContaining({ message: 'the browser blocked the link' }),
      )
      // Opened by hand (the view's link), the wallet answers and the flow connects.
      await wallet.handle(links[0] ?? '')
      expect((await connecting).accounts).toEqual([wallet.address])
    } finally {
      setConsoleLogging(false)
      warnings.mockRestore()
    }
  })

  it('resume() returns at once while the wallet has not answered; wait() settles when it does', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const before = mobileClient()
    await before.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    void before.client.connect().catch(() => {})
    await until(() => before.links.length === 1 && before.store.value !== null)
    before.client.actor.stop() // the page goes away

    const after = mobileClient(before.store)
    const views: ClientView['status'][] = []
    after.client.subscribe((view) => views.push(view.status))
    // resume() settles although the wallet has not acted yet (it acts below).
    const resumed = await after.client.resume()
    expect(resumed.status).toBe('awaitingWallet')
    expect(after.client.getView().status).toBe('awaitingWallet')
    // subscribe() followed the replaced root actor.
    expect(views.at(-1)).toBe('awaitingWallet')
    await wallet.handle(before.links[0] ?? '')
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
    expect(views.at(-1)).toBe('connected')
    expect(after.links).toEqual([]) // resuming does not reopen the wallet
  })

  it('the deep-restored poller keeps its attempts and deadline', async () => {
    const before = mobileClient()
    await before.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    void before.client.connect().catch(() => {})
    type Poll = { context: { attempts: number; deadline: number } }
    const pollOf = (state: UniversalLinkPersistedState | null) =>
      (
        state?.snapshot as {
          children: { universalLink: { snapshot: { children: { poll: { snapshot: Poll } } } } }
        }
      )?.children.universalLink.snapshot.children.poll.snapshot
    await until(() => (pollOf(before.store.load())?.context.attempts ?? 0) >= 3)
    before.client.actor.stop()
    const saved = pollOf(before.store.load()) as Poll

    const after = mobileClient(before.store)
    const resumed = await after.client.resume()
    expect(resumed.status).toBe('awaitingWallet')
    const poller = pollOf(after.store.load()) as Poll
    expect(poller.context.deadline).toBe(saved.context.deadline)
    expect(poller.context.attempts).toBeGreaterThanOrEqual(saved.context.attempts)
    await after.client.disconnect()
  })
})

describe('restore never hangs and never throws', () => {
  async function savedRecord() {
    const before = mobileClient()
    await before.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    void before.client.connect().catch(() => {})
    await until(() => before.store.value !== null)
    before.client.actor.stop()
    return JSON.parse(before.store.value ?? '{}') as UniversalLinkPersistedState & {
      snapshot: {
        value: unknown
        context: Record<string, unknown>
        children: Record<string, unknown>
      }
    }
  }

  type Changed = Awaited<ReturnType<typeof savedRecord>>
  const cases: Array<[string, (r: Changed) => unknown]> = [
    ['another record schema', (r) => ({ ...r, fingerprint: 'client.link@0' })],
    [
      'a renamed state',
      (r) => ({ ...r, snapshot: { ...r.snapshot, value: { link: { flaw: 'connecting' } } } }),
    ],
    [
      'a renamed invoke id',
      (r) => ({
        ...r,
        snapshot: { ...r.snapshot, children: { ul: r.snapshot.children.universalLink } },
      }),
    ],
    [
      'a context field added',
      (r) => ({ ...r, snapshot: { ...r.snapshot, context: { ...r.snapshot.context, extra: 1 } } }),
    ],
    ['a context field removed', (r) => ({ ...r, snapshot: { ...r.snapshot, context: {} } })],
    ['an expired record', (r) => ({ ...r, expiresAt: Date.now() - 1 })],
    ['a non-resumable state', (r) => ({ ...r, snapshot: { ...r.snapshot, value: 'idle' } })],
    ['no envelope', () => ({ hello: 'world' })],
  ]

  it.each(cases)(
    '%s: discarded with a reason, store cleared, nothing started',
    async (_, change) => {
      const record = change(await savedRecord())
      const store = textLinkStore()
      store.value = JSON.stringify(record)
      const { client, requests, links } = mobileClient(store)
      const resumed = await client.resume()
      expect(resumed.status).toBe('discarded')
      expect(resumed.status === 'discarded' && resumed.reason.length).toBeGreaterThan(5)
      expect(await resumed.wait()).toBeNull()
      expect(store.value).toBeNull()
      expect(client.getView().status).toBe('idle')
      await sleep(60)
      expect(requests).toEqual([])
      expect(links).toEqual([])
    },
  )

  it('a record of another definition is migrated by a registered migration', async () => {
    const record = await savedRecord()
    const store = textLinkStore()
    store.value = JSON.stringify({ ...record, fingerprint: 'old-definition' })
    let migrated = 0
    const { client } = mobileClient(store, {
      universalLink: {
        store,
        openLink: () => {},
        pollIntervalMs: 20,
        migrations: {
          'old-definition': (old) => {
            migrated += 1
            return old
          },
        },
      },
    })
    const resumed = await client.resume()
    expect(migrated).toBe(1)
    expect(resumed.status).toBe('awaitingWallet')
    await client.disconnect()
    expect(store.value).toBeNull()
  })
})

describe('inspection: one observer sees the whole system, and no secret', () => {
  it('sees the root, connect/sign or universal-link and polling actors; no session token or signature', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const events: InspectionEvent[] = []
    const seen: string[] = []
    const { client, links, store } = mobileClient(textLinkStore(), {
      inspect: (event) => {
        events.push(event)
        // What an inspector does: serialise the event and read the actor's snapshot.
        seen.push(JSON.stringify({ ...event, actorRef: undefined, sourceRef: undefined }))
        try {
          seen.push(JSON.stringify(event.actorRef.getSnapshot()))
        } catch {
          // the actor is still initialising (its first `@xstate.actor` event)
        }
      },
    })
    // The redaction loads on demand: the root's first events, raised in the constructor, wait
    // for it and arrive first, in order.
    await until(() => events.length >= 3)
    expect(
      events
        .slice(0, 3)
        .map((e) => [e.type, e.actorRef.sessionId, 'event' in e ? e.event.type : null]),
    ).toEqual([
      ['@xstate.actor', client.actor.sessionId, null],
      ['@xstate.event', client.actor.sessionId, 'xstate.init'],
      ['@xstate.snapshot', client.actor.sessionId, 'xstate.init'],
    ])
    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = client.connect()
    await until(() => links.length === 1)
    const token = Object.values(JSON.parse(store.value ?? '{}').tokens ?? {})[0] as string
    expect(token.length).toBeGreaterThan(20)
    await wallet.handle(links[0] ?? '')
    await connecting
    const signing = client.signMessage('x')
    await until(() => links.length === 2)
    await wallet.handle(links[1] ?? '')
    const signature = await signing
    await client.loadConfig()

    const text = seen.join('\n')
    expect(text).not.toContain(token)
    expect(text).not.toContain(signature)
    expect(text).toContain('[redacted]')
    const actors = new Set(
      events
        .filter((e) => e.type === '@xstate.actor')
        .map((e) => (e.actorRef as { id?: string }).id),
    )
    for (const id of ['loadConnector', 'universalLink', 'createSession', 'poll', 'fetchResult'])
      expect(actors).toContain(id)
    expect([...actors].some((id) => /^(config|read)\.\d+$/.test(id ?? ''))).toBe(true)
  })
})
