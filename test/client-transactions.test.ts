import { type Hex, parseGwei } from 'viem'
import { describe, expect, it } from 'vitest'
import { slowNode } from '../server/test/support/slow-node'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { type AppError, isAppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0, revertingInitCode, rpc } from './support/evm-transactions'

// `Client.sendTransaction` end to end: an EIP-1193 wallet on a real key, a real anvil (mined by
// hand), the real backend reading the receipts. The dApp's only HTTP peer is the backend.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let nodeDelayMs = 0
/** Every URL the dApp's Client fetched. */
const dappFetches: string[] = []
let backendDown = false

const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: {
    blockPollMs: 100,
    // Short, so the slow-node path fails in about 5 s rather than 17 (its five failed reads each wait
    // out the timeout twice); a read that misses it once under load is retried by wait() (50 ms).
    timeoutMs: 300,
    fetch: async (input, init) => {
      // A slow node, as a socket is: the backend's abort (its timeout) ends the wait at once.
      if (nodeDelayMs > 0) await slowNode(nodeDelayMs, init?.signal)
      return fetch(input, init)
    },
  },
})

const dappFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input)
  dappFetches.push(url)
  if (backendDown) throw new TypeError('fetch failed')
  return fetch(input, init)
}

async function connected(
  options: Partial<ClientOptions> = {},
  walletOptions: { eip5792?: boolean } = {},
): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_0],
    ...walletOptions,
  })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    fetchImpl: dappFetch,
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    ...options,
  })
  await client.connect()
  return { client, wallet }
}

const mine = () => rpc(backend.anvil.rpcUrl, 'evm_mine')
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )
const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const isReceiptMethod = (method: string) => /Receipt|getTransactionBy|blockNumber/i.test(method)

describe('Client.sendTransaction', () => {
  it('default: an injected wallet sends; wait() settles through the backend, with no RPC in the dApp', async () => {
    const { client, wallet } = await connected()
    dappFetches.length = 0
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    expect(handle.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(handle.chainId).toBe('eip155:31337')
    await until(() => client.getView().transaction?.stage === 'pending')
    expect(client.getView()).toMatchObject({
      pending: 'transaction',
      transaction: { hash: handle.hash, confirmations: 0 },
    })
    await mine()
    const receipt = await handle.wait()
    expect(receipt).toMatchObject({ status: 'confirmed', hash: handle.hash, confirmations: 1 })
    expect(receipt.blockNumber).toBeGreaterThan(0n)
    expect(client.getView()).toMatchObject({
      pending: null,
      transaction: { stage: 'confirmed', confirmations: 1 },
    })
    // The dApp asked only the backend (the receipt, and the project's chains once connected); the
    // wallet was asked only to send.
    expect(
      dappFetches.some((url) =>
        url.startsWith(`${backend.server.baseUrl}/api/v1/connect/transactions?`),
      ),
    ).toBe(true)
    expect(
      dappFetches.every((url) => url.startsWith(`${backend.server.baseUrl}/api/v1/connect/`)),
    ).toBe(true)
    expect(wallet.requests.map((r) => r.method).filter(isReceiptMethod)).toEqual([])
    expect(wallet.requests.at(-1)).toMatchObject({ method: 'eth_sendTransaction' })
  })

  it('behavior: a reverted call rejects wait() with TRANSACTION_REVERTED and the reason', async () => {
    const { client } = await connected()
    const handle = await client.sendTransaction({ data: revertingInitCode('nope'), gas: 100_000n })
    await mine()
    const error = await failure(handle.wait())
    expect(error?.code).toBe('TRANSACTION_REVERTED')
    expect(error?.message).toContain('nope')
    expect(client.getView().transaction).toMatchObject({ stage: 'reverted', revertReason: 'nope' })
  })

  it('behavior: a replacement sent by the wallet (same nonce, higher fee) rejects with TRANSACTION_REPLACED and the new hash', async () => {
    const { client, wallet } = await connected()
    const handle = await client.sendTransaction({
      to: RECIPIENT,
      value: 1n,
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    await until(() => client.getView().transaction?.stage === 'pending')
    const { nonce } = (await rpc(backend.anvil.rpcUrl, 'eth_getTransactionByHash', [
      handle.hash,
    ])) as {
      nonce: Hex
    }
    // The user presses "speed up" in the wallet: same nonce, higher fee, a new hash.
    const replacement = (await wallet.request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: wallet.accounts[0]!.address,
          to: RECIPIENT,
          value: '0x1',
          nonce,
          maxFeePerGas: `0x${parseGwei('50').toString(16)}`,
          maxPriorityFeePerGas: `0x${parseGwei('5').toString(16)}`,
        },
      ],
    })) as string
    await mine()
    const error = await failure(handle.wait())
    expect(error?.code).toBe('TRANSACTION_REPLACED')
    expect(error?.details).toEqual([{ field: 'replacedBy', reason: replacement }])
    expect(client.getView().transaction).toMatchObject({
      stage: 'replaced',
      replacedBy: replacement,
    })
  })

  it('behavior: a reload while pending resumes the same transaction from the store', async () => {
    const store = createMemoryTransactionStore()
    const { client } = await connected({ transactions: { store } })
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 2n })
    await until(() => store.load()?.hash === handle.hash)
    // The page reloads: a new Client, no wallet connected, the same store.
    const reloaded = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      fetchImpl: dappFetch,
      transactions: { store },
    })
    const resumed = await reloaded.resumeTransaction()
    expect(resumed?.hash).toBe(handle.hash)
    expect(reloaded.getView().transaction).toMatchObject({ hash: handle.hash })
    await mine()
    expect(await resumed?.wait()).toMatchObject({ status: 'confirmed', hash: handle.hash })
    expect(store.load()).toBeNull()
    expect(await reloaded.resumeTransaction()).toBeNull()
  })

  it('behavior: cancel() before the wallet answers rejects with ABORTED; the view follows what the wallet still sends; then the next send succeeds', async () => {
    const { client, wallet } = await connected()
    const release = wallet.holdNextRequest()
    const sending = failure(client.sendTransaction({ to: RECIPIENT, value: 1n }))
    await until(() => wallet.requests.at(-1)?.method === 'eth_sendTransaction')
    expect(client.getView()).toMatchObject({ pending: 'transaction', canCancel: true })
    client.cancel()
    expect((await sending)?.code).toBe('ABORTED')
    // The wallet still holds it (an EIP-1193 request cannot be taken back): still asked, busy.
    expect(client.getView()).toMatchObject({
      isBusy: true,
      transaction: { stage: 'awaitingWallet' },
    })
    release()
    // The wallet sends it: its hash is not lost, the view follows it to its receipt.
    await until(() => client.getView().transaction?.stage === 'pending')
    await mine()
    await until(() => client.getView().transaction?.stage === 'confirmed')
    const next = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    await mine()
    expect(await next.wait()).toMatchObject({ status: 'confirmed' })
  })

  it('error: resumeTransaction() while the wallet is asked → WALLET_BUSY; the pending send goes on and settles with its hash', async () => {
    const store = createMemoryTransactionStore()
    const { client, wallet } = await connected({ transactions: { store } })
    // A transaction waits for its receipt in the store (one a reload could resume).
    const stored = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    await until(() => store.load()?.hash === stored.hash)
    const release = wallet.holdNextRequest()
    let sent: { hash: string } | AppError | undefined
    client.sendTransaction({ to: RECIPIENT, value: 2n }).then(
      (handle) => {
        sent = handle
      },
      (error: AppError) => {
        sent = error
      },
    )
    await until(
      () => wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length === 2,
    )
    const refused = await failure(client.resumeTransaction())
    expect(refused?.code).toBe('WALLET_BUSY')
    expect(client.getView()).toMatchObject({
      pending: 'transaction',
      transaction: { stage: 'awaitingWallet' },
    })
    expect(store.load()?.hash).toBe(stored.hash)
    release()
    // Never a hang, never a lost hash: the wallet's answer settles the send.
    await until(() => sent !== undefined)
    expect(isAppError(sent), String(sent)).toBe(false)
    const handle = sent as { hash: string; wait(): Promise<unknown> }
    expect(client.getView().transaction?.hash).toBe(handle.hash)
    await mine()
    expect(await handle.wait()).toMatchObject({ status: 'confirmed', hash: handle.hash })
  })

  it('error: resumeTransaction() after cancel() while the wallet still holds the send → WALLET_BUSY; its hash still reaches the view', async () => {
    const store = createMemoryTransactionStore()
    const { client, wallet } = await connected({ transactions: { store } })
    const release = wallet.holdNextRequest()
    const sending = failure(client.sendTransaction({ to: RECIPIENT, value: 3n }))
    await until(() => wallet.requests.at(-1)?.method === 'eth_sendTransaction')
    client.cancel()
    expect((await sending)?.code).toBe('ABORTED')
    expect((await failure(client.resumeTransaction()))?.code).toBe('WALLET_BUSY')
    release()
    await until(() => client.getView().transaction?.stage === 'pending')
    const hash = client.getView().transaction?.hash
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    // Once the wallet answered, the stored transaction is resumed (the same one, from the store).
    await until(() => store.load()?.hash === hash)
    expect((await client.resumeTransaction())?.hash).toBe(hash)
    await mine()
    await until(() => client.getView().transaction?.stage === 'confirmed')
  })

  it('error: the wallet rejects → USER_REJECTED; the next send succeeds', async () => {
    const { client, wallet } = await connected()
    wallet.rejectNextRequest()
    expect((await failure(client.sendTransaction({ to: RECIPIENT, value: 1n })))?.code).toBe(
      'USER_REJECTED',
    )
    const next = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    await mine()
    expect((await next.wait()).status).toBe('confirmed')
  })

  it('error: the backend down while waiting → RPC_ERROR after the retries; the next wait succeeds', async () => {
    const { client } = await connected()
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    backendDown = true
    try {
      const error = await failure(handle.wait())
      expect(error?.code).toBe('RPC_ERROR')
    } finally {
      backendDown = false
    }
    const next = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    await mine()
    expect((await next.wait()).status).toBe('confirmed')
  })

  it('behavior: a backend that comes back within the retries is not a failure', async () => {
    const { client } = await connected()
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    backendDown = true
    const waiting = handle.wait()
    await new Promise((resolve) => setTimeout(resolve, 120))
    backendDown = false
    await mine()
    expect((await waiting).status).toBe('confirmed')
  })

  it('error: a node slower than the backend allows → RPC_ERROR with UPSTREAM_ERROR; then it recovers', async () => {
    const { client } = await connected()
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    nodeDelayMs = 1_000
    try {
      const error = await failure(handle.wait())
      expect(error?.code).toBe('RPC_ERROR')
      expect(error?.backendCode).toBe('UPSTREAM_ERROR')
    } finally {
      nodeDelayMs = 0
    }
    await mine()
    const next = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    await mine()
    expect((await next.wait()).status).toBe('confirmed')
  }, 30_000)

  it('parameters: calls — one EIP-5792 batch where the wallet supports it; refused where not', async () => {
    const batching = await connected({}, { eip5792: true })
    const handle = await batching.client.sendTransaction({
      calls: [
        { to: RECIPIENT, value: 1n },
        { to: RECIPIENT, value: 2n },
      ],
    })
    expect(batching.wallet.requests.map((r) => r.method)).toContain('wallet_sendCalls')
    await mine()
    expect((await handle.wait()).status).toBe('confirmed')
    const plain = await connected()
    const error = await failure(
      plain.client.sendTransaction({ calls: [{ to: RECIPIENT }, { to: RECIPIENT }] }),
    )
    expect(error?.code).toBe('WALLET_ERROR')
    expect(isAppError(error)).toBe(true)
  })

  it('error: not connected → NOT_CONNECTED', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      fetchImpl: dappFetch,
    })
    expect((await failure(client.sendTransaction({ to: RECIPIENT })))?.code).toBe('NOT_CONNECTED')
  })

  it('parameters: confirmations — wait() settles after the wanted number of blocks', async () => {
    const { client } = await connected()
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n, confirmations: 2 })
    await mine()
    await until(() => client.getView().transaction?.stage === 'confirming')
    await mine()
    expect(await handle.wait()).toMatchObject({ confirmations: 2 })
  })
})
