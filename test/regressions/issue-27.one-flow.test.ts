// Issue 27, finding 1: while the wallet answered `eth_sendTransaction` the view said
// `isBusy: false, canSign: true`; a signMessage, signTypedData, switchChain or disconnect in that
// window settled the transaction as ABORTED while the wallet still sent it, and the hash was lost.
// Every wallet call during every pending wallet request, through the public API, with a real
// anvil, the real backend and an EIP-1193 wallet on a real key (it holds its answer: a user who
// has not clicked yet).
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { isAppError } from '../../src/errors'
import { createMemoryTransactionStore } from '../../src/transaction'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_1, rpc } from '../support/evm-transactions'

const backend = useBackendWithAnvil({ transactions: { blockPollMs: 50 } })
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const typedData = {
  domain: { name: 'Test', version: '1', chainId: 31337 },
  types: { Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  message: { contents: 'hello' },
}

const clients: Client[] = []
// A client's long-polls end with it: the server closes at once after the file.
afterEach(() => {
  for (const client of clients.splice(0)) client.actor.stop()
})

async function connected(): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_1],
    extraChains: [1],
  })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    connectionStore: null,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
  })
  clients.push(client)
  await client.connect()
  return { client, wallet }
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: undefined, error }),
  )
const codeOf = (error: unknown) => (isAppError(error) ? error.code : String(error))
const until = async (condition: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

type Pending = 'transaction' | 'signMessage' | 'signTypedData' | 'switchChain'
type Call =
  | 'signMessage'
  | 'signTypedData'
  | 'signTransaction'
  | 'switchChain'
  | 'sendTransaction'
  | 'disconnect'
  | 'cancel'

const METHOD: Record<Pending, string> = {
  transaction: 'eth_sendTransaction',
  signMessage: 'personal_sign',
  signTypedData: 'eth_signTypedData_v4',
  switchChain: 'wallet_switchEthereumChain',
}

function start(client: Client, pending: Pending): Promise<unknown> {
  switch (pending) {
    case 'transaction':
      return client.sendTransaction({ to: RECIPIENT, value: 1n })
    case 'signMessage':
      return client.signMessage('first')
    case 'signTypedData':
      return client.signTypedData(typedData)
    case 'switchChain':
      return client.switchChain('eip155:1')
  }
}

function call(client: Client, which: Call): Promise<unknown> {
  switch (which) {
    case 'signMessage':
      return client.signMessage('second')
    case 'signTypedData':
      return client.signTypedData(typedData)
    case 'signTransaction':
      return client.signTransaction('AQID')
    case 'switchChain':
      return client.switchChain('eip155:1')
    case 'sendTransaction':
      return client.sendTransaction({ to: RECIPIENT, value: 2n })
    case 'disconnect':
      return client.disconnect()
    case 'cancel':
      client.cancel()
      return Promise.resolve()
  }
}

const PENDING: Pending[] = ['transaction', 'signMessage', 'signTypedData', 'switchChain']
const CALLS: Call[] = [
  'signMessage',
  'signTypedData',
  'signTransaction',
  'switchChain',
  'sendTransaction',
  'disconnect',
  'cancel',
]
const TABLE = PENDING.flatMap((pending) => CALLS.map((which) => [pending, which] as const))

describe('issue 27 (1): one wallet request at a time, truthfully', () => {
  it.each(TABLE)('behavior: while %s awaits the wallet, %s', async (pending, which) => {
    const { client, wallet } = await connected()
    const nonceBefore = Number(
      await rpc<string>(backend.anvil.rpcUrl, 'eth_getTransactionCount', [
        wallet.accounts[0]?.address,
        'latest',
      ]),
    )
    const release = wallet.holdNextRequest()
    const first = settle(start(client, pending))
    await until(() => wallet.requests.some((r) => r.method === METHOD[pending]))
    // The view tells the truth: the wallet is asked, nothing else may be.
    expect(client.getView()).toMatchObject({ isBusy: true, canSign: false })
    const asked = wallet.requests.length
    const second = await settle(call(client, which))
    const givesUp = which === 'disconnect' || which === 'cancel'
    if (!givesUp) {
      // Refused, with the documented code, and nothing reached the wallet.
      expect(codeOf(second.error)).toBe('WALLET_BUSY')
      expect(wallet.requests.length).toBe(asked)
    } else expect(second.error).toBeNull()
    release()
    const outcome = await first
    if (!givesUp) {
      // The first request settled as the wallet answered it.
      expect(outcome.error, String(outcome.error)).toBeNull()
      if (pending === 'transaction') {
        const hash = (outcome.value as { hash: string }).hash
        expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
        expect(
          (await (outcome.value as { wait(): Promise<unknown> }).wait()) as object,
        ).toMatchObject({
          status: 'confirmed',
        })
      }
      expect(client.getView()).toMatchObject({ isBusy: false, canSign: true })
      return
    }
    expect(codeOf(outcome.error)).toBe('ABORTED')
    if (pending === 'transaction') {
      // Whatever the wallet did is what the view says: a hash it answered is followed to its
      // receipt (cancel: the wallet sends it), else nothing left the account (disconnect: this
      // wallet refuses an account it no longer authorizes).
      await until(() => client.getView().transaction?.stage !== 'awaitingWallet')
      await until(() => client.getView().transaction?.isActive === false)
      const view = client.getView().transaction
      const sent = await rpc<string>(backend.anvil.rpcUrl, 'eth_getTransactionCount', [
        wallet.accounts[0]?.address,
        'latest',
      ])
      if (view?.hash) {
        expect(view.stage).toBe('confirmed')
        const receipt = await rpc<{ status: string; from: string } | null>(
          backend.anvil.rpcUrl,
          'eth_getTransactionReceipt',
          [view.hash],
        )
        expect(receipt?.status).toBe('0x1')
      } else expect(Number(sent)).toBe(nonceBefore)
      if (which === 'cancel') expect(view?.hash).toMatch(/^0x[0-9a-f]{64}$/)
    }
    // After it, the next call works.
    if (which === 'disconnect') await client.connect()
    await until(() => !client.getView().isBusy)
    expect(await client.signMessage('next')).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('behavior: a transaction given up (cancel) while the wallet still holds it keeps the view busy and refuses a second sendTransaction until the wallet answers', async () => {
    const { client, wallet } = await connected()
    const release = wallet.holdNextRequest()
    const first = settle(client.sendTransaction({ to: RECIPIENT, value: 1n }))
    await until(() => wallet.requests.some((r) => r.method === 'eth_sendTransaction'))
    client.cancel()
    expect(codeOf((await first).error)).toBe('ABORTED')
    expect(client.getView()).toMatchObject({
      isBusy: true,
      canSign: false,
      transaction: { stage: 'awaitingWallet' },
    })
    // A user told "aborted" who retries does not pay twice.
    expect(codeOf((await settle(client.sendTransaction({ to: RECIPIENT, value: 1n }))).error)).toBe(
      'WALLET_BUSY',
    )
    release()
    await until(() => client.getView().transaction?.hash != null)
    expect(client.getView()).toMatchObject({ isBusy: false, canSign: true })
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
  })
})

describe('issue 27 (small): sendTransaction honours timeouts.walletAnswerMs', () => {
  it('error: a wallet that does not answer within the client’s walletAnswerMs rejects TIMEOUT; transactions.timeouts wins when set; the next call works', async () => {
    for (const [timeouts, transactions, bound] of [
      [{ walletAnswerMs: 150 }, {}, 150],
      [{ walletAnswerMs: 60_000 }, { walletAnswerMs: 150 }, 150],
    ] as const) {
      const wallet = await createEip1193TestWallet({
        rpcUrl: backend.anvil.rpcUrl,
        privateKeys: [ANVIL_KEY_1],
      })
      const client = new Client({
        baseUrl: backend.server.baseUrl,
        appKey: backend.server.appKey,
        connectors: [new Eip1193Connector('metamask', () => wallet)],
        mobile: false,
        connectionStore: null,
        timeouts,
        transactions: { store: createMemoryTransactionStore(), timeouts: transactions },
      })
      clients.push(client)
      await client.connect()
      const release = wallet.holdNextRequest()
      const started = Date.now()
      const result = await settle(client.sendTransaction({ to: RECIPIENT, value: 1n }))
      expect(codeOf(result.error)).toBe('TIMEOUT')
      expect(Date.now() - started).toBeLessThan(bound + 5_000)
      release()
      await until(() => !client.getView().isBusy)
      expect(await client.signMessage('next')).toMatch(/^0x[0-9a-f]{130}$/)
    }
  })
})
