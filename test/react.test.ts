// @vitest-environment happy-dom-node
import { act, createElement as h } from 'react'
import { describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientActor, toClientView } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import { useClientActor, useClientSelector, useClientView, useConnection } from '../src/react'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { DAPP_METADATA, WS, walletSimulator } from './relay/support/pairing-setup'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { useReactRoot } from './support/react-root'
import { textLinkStore } from './support/text-link-store'

// The React hooks in a DOM (happy-dom) with react-dom, against a real Client: desktop wallets
// on viem keys and anvil, and the universal-link flow against the real server and the reference
// wallet simulator. The page's text is what the components rendered from the hooks.

const backend = useBackendWithAnvil()

/** Renders of each component, to tell which hook made React render again. */
interface Renders {
  view: number
  connection: number
  address: number
  actors: ClientActor[]
}

/** The page: one component per hook, each with its own text node. */
function Page({ client, renders }: { client: Client; renders: Renders }) {
  return h(
    'main',
    null,
    h(ViewLine, { client, renders }),
    h(ConnectionLine, { client, renders }),
    h(AddressLine, { client, renders }),
    h(RootLine, { client, renders }),
  )
}

function ViewLine({ client, renders }: { client: Client; renders: Renders }) {
  const view = useClientView(client)
  renders.view++
  return h('p', { id: 'view' }, `${view.status} ${view.walletId ?? '-'} ${view.error?.code ?? '-'}`)
}

function ConnectionLine({ client, renders }: { client: Client; renders: Renders }) {
  const connection = useConnection(client)
  renders.connection++
  return h(
    'p',
    { id: 'connection' },
    connection ? `${connection.walletId} ${connection.accounts[0]}` : 'none',
  )
}

/** Selects the address alone: renders only when it changes. */
function AddressLine({ client, renders }: { client: Client; renders: Renders }) {
  const address = useClientSelector(client, (snapshot) => toClientView(snapshot).address)
  renders.address++
  return h('p', { id: 'address' }, address ?? '-')
}

/** The root actor in use and the status selected from it. */
function RootLine({ client, renders }: { client: Client; renders: Renders }) {
  const actor = useClientActor(client)
  const status = useClientSelector(client, (snapshot) => toClientView(snapshot).status)
  if (renders.actors.at(-1) !== actor) renders.actors.push(actor)
  return h('p', { id: 'root' }, status)
}

const { mount, text } = useReactRoot()

function render(client: Client): Renders {
  const renders: Renders = { view: 0, connection: 0, address: 0, actors: [] }
  mount(h(Page, { client, renders }))
  return renders
}

/** Lets the client's asynchronous work and React's updates run until `condition` holds. */
async function until(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)))
  }
  expect(condition()).toBe(true)
}

/** A real test wallet whose user can take their time: `hold()` leaves its requests unanswered. */
async function walletOf(): Promise<{
  wallet: TestEip1193Wallet
  provider: TestEip1193Wallet
  hold(): void
  release(): void
}> {
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
    provider,
    hold: () => {
      holding = true
    },
    release: () => {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
  }
}

describe('scope-connect/react against a real Client (happy-dom, react-dom)', () => {
  it('follows a desktop connection, selectWallet replacing the connect actor, cancel and disconnect', async () => {
    const metamask = await walletOf()
    const rabby = await walletOf()
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: false,
      connectors: [
        new Eip1193Connector('metamask', () => metamask.provider),
        new Eip1193Connector('rabby', () => rabby.provider),
      ],
    })
    const renders = render(client)
    expect(text('view')).toBe('idle - -')
    expect(text('connection')).toBe('none')
    expect(text('root')).toBe('idle')
    expect(text('address')).toBe('-')

    const first = metamask.wallet.accounts[0]?.address as string
    await act(async () => {
      await client.selectWallet('metamask', { namespace: 'eip155' })
      await client.connect()
    })
    const firstActor = client.connectActor
    expect(text('view')).toBe('connected metamask -')
    expect(text('connection')).toBe(`metamask ${first}`)
    expect(text('root')).toBe('connected')
    expect(text('address')).toBe(first)

    // Another wallet: the client replaces its `connect` child; nothing of metamask stays on screen.
    await act(async () => {
      await client.selectWallet('rabby', { namespace: 'eip155' })
    })
    expect(client.connectActor).not.toBe(firstActor)
    expect(text('view')).toBe('disconnected rabby -')
    expect(text('connection')).toBe('none')
    expect(text('root')).toBe('disconnected')
    expect(text('address')).toBe('-')

    // The user takes their time in rabby, then the dApp cancels.
    rabby.hold()
    let connecting: Promise<unknown> = Promise.resolve()
    await act(async () => {
      connecting = client.connect().catch((error: unknown) => error)
    })
    await until(() => text('view').startsWith('connecting'))
    expect(text('root')).toBe('connecting')
    expect(text('address')).toBe('-')
    await act(async () => {
      client.cancel()
      expect(isAppError(await connecting, 'ABORTED')).toBe(true)
    })
    expect(text('view')).toBe('disconnected rabby ABORTED')
    expect(text('connection')).toBe('none')

    rabby.release()
    const second = rabby.wallet.accounts[0]?.address as string
    expect(second).not.toBe(first)
    await act(async () => {
      await client.connect()
    })
    expect(text('view')).toBe('connected rabby -')
    expect(text('connection')).toBe(`rabby ${second}`)
    expect(text('root')).toBe('connected')
    expect(text('address')).toBe(second)

    // A signature changes the view (signing, then connected) but neither the connection nor the
    // selected address: only the view's component renders again.
    const before = { ...renders }
    const statuses: string[] = []
    const unsubscribe = client.subscribe((view) => statuses.push(view.status))
    await act(async () => {
      await client.signMessage('hello')
    })
    unsubscribe()
    expect(statuses).toContain('signing')
    expect(renders.view).toBeGreaterThan(before.view)
    expect(renders.connection).toBe(before.connection)
    expect(renders.address).toBe(before.address)

    // The wallet switches account: every hook that shows the address follows.
    const other = rabby.wallet.accounts[1]?.address as string
    act(() => rabby.wallet.switchAccount(other as `0x${string}`))
    await until(() => text('address') === other)
    expect(text('connection')).toBe(`rabby ${other}`)

    await act(async () => {
      await client.disconnect()
    })
    expect(text('view')).toBe('disconnected rabby -')
    expect(text('connection')).toBe('none')
    expect(text('root')).toBe('disconnected')
    expect(text('address')).toBe('-')
    expect(renders.actors).toEqual([client.actor]) // one root actor all along
  })

  it('follows resume() replacing the root actor, then the wallet answering', async () => {
    const store = textLinkStore()
    const links: string[] = []
    const options = {
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      universalLink: {
        store,
        openLink: (url: string) => links.push(url),
        returnUrl: 'https://dapp.example/',
        pollIntervalMs: 20,
      },
    } as const
    const before = new Client(options)
    await before.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    void before.connect().catch(() => {})
    await until(() => links.length === 1 && store.value !== null)
    before.actor.stop() // the page goes away

    const client = new Client(options)
    const renders = render(client)
    const firstRoot = client.actor
    expect(text('root')).toBe('idle')
    expect(text('address')).toBe('-')

    await act(async () => {
      expect((await client.resume()).status).toBe('awaitingWallet')
    })
    expect(client.actor).not.toBe(firstRoot)
    expect(renders.actors).toEqual([firstRoot, client.actor])
    expect(text('view')).toBe(`awaitingWallet ${TEST_PARTNER_WALLET_ID} -`)
    expect(text('root')).toBe('awaitingWallet')
    expect(text('address')).toBe('-')
    expect(text('connection')).toBe('none')

    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    await act(async () => {
      await wallet.handle(links[0] ?? '')
    })
    await until(() => text('address') === wallet.address)
    expect(text('root')).toBe('connected')
    expect(text('view')).toBe(`connected ${TEST_PARTNER_WALLET_ID} -`)
    expect(text('connection')).toBe(`${TEST_PARTNER_WALLET_ID} ${wallet.address}`)

    await act(async () => {
      await client.disconnect()
    })
    expect(text('connection')).toBe('none')
    expect(text('address')).not.toContain(wallet.address)
  })

  it('follows a relay pairing: the URI while pairing, then the paired account, then disconnect', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      WebSocket: WS,
    })
    const renders = render(client)
    let uri = ''
    await act(async () => {
      uri = (await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })).uri ?? ''
    })
    expect(uri).toMatch(/^scope:.*relay-protocol=scr/)
    await until(() => text('root') === 'pairing')
    expect(text('connection')).toBe('none')

    const wallet = walletSimulator(backend.server)
    try {
      await act(async () => {
        await wallet.pairAndApprove(uri)
      })
      await until(() => text('address') === wallet.evm.address)
      expect(text('root')).toBe('connected')
      expect(text('connection')).toBe(`undefined ${wallet.evm.address}`)
      expect(renders.actors).toEqual([client.actor])
      await act(async () => {
        await client.disconnect()
      })
      expect(text('connection')).toBe('none')
      expect(text('address')).toBe('-')
    } finally {
      await wallet.close()
    }
  })

  it('a component given a new client follows that one', async () => {
    const first = await walletOf()
    const second = await walletOf()
    const clientOf = (provider: TestEip1193Wallet) =>
      new Client({
        baseUrl: backend.server.baseUrl,
        appKey: backend.server.appKey,
        mobile: false,
        connectors: [new Eip1193Connector('metamask', () => provider)],
      })
    const a = clientOf(first.provider)
    const b = clientOf(second.provider)
    const renders = render(a)
    await act(async () => {
      await a.connect()
      await b.connect()
    })
    const address = (wallet: TestEip1193Wallet) => wallet.accounts[0]?.address as string
    expect(text('connection')).toBe(`metamask ${address(first.wallet)}`)
    mount(h(Page, { client: b, renders }))
    expect(text('connection')).toBe(`metamask ${address(second.wallet)}`)
    expect(text('root')).toBe('connected')
    expect(text('address')).toBe(address(second.wallet))
    await act(async () => {
      await a.disconnect()
    })
    expect(text('connection')).toBe(`metamask ${address(second.wallet)}`)
  })
})
