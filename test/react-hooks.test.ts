// @vitest-environment happy-dom-node
import { createServer } from 'node:net'
import { act, createElement as h, type ReactNode, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import {
  ClientProvider,
  useBalance,
  useClient,
  useConnect,
  useConnection,
  useSignMessage,
  useSwitchChain,
} from '../src/react'
import { type RunningAnvil, startAnvil } from './support/anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { useReactRoot } from './support/react-root'

// The hooks issue 18 asks for (ClientProvider, useClient, useConnect, useSignMessage, useBalance,
// useSwitchChain) rendered with react-dom in happy-dom against a real Client, the real server and
// anvil; each happy path with its failure twin, after which the next call succeeds.

let anvil: RunningAnvil
let server: TestServer
/** A backend that is down: a port nothing listens on (connection refused). */
let deadBaseUrl: string

beforeAll(async () => {
  anvil = await startAnvil()
  server = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          // anvil mines on demand, so no block time is measurable: with blockTimeMs 0 the backend
          // asks the block number on every read, and a refetch on a new block sees that block.
          networks: [{ chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl, blockTimeMs: 0 }],
        },
      ],
    },
  })
  const probe = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => probe.once('listening', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  deadBaseUrl = `http://127.0.0.1:${port}`
})
afterAll(async () => {
  await server?.close()
  await anvil?.stop()
})

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

/** Sets an account's balance on anvil, optionally mining a block after it. */
async function fund(address: string, wei: bigint, mine = false): Promise<void> {
  await rpc('anvil_setBalance', [address, `0x${wei.toString(16)}`])
  if (mine) await rpc('evm_mine')
}

/** The backend as the client reaches it: counts balance reads, and can be taken down. */
function backend() {
  const state = { down: false, balanceReads: 0 }
  const fetchImpl: typeof fetch = (input, init) => {
    const request = new Request(input, init)
    if (request.url.includes('/balances')) state.balanceReads++
    if (!state.down) return fetch(request)
    return fetch(new Request(request.url.replace(server.baseUrl, deadBaseUrl), request))
  }
  return { state, fetchImpl }
}

async function setup(options: Partial<ClientOptions> = {}) {
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl, extraChains: [1] })
  const { state, fetchImpl } = backend()
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    mobile: false,
    fetchImpl,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    ...options,
  })
  return { wallet, client, backend: state }
}

const { mount, text } = useReactRoot()
const render = (client: Client, children: ReactNode) =>
  mount(h(StrictMode, null, h(ClientProvider, { client }, children)))

async function until(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)))
  }
  expect(condition(), document.body.textContent ?? '').toBe(true)
}

/** What a test drives from outside: the hooks' functions, kept from the last render. */
const controls: {
  connect?: ReturnType<typeof useConnect>
  sign?: ReturnType<typeof useSignMessage>
  switch?: ReturnType<typeof useSwitchChain>
  refetch?: () => Promise<void>
} = {}

function Wallet() {
  const connect = useConnect()
  const sign = useSignMessage()
  const switchChain = useSwitchChain()
  const connection = useConnection()
  controls.connect = connect
  controls.sign = sign
  controls.switch = switchChain
  const line = (state: { status: string; error: Error | null }) =>
    `${state.status} ${isAppError(state.error) ? state.error.code : '-'}`
  return h(
    'div',
    null,
    h('p', { id: 'connect' }, `${line(connect)} ${connect.data?.accounts[0] ?? '-'}`),
    h('p', { id: 'sign' }, `${line(sign)} ${sign.data ?? '-'}`),
    h('p', { id: 'switch' }, `${line(switchChain)} ${switchChain.data ?? '-'}`),
    h('p', { id: 'chain' }, connection?.chainId ?? '-'),
  )
}

function Balance(props: { id: string; refetchInterval?: number; refetchOnBlock?: boolean }) {
  const balance = useBalance({
    refetchOnBlock: props.refetchOnBlock ?? false,
    blockPollMs: 20,
    ...(props.refetchInterval === undefined ? {} : { refetchInterval: props.refetchInterval }),
  })
  controls.refetch = balance.refetch
  const code = isAppError(balance.error) ? balance.error.code : '-'
  return h(
    'p',
    { id: props.id },
    `${balance.status} ${balance.isFetching ? 'fetching' : 'idle'} ${balance.data?.raw ?? '-'} ${code}`,
  )
}

describe('ClientProvider and useClient', () => {
  it('hands the provider client to every hook; without one useClient throws INVALID_CONFIG', async () => {
    const { client } = await setup()
    let seen: Client | undefined
    function Reader() {
      seen = useClient()
      return null
    }
    render(client, h(Reader))
    expect(seen).toBe(client)

    let thrown: unknown
    function Orphan() {
      try {
        useClient()
      } catch (error) {
        thrown = error
      }
      return null
    }
    const orphan = createRoot(document.createElement('div'))
    act(() => orphan.render(h(Orphan)))
    act(() => orphan.unmount())
    expect(isAppError(thrown, 'INVALID_CONFIG')).toBe(true)
  })
})

describe('useConnect, useSignMessage, useSwitchChain', () => {
  it('connect: the wallet rejects (USER_REJECTED), then the next connect succeeds', async () => {
    const { wallet, client } = await setup()
    render(client, h(Wallet))
    expect(text('connect')).toBe('idle - -')

    wallet.rejectNextRequest()
    await act(async () => controls.connect?.connect({ walletId: 'metamask', namespace: 'eip155' }))
    await until(() => text('connect').startsWith('error'))
    expect(text('connect')).toBe('error USER_REJECTED -')
    expect(client.getView().isConnected).toBe(false)

    const address = wallet.accounts[0]?.address as string
    await act(async () => {
      const connection = await controls.connect?.connectAsync()
      expect(connection?.accounts[0]).toBe(address)
    })
    expect(text('connect')).toBe(`success - ${address}`)
    expect(text('chain')).toBe('eip155:31337')
  })

  it('sign: pending while the wallet decides; it rejects (USER_REJECTED), then the next sign succeeds', async () => {
    const { wallet, client } = await setup()
    render(client, h(Wallet))
    await act(async () => controls.connect?.connectAsync())

    wallet.rejectNextRequest()
    await act(async () => controls.sign?.signMessage({ message: 'hello' }))
    await until(() => text('sign').startsWith('error'))
    expect(text('sign')).toBe('error USER_REJECTED -')
    expect(controls.sign?.variables).toEqual({ message: 'hello' })

    let signing: Promise<string> | undefined
    act(() => {
      signing = controls.sign?.signMessageAsync({ message: 'hello' })
    })
    expect(text('sign')).toBe('pending - -')
    await act(async () => signing)
    const signature = await wallet.accounts[0]?.signMessage({ message: 'hello' })
    expect(text('sign')).toBe(`success - ${signature}`)

    act(() => controls.sign?.reset())
    expect(text('sign')).toBe('idle - -')
  })

  it('switch chain: the wallet rejects (USER_REJECTED), then the switch succeeds and the connection follows', async () => {
    const { wallet, client } = await setup()
    render(client, h(Wallet))
    await act(async () => controls.connect?.connectAsync())
    expect(text('chain')).toBe('eip155:31337')

    wallet.rejectNextRequest()
    await act(async () => controls.switch?.switchChain({ chainId: 'eip155:1' }))
    await until(() => text('switch').startsWith('error'))
    expect(text('switch')).toBe('error USER_REJECTED -')
    expect(text('chain')).toBe('eip155:31337')

    await act(async () => controls.switch?.switchChain({ chainId: 'eip155:1' }))
    await until(() => text('switch').startsWith('success'))
    expect(text('switch')).toBe('success - eip155:1')
    await until(() => text('chain') === 'eip155:1')
    expect(wallet.chainId).toBe(1)
  })
})

describe('useBalance', () => {
  it('three components reading the same balance share one request; a new block reads it once more', async () => {
    const { wallet, client, backend } = await setup()
    const address = wallet.accounts[0]?.address as string
    await fund(address, 5n)
    await act(async () => client.connect())
    render(
      client,
      h(
        'div',
        null,
        h(Balance, { id: 'a', refetchOnBlock: true }),
        h(Balance, { id: 'b', refetchOnBlock: true }),
        h(Balance, { id: 'c' }),
      ),
    )
    await until(() => ['a', 'b', 'c'].every((id) => text(id) === 'success idle 5 -'))
    expect(backend.balanceReads).toBe(1)

    await fund(address, 7n, true)
    await until(() => ['a', 'b', 'c'].every((id) => text(id) === 'success idle 7 -'))
    expect(backend.balanceReads).toBe(2)
  })

  it('backend down: error with the last data kept; back up, refetch() clears it', async () => {
    const { wallet, client, backend } = await setup()
    const address = wallet.accounts[0]?.address as string
    await fund(address, 11n)
    await act(async () => client.connect())
    render(client, h(Balance, { id: 'a' }))
    await until(() => text('a') === 'success idle 11 -')

    backend.down = true
    await act(async () => controls.refetch?.())
    expect(text('a')).toBe('error idle 11 RPC_ERROR')

    backend.down = false
    // A balance changes in a new block (the backend keeps answers per block).
    await fund(address, 12n, true)
    await act(async () => controls.refetch?.())
    expect(text('a')).toBe('success idle 12 -')
  })

  it('backend down from the start: error without data; the interval reads it again once the backend is back', async () => {
    const { wallet, client, backend } = await setup()
    await fund(wallet.accounts[0]?.address as string, 13n)
    await act(async () => client.connect())
    backend.down = true
    render(client, h(Balance, { id: 'a', refetchInterval: 30 }))
    await until(() => text('a') === 'error idle - RPC_ERROR')
    backend.down = false
    await until(() => text('a') === 'success idle 13 -')
  })

  it('reads nothing while no account is connected, then the connected account', async () => {
    const { wallet, client, backend } = await setup()
    await fund(wallet.accounts[0]?.address as string, 17n)
    render(client, h(Balance, { id: 'a' }))
    expect(text('a')).toBe('pending idle - -')
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)))
    expect(backend.balanceReads).toBe(0)
    await act(async () => client.connect())
    await until(() => text('a') === 'success idle 17 -')
  })
})
