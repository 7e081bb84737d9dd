import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { createBalanceReader } from '../../src/balance'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { type AppError, isAppError } from '../../src/errors'
import { createMemoryTransactionStore, toTransactionRequestData } from '../../src/transaction'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_0, rpc } from '../support/evm-transactions'

// Issue 27, finding 2 and the parameter parts of finding 10: every public parameter is checked
// before anything is sent. `hex = v => '0x' + v.toString(16)` turned `value: "1000"` into 0x1000
// (4,096 wei), `"0x10"` into `"0x0x10"`, `-5n` into `"0x-5"`, `1.5` into `"0x1.8"`;
// `signMessage(undefined | '' | {})` signed `0x` or "[object Object]"; `getBalance(null)`,
// `getBalances(null)` and `sendTransaction(null)` rejected with a raw TypeError. Real parts: the
// EIP-1193 test wallet on a real key, anvil, the real backend.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil()
/**
 * Every URL each test's Client fetched, by its wallet: per Client, since a previous test's
 * transaction may still poll for its receipt (slowly, on a loaded machine) during the next test.
 */
const fetchedBy = new WeakMap<TestEip1193Wallet, string[]>()

async function connected(): Promise<{ client: Client; wallet: TestEip1193Wallet }> {
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_0],
    extraChains: [1],
  })
  const fetched: string[] = []
  fetchedBy.set(wallet, fetched)
  const dappFetch: typeof fetch = (input, init) => {
    fetched.push(input instanceof Request ? input.url : String(input))
    return fetch(input, init)
  }
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    fetchImpl: dappFetch,
    connectionStore: null,
    transactions: { store: createMemoryTransactionStore() },
  })
  await client.connect()
  return { client, wallet }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  )

/** Rejects with INVALID_CONFIG naming `field`, and neither the wallet nor the backend heard of it. */
async function refused(
  call: () => Promise<unknown>,
  field: string,
  wallet: TestEip1193Wallet,
): Promise<AppError> {
  const fetched = fetchedBy.get(wallet) ?? []
  const asked = wallet.requests.length
  const reads = fetched.length
  const error = await failure(call())
  expect(isAppError(error, 'INVALID_CONFIG'), `${String(error)}`).toBe(true)
  const appError = error as AppError
  const named = (text: string) => text === field || text.startsWith(`${field}.`)
  expect(appError.details?.map((d) => d.field).some(named), appError.message).toBe(true)
  expect(appError.shortMessage).toMatch(/^Invalid [^:]+: .+\.$/)
  expect(named(appError.shortMessage.slice(8).split(':')[0] as string)).toBe(true)
  // Settle any microtask the call may have scheduled, then: nothing was sent.
  await new Promise((resolve) => setTimeout(resolve, 20))
  expect(wallet.requests.slice(asked)).toEqual([])
  // (the project config read once connected is not the call's)
  expect(fetched.slice(reads).filter((url) => !url.endsWith('/config'))).toEqual([])
  return appError
}

const tx = (params: unknown) => params as Parameters<Client['sendTransaction']>[0]
const balanceOf = (address: string) =>
  rpc<string>(backend.anvil.rpcUrl, 'eth_getBalance', [address, 'latest']).then(BigInt)

describe('issue 27: sendTransaction parameters', () => {
  it('error: a value, gas, fee, to, data or nonce of the wrong kind is refused, naming the field; nothing reaches the wallet', async () => {
    const { client, wallet } = await connected()
    const field = (name: string) => `sendTransaction parameters.${name}`
    for (const [params, name] of [
      [{ to: RECIPIENT, value: '1000' }, 'value'],
      [{ to: RECIPIENT, value: '0x10' }, 'value'],
      [{ to: RECIPIENT, value: -5n }, 'value'],
      [{ to: RECIPIENT, value: 1.5 }, 'value'],
      [{ to: RECIPIENT, value: 1000 }, 'value'],
      [{ to: RECIPIENT, value: 1n << 256n }, 'value'],
      [{ to: RECIPIENT, gas: -1n }, 'gas'],
      [{ to: RECIPIENT, maxFeePerGas: '1' }, 'maxFeePerGas'],
      [{ to: RECIPIENT, maxPriorityFeePerGas: 2.5 }, 'maxPriorityFeePerGas'],
      [{ to: RECIPIENT, gasPrice: null }, 'gasPrice'],
      [{ to: 'not-an-address', value: 1n }, 'to'],
      [{ to: `${RECIPIENT}00`, value: 1n }, 'to'],
      [{ to: RECIPIENT, data: 'hello' }, 'data'],
      [{ to: RECIPIENT, data: '0x123' }, 'data'],
      [{ to: RECIPIENT, nonce: -1 }, 'nonce'],
      [{ to: RECIPIENT, nonce: 1.5 }, 'nonce'],
      [{ to: RECIPIENT, nonce: 2 ** 53 }, 'nonce'],
      [{ to: RECIPIENT, nonce: '7' }, 'nonce'],
      [{ calls: [] }, 'calls'],
      [{ calls: [{ to: RECIPIENT, value: '1' }] }, 'calls.0.value'],
      [{ to: RECIPIENT, chainId: 'ethereum' }, 'chainId'],
      [{ to: RECIPIENT, confirmations: 0 }, 'confirmations'],
    ] as const) {
      await refused(() => client.sendTransaction(tx(params)), field(name), wallet)
    }
    for (const params of [null, undefined, 'to', 42, [RECIPIENT]]) {
      await refused(() => client.sendTransaction(tx(params)), 'sendTransaction parameters', wallet)
    }
    expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false, pending: null })
  })

  it('default: after a refusal the next call sends exactly what it says (1,000 wei is 0x3e8)', async () => {
    const { client, wallet } = await connected()
    await refused(
      () => client.sendTransaction(tx({ to: RECIPIENT, value: '1000' })),
      'sendTransaction parameters.value',
      wallet,
    )
    const before = await balanceOf(RECIPIENT)
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1000n, nonce: undefined })
    expect(wallet.requests.at(-1)).toMatchObject({
      method: 'eth_sendTransaction',
      params: [{ to: RECIPIENT, value: '0x3e8' }],
    })
    await handle.wait()
    expect((await balanceOf(RECIPIENT)) - before).toBe(1000n)
  })

  it('error: sendTransaction(null) rejects with an AppError even when no wallet is connected', async () => {
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectionStore: null,
    })
    const error = await failure(client.sendTransaction(tx(null)))
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
  })
})

describe('issue 27: a chainId other than the connection’s is refused (call switchChain first)', () => {
  it('error: nothing is sent; after switchChain the wallet is asked on that chain', async () => {
    const { client, wallet } = await connected()
    const error = await refused(
      () => client.sendTransaction({ to: RECIPIENT, value: 1n, chainId: 'eip155:1' }),
      'sendTransaction parameters.chainId',
      wallet,
    )
    expect(error.shortMessage).toContain("switchChain('eip155:1')")
    // The connection's own chain named explicitly is fine.
    const handle = await client.sendTransaction({
      to: RECIPIENT,
      value: 1n,
      chainId: 'eip155:31337',
    })
    expect(handle.chainId).toBe('eip155:31337')
    await client.switchChain('eip155:1')
    expect(client.getView().chainId).toBe('eip155:1')
    const asked = wallet.requests.length
    // On the wallet's chain now: the request goes to the wallet (this test node is anvil's, so
    // the wallet's answer does not matter here, only that it was asked on the named chain).
    await failure(client.sendTransaction({ to: RECIPIENT, value: 1n, chainId: 'eip155:1' }))
    expect(wallet.requests.slice(asked).map((r) => r.method)).toContain('eth_sendTransaction')
  })

  it('behavior: the wallet refuses the switch: the transaction for the other chain stays refused, the connection’s chain still works', async () => {
    const { client, wallet } = await connected()
    wallet.rejectNextRequest('wallet_switchEthereumChain')
    const switched = await failure(client.switchChain('eip155:1'))
    expect(isAppError(switched, 'USER_REJECTED')).toBe(true)
    expect(client.getView().chainId).toBe('eip155:31337')
    await refused(
      () => client.sendTransaction({ to: RECIPIENT, value: 1n, chainId: 'eip155:1' }),
      'sendTransaction parameters.chainId',
      wallet,
    )
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 2n })
    expect(handle.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})

describe('issue 27: signMessage parameters', () => {
  it('error: undefined, empty, an object, a number and a too long message are refused; nothing is signed', async () => {
    const { client, wallet } = await connected()
    const sign = (message: unknown) => () =>
      client.signMessage(message as Parameters<Client['signMessage']>[0])
    for (const message of [undefined, '', {}, null, 42, ['hi'], { raw: 'hello' }, { raw: '0x' }]) {
      await refused(sign(message), 'message', wallet)
    }
    await refused(sign('x'.repeat(65_537)), 'message', wallet)
    await refused(sign({ raw: `0x${'00'.repeat(65_537)}` }), 'message', wallet)
    expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false, canSign: true })
  })

  it('default: text up to the maximum, and { raw } bytes, are signed as they are', async () => {
    const { client } = await connected()
    const address = client.getConnection()?.accounts[0] as `0x${string}`
    const text = await client.signMessage('hello')
    expect(await verifyMessage({ address, message: 'hello', signature: text as never })).toBe(true)
    // The same bytes as hex: the same signature.
    expect(await client.signMessage({ raw: '0x68656c6c6f' })).toBe(text)
    const longest = 'é'.repeat(65_536)
    const signature = await client.signMessage(longest)
    expect(await verifyMessage({ address, message: longest, signature: signature as never })).toBe(
      true,
    )
  })
})

describe('issue 27: balance queries', () => {
  it('error: getBalance(null), getBalances(null) and queries of the wrong kind reject with INVALID_CONFIG, no request sent', async () => {
    const { client, wallet } = await connected()
    const account = client.getConnection()?.accounts[0] as string
    const read = (query: unknown) => () =>
      client.getBalance(query as Parameters<Client['getBalance']>[0])
    const readMany = (queries: unknown) => () =>
      client.getBalances(queries as Parameters<Client['getBalances']>[0])
    await refused(read(null), 'query', wallet)
    await refused(read(undefined), 'query', wallet)
    await refused(
      read({ chainId: 31337, tokenAddress: 'native', account }),
      'query.chainId',
      wallet,
    )
    await refused(read({ chainId: 'eip155:31337', account }), 'query.tokenAddress', wallet)
    await refused(
      read({ chainId: 'eip155:31337', tokenAddress: 'native', account, decimals: 256 }),
      'query.decimals',
      wallet,
    )
    await refused(readMany(null), 'queries', wallet)
    await refused(readMany({ chainId: 'eip155:31337' }), 'queries', wallet)
    await refused(readMany([null]), 'queries.0', wallet)
    // The next read works.
    const balance = await client.getBalance({
      chainId: 'eip155:31337',
      tokenAddress: 'native',
      account,
    })
    expect(balance.raw).toBeGreaterThan(0n)
  })

  it('error: the standalone reader refuses the same queries before any request', async () => {
    const calls: string[] = []
    const reader = createBalanceReader({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      fetchImpl: (input, init) => {
        calls.push(String(input))
        return fetch(input, init)
      },
    })
    for (const query of [null, undefined, 'eip155:1', { chainId: 'eip155:31337' }]) {
      const error = await failure(reader.getBalance(query as never))
      expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
    }
    for (const queries of [null, undefined, 'x', [42]]) {
      const error = await failure(reader.getBalances(queries as never))
      expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
    }
    expect(calls).toEqual([])
  })
})

describe('issue 27: toTransactionRequestData (public) checks what it converts', () => {
  const connection = { namespace: 'eip155', accounts: [RECIPIENT], chainId: 'eip155:1' }
  it('error: a string value is INVALID_CONFIG, never 0x1000 wei', () => {
    for (const value of ['1000', '0x10', -5n, 1.5]) {
      let thrown: unknown
      try {
        toTransactionRequestData(tx({ to: RECIPIENT, value }), connection)
      } catch (error) {
        thrown = error
      }
      expect(isAppError(thrown, 'INVALID_CONFIG'), String(thrown)).toBe(true)
    }
    expect(toTransactionRequestData({ to: RECIPIENT, value: 1000n }, connection).calls).toEqual([
      { to: RECIPIENT, value: '0x3e8', data: null },
    ])
  })
})
