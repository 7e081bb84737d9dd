// Issue 15: one failed read stopped the root actor for good; reads left their actors (and a bigint
// output) behind, so the mobile flow's record could not be saved. Every case goes through the
// public API against the real server and anvil, and ends with the next call succeeding.
import type { PartnerWalletEntry } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../../examples/wallet-simulator/src/index'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { isAppError } from '../../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../../src/testing'
import { createMemoryUniversalLinkStore } from '../../src/universal-link'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'

const anvil = sharedAnvil()
let server: TestServer
const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

beforeAll(async () => {
  server = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks: [{ chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl }, { chainId: SOLANA_DEVNET }],
          partnerWallets: [structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry],
        },
      ],
    },
  })
})
afterAll(async () => {
  await server?.close()
})

async function desktopClient(options: { appKey?: string; baseUrl?: string } = {}) {
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  const client = new Client({
    baseUrl: options.baseUrl ?? server.baseUrl,
    appKey: options.appKey ?? server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
  })
  return { client, wallet }
}

/** The root actor's children whose id starts with `read`. */
function readChildren(client: Client): string[] {
  const children = client.actor.getSnapshot().children as Record<string, unknown>
  return Object.keys(children).filter((id) => id.startsWith('read'))
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<Error> {
  const error = await promise.then(
    () => {
      throw new Error(`expected ${code}, got a value`)
    },
    (e: unknown) => e,
  )
  expect(isAppError(error), String(error)).toBe(true)
  expect((error as { code: string }).code).toBe(code)
  return error as Error
}

/** The next calls work: a wallet connects and a balance reads. */
async function expectUsable(client: Client): Promise<void> {
  await client.selectWallet('metamask', { namespace: 'eip155' })
  expect(client.actor.getSnapshot().status).toBe('active')
  const connection = await client.connect()
  expect(connection.accounts.length).toBeGreaterThan(0)
  expect(client.getView().status).toBe('connected')
}

describe('issue 15: a failed read rejects its own promise and nothing else', () => {
  it('error: a balance on a chain the project does not enable (403), then connect works', async () => {
    const { client } = await desktopClient()
    await expectCode(
      client.getBalance({ chainId: 'eip155:1', tokenAddress: 'native', account }),
      'UNSUPPORTED_CHAIN',
    )
    await expectUsable(client)
    const balance = await client.getBalance({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account,
    })
    expect(balance.raw).toBeGreaterThan(0n)
  })

  it('error: loadConfig with a wrong app key (401) names appKey; the client stays usable', async () => {
    const { client } = await desktopClient({ appKey: 'not-the-app-key' })
    const error = await expectCode(client.loadConfig(), 'RPC_ERROR')
    expect(error).toMatchObject({ status: 401, backendCode: 'INVALID_APP_KEY' })
    expect(error.message).toMatch(/appKey option/)
    expect(error.message).not.toMatch(/not-the-app-key/)
    await expectUsable(client)
    await expectCode(client.loadConfig(), 'RPC_ERROR')
  })

  it('error: the backend down names baseUrl; the client stays usable', async () => {
    const { client } = await desktopClient({ baseUrl: 'http://127.0.0.1:9' })
    const error = await expectCode(client.loadConfig(), 'RPC_ERROR')
    expect(error.message).toMatch(/baseUrl http:\/\/127\.0\.0\.1:9/)
    await expectCode(
      client.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account }),
      'RPC_ERROR',
    )
    await expectUsable(client)
  })

  it('behavior: reads leave no child behind once settled, failed or not', async () => {
    const { client } = await desktopClient()
    const reads = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? client.loadConfig()
        : client.getBalance({ chainId: 'eip155:1', tokenAddress: 'native', account }),
    )
    await Promise.allSettled(reads)
    expect(readChildren(client)).toEqual([])
    expect(client.actor.getSnapshot().status).toBe('active')
  })
})

describe('issue 15: a root that stops anyway is no wedge', () => {
  it('behavior: the view says stopped, and the next call starts a fresh root', async () => {
    const { client } = await desktopClient()
    const views: string[] = []
    client.subscribe((view) => views.push(view.status))
    const first = client.actor
    first.stop()
    expect(client.getView()).toMatchObject({ status: 'stopped', isConnected: false })
    await expectUsable(client)
    expect(client.actor).not.toBe(first)
    expect(views.at(-1)).toBe('connected')
  })

  it('error: a wallet answering garbage to eth_requestAccounts ends the connect flow, not the root', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const connector = new Eip1193Connector('metamask', () => wallet)
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      connectors: [connector],
      mobile: false,
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    // The wallet answers eth_requestAccounts with something no connector expects.
    const request = wallet.request.bind(wallet)
    wallet.request = (async (args: { method: string }) => {
      if (args.method === 'eth_requestAccounts') return 'not an array'
      return request(args as never)
    }) as typeof wallet.request
    await client.connect().catch(() => undefined)
    expect(client.actor.getSnapshot().status).toBe('active')
    wallet.request = request
    expect((await client.connect()).accounts.length).toBeGreaterThan(0)
  })
})

/**
 * A page that opens the universal link of the test kit's partner wallet (not yet answered) and goes away:
 * only its store survives. `readFirst` reads a balance before selecting the wallet.
 */
async function leaveMobileFlow(options: { readFirst?: boolean } = {}) {
  const store = createMemoryUniversalLinkStore()
  const links: string[] = []
  const clientOptions = {
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    mobile: true,
    solanaChainId: SOLANA_DEVNET,
    partnerWallets: [TEST_PARTNER_WALLET],
    universalLink: {
      store,
      openLink: (url: string) => links.push(url),
      returnUrl: 'https://dapp.example/',
      pollIntervalMs: 20,
    },
  } as const
  const before = new Client(clientOptions)
  if (options.readFirst)
    await before.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account })
  await before.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
  void before.connect().catch(() => {})
  for (let i = 0; i < 200 && links.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
  before.actor.stop()
  const record = store.load()
  expect(record).not.toBeNull()
  return { options: clientOptions, store, links, record }
}

describe('issue 15: the mobile flow survives a balance read made before it', () => {
  it('behavior: read a balance, start the universal link, reload: resume is awaitingWallet', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { options, links, record } = await leaveMobileFlow({ readFirst: true })
    // JSON-safe, and only what the flow needs: the universal-link child, no read.
    expect(JSON.parse(JSON.stringify(record))).toEqual(record)
    const snapshot = record?.snapshot as { children?: Record<string, unknown> } | undefined
    expect(Object.keys(snapshot?.children ?? {})).toEqual(['universalLink'])

    await wallet.handle(links[0] ?? '')
    const after = new Client(options)
    const resumed = await after.resume()
    expect(resumed.status).toBe('awaitingWallet')
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
  })
})

describe('issue 15: a record whose child is not active is discarded', () => {
  /** A real pending universal-link record, as the page left it (a copy to break). */
  async function pendingRecord() {
    const { options, store, record } = await leaveMobileFlow()
    return { options, store, record: JSON.parse(JSON.stringify(record)) }
  }

  type Child = { snapshot: { status: string; value: unknown; children?: Record<string, Child> } }
  const link = (record: { snapshot: unknown }) =>
    (record.snapshot as { children: Record<string, Child> }).children.universalLink as Child
  const breakages: Array<[string, (record: { snapshot: unknown }) => void]> = [
    ['errored', (r) => Object.assign(link(r).snapshot, { status: 'error', error: 'boom' })],
    ['stopped', (r) => Object.assign(link(r).snapshot, { status: 'stopped' })],
    ['done', (r) => Object.assign(link(r).snapshot, { status: 'done', output: null })],
    ['in an unknown state', (r) => Object.assign(link(r).snapshot, { value: 'noSuchState' })],
    [
      'with an errored grandchild (the poller)',
      (r) => {
        const poll = link(r).snapshot.children?.poll as Child
        Object.assign(poll.snapshot, { status: 'error', error: 'boom' })
      },
    ],
  ]

  for (const [kind, breakIt] of breakages) {
    it(`error: a child ${kind} → discarded with its reason, the store cleared`, async () => {
      const { options, store, record } = await pendingRecord()
      breakIt(record)
      store.save(record)
      const client = new Client(options)
      const resumed = await client.resume()
      expect(resumed.status).toBe('discarded')
      if (resumed.status === 'discarded') expect(resumed.reason.length).toBeGreaterThan(10)
      expect(store.load()).toBeNull()
      expect(client.getView().status).toBe('idle')
      expect(client.actor.getSnapshot().status).toBe('active')
    })
  }
})
