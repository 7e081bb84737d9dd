// @vitest-environment happy-dom-node
import { act, createElement as h } from 'react'
import { type Address, createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRegistry } from '../server/src/chains'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import { ClientProvider, useBalance } from '../src/react'
import { createMemoryTransactionStore } from '../src/transaction'
import { type ConnectElement, defineConnectElements } from '../src/ui'
import { formatUnits } from '../src/ui/lazy/format'
import { type RunningAnvil, startAnvil } from './support/anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0 } from './support/evm-transactions'
import { useReactRoot } from './support/react-root'

// Issue 31 item 1: after a transaction's receipt, the balances a dApp shows (client.getBalances,
// useBalance, the button's account chip) equal the chain's at once: the real Client with a real
// key on anvil, the real backend reading receipts and balances. The chain's blocks are said to be
// 12 s, so the backend keeps a block number 3 s: the window in which a read answered the block
// before the receipt. No refetchInterval / refetchOnBlock: only the receipt can bring the figure.
// Failure twins: the read again after the receipt fails (the backend answers 502, its node
// refusing balance reads), and the next one works.

const CHAIN = 'eip155:31337'
const SENDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const RECIPIENT: Address = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
/** Within one head poll of the backend (its `blockPollMs`), and well inside the 3 s window. */
const HEAD_POLL_MS = 250

let anvil: RunningAnvil
let server: TestServer
/** While set, the backend's node refuses balance reads (the backend then answers 502). */
let nodeRefuses = false

beforeAll(async () => {
  anvil = await startAnvil()
  const networks = [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl, blockTimeMs: 12_000 }]
  const node: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string }
    if (nodeRefuses && /eth_getBalance|eth_call/.test(body.method)) {
      return new Response('node down', { status: 503 })
    }
    return fetch(input, init)
  }
  server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks, { fetch: node }),
    transactions: { blockPollMs: HEAD_POLL_MS },
  })
})
afterAll(async () => {
  await server?.close()
  await anvil?.stop()
})

const chain = () => createPublicClient({ transport: http(anvil.rpcUrl) })
const onChain = (address: Address) => chain().getBalance({ address })

async function connected(): Promise<Client> {
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl, privateKeys: [ANVIL_KEY_0] })
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
  })
  await client.connect()
  return client
}

/** Sends 1 ETH (a figure the chip shows) and waits for its receipt; the receipt's block. */
async function pay(client: Client): Promise<bigint> {
  const handle = await client.sendTransaction({ to: RECIPIENT, value: parseEther('1') })
  const receipt = await handle.wait()
  return receipt.blockNumber
}

/** `check` holds within `ms` (real time, polled every 10 ms); the last value otherwise. */
async function within<T>(ms: number, read: () => T, check: (value: T) => boolean): Promise<T> {
  const until = Date.now() + ms
  let value = read()
  while (!check(value) && Date.now() < until) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)))
    value = read()
  }
  return value
}

const queries = [
  { chainId: CHAIN, tokenAddress: 'native', account: SENDER },
  { chainId: CHAIN, tokenAddress: 'native', account: RECIPIENT },
]

describe('client.getBalances after a receipt', () => {
  it('answers the receipt block (or later) at once, for the sender and the recipient', async () => {
    const client = await connected()
    await client.getBalances(queries)
    const block = await pay(client)
    const [sender, recipient] = await client.getBalances(queries)
    expect(sender?.status).toBe('success')
    expect(recipient?.status).toBe('success')
    if (sender?.status !== 'success' || recipient?.status !== 'success') return
    expect(sender.balance.blockNumber! >= block).toBe(true)
    expect(sender.balance.raw).toBe(await onChain(SENDER))
    expect(recipient.balance.raw).toBe(await onChain(RECIPIENT))
  })

  it('twin: the read after the receipt fails (502: RPC_ERROR per query), the next one is fresh', async () => {
    const client = await connected()
    await client.getBalances(queries)
    await pay(client)
    nodeRefuses = true
    const failed = await client.getBalances(queries).finally(() => {
      nodeRefuses = false
    })
    expect(failed.map((result) => result.status)).toEqual(['failure', 'failure'])
    const [sender] = await client.getBalances(queries)
    expect(sender?.status === 'success' && sender.balance.raw).toBe(await onChain(SENDER))
  })
})

const { mount, text } = useReactRoot()

function Shown() {
  const balance = useBalance()
  const code = isAppError(balance.error) ? balance.error.code : '-'
  return h('p', { id: 'balance' }, `${balance.status} ${balance.data?.raw ?? '-'} ${code}`)
}

/** A payment's receipt: `useBalance` shows the sender's balance on chain within one head poll. */
async function expectShownWithinOnePoll(client: Client) {
  await pay(client)
  const expected = `success ${await onChain(SENDER)} -`
  expect(
    await within(
      HEAD_POLL_MS,
      () => text('balance'),
      (s) => s === expected,
    ),
  ).toBe(expected)
}

describe('useBalance after a receipt', () => {
  it('shows the chain balance within one head poll of the receipt', async () => {
    const client = await connected()
    mount(h(ClientProvider, { client }, h(Shown)))
    await within(
      5_000,
      () => text('balance'),
      (shown) => shown.startsWith('success'),
    )
    await expectShownWithinOnePoll(client)
  })

  it('twin: the read again fails (RPC_ERROR, the figure kept), the next receipt brings it', async () => {
    const client = await connected()
    mount(h(ClientProvider, { client }, h(Shown)))
    await within(
      5_000,
      () => text('balance'),
      (shown) => shown.startsWith('success'),
    )
    const before = text('balance').split(' ')[1]
    nodeRefuses = true
    await pay(client)
    const failed = await within(
      5_000,
      () => text('balance'),
      (s) => s.startsWith('error'),
    )
    nodeRefuses = false
    expect(failed).toBe(`error ${before} RPC_ERROR`)
    await expectShownWithinOnePoll(client)
  })
})

describe("the button's account chip after a receipt", () => {
  const chipBalance = (element: Element) =>
    element.shadowRoot?.querySelector('.bal')?.textContent ?? ''
  const figure = async () => formatUnits(await onChain(SENDER), 18)

  async function chip(client: Client): Promise<ConnectElement> {
    defineConnectElements()
    const element = document.createElement('scope-connect-button') as ConnectElement
    element.client = client
    document.body.append(element)
    await within(
      5_000,
      () => chipBalance(element),
      (shown) => shown !== '',
    )
    return element
  }

  it('shows the chain balance within one head poll of the receipt', async () => {
    const client = await connected()
    const element = await chip(client)
    expect(chipBalance(element).startsWith(await figure())).toBe(true)
    await pay(client)
    const expected = await figure()
    const shown = await within(
      HEAD_POLL_MS,
      () => chipBalance(element),
      (s) => s.startsWith(expected),
    )
    expect(shown.split(' ')[0]).toBe(expected)
    element.remove()
  })

  it('twin: the read again fails (the figure kept), the next receipt brings it', async () => {
    const client = await connected()
    const element = await chip(client)
    const before = chipBalance(element)
    nodeRefuses = true
    await pay(client)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    nodeRefuses = false
    expect(chipBalance(element)).toBe(before)
    await pay(client)
    const expected = await figure()
    const shown = await within(
      HEAD_POLL_MS,
      () => chipBalance(element),
      (s) => s.startsWith(expected),
    )
    expect(shown.split(' ')[0]).toBe(expected)
    element.remove()
  })
})
