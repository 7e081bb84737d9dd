// @vitest-environment happy-dom-node
import { act, createElement as h, type ReactNode, StrictMode } from 'react'
import { describe, expect, it } from 'vitest'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import {
  ClientProvider,
  useClientView,
  useSendTransaction,
  useWaitForTransaction,
} from '../src/react'
import { createMemoryTransactionStore } from '../src/transaction'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0, revertingInitCode, rpc } from './support/evm-transactions'
import { useReactRoot } from './support/react-root'

// useSendTransaction and useWaitForTransaction rendered with react-dom in happy-dom against a real
// Client, the real backend reading receipts and anvil mined by hand; each happy path with its
// failure twin, after which the next send succeeds.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: { blockPollMs: 100, timeoutMs: 1_000 },
})

async function connected(): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_0],
  })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
  })
  await client.connect()
  return { client, wallet }
}

const { mount, text } = useReactRoot()
const render = (client: Client, children: ReactNode) =>
  mount(h(StrictMode, null, h(ClientProvider, { client }, children)))
const mine = () => rpc(backend.anvil.rpcUrl, 'evm_mine')

async function until(condition: () => boolean) {
  for (let i = 0; i < 1000 && !condition(); i++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)))
  }
  expect(condition(), document.body.textContent ?? '').toBe(true)
}

const controls: { send?: ReturnType<typeof useSendTransaction> } = {}

function Sender() {
  const send = useSendTransaction()
  const receipt = useWaitForTransaction(send.data)
  const view = useClientView()
  controls.send = send
  const line = (state: { status: string; error: Error | null }) =>
    `${state.status} ${isAppError(state.error) ? state.error.code : '-'}`
  return h(
    'div',
    null,
    h('p', { id: 'send' }, `${line(send)} ${send.data?.hash ?? '-'}`),
    h('p', { id: 'receipt' }, `${line(receipt)} ${receipt.data?.confirmations ?? '-'}`),
    h('p', { id: 'stage' }, view.transaction?.stage ?? '-'),
  )
}

describe('useSendTransaction and useWaitForTransaction', () => {
  it('sends, waits pending until a block, then shows the receipt; the view follows the stage', async () => {
    const { client } = await connected()
    render(client, h(Sender))
    expect(text('send')).toBe('idle - -')
    expect(text('receipt')).toBe('idle - -')
    act(() => controls.send?.sendTransaction({ to: RECIPIENT, value: 1n }))
    await until(() => text('send').startsWith('success'))
    const hash = controls.send?.data?.hash ?? ''
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    await until(() => text('stage') === 'pending')
    expect(text('receipt')).toBe('pending - -')
    await mine()
    await until(() => text('receipt').startsWith('success'))
    expect(text('receipt')).toBe('success - 1')
    expect(text('stage')).toBe('confirmed')
  })

  it('the wallet rejects (USER_REJECTED, the receipt stays idle), then the next send succeeds', async () => {
    const { client, wallet } = await connected()
    render(client, h(Sender))
    wallet.rejectNextRequest('eth_sendTransaction')
    act(() => controls.send?.sendTransaction({ to: RECIPIENT, value: 1n }))
    await until(() => text('send').startsWith('error'))
    expect(text('send')).toBe('error USER_REJECTED -')
    expect(text('receipt')).toBe('idle - -')
    act(() => controls.send?.sendTransaction({ to: RECIPIENT, value: 2n }))
    await until(() => text('send').startsWith('success'))
    await mine()
    await until(() => text('receipt').startsWith('success'))
  })

  it('a reverted call: the receipt is TRANSACTION_REVERTED; reset() forgets the send', async () => {
    const { client } = await connected()
    render(client, h(Sender))
    act(() => controls.send?.sendTransaction({ data: revertingInitCode('nope'), gas: 100_000n }))
    await until(() => text('send').startsWith('success'))
    await until(() => text('stage') === 'pending')
    await mine()
    await until(() => text('receipt').startsWith('error'))
    expect(text('receipt')).toBe('error TRANSACTION_REVERTED -')
    expect(text('stage')).toBe('reverted')
    act(() => controls.send?.reset())
    expect(text('send')).toBe('idle - -')
    expect(text('receipt')).toBe('idle - -')
  })
})
