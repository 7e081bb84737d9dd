import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createBalanceReader } from '../../src/balance'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { isAppError } from '../../src/errors'
import { GenericWalletSessionClient } from '../../src/session/client'
import {
  createMemoryTransactionStore,
  createTransactionStatusReader,
  toTransactionRequestData,
} from '../../src/transaction'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_0 } from '../support/evm-transactions'

// Issue 27, "Done when": random parameters of the wrong types, from fast-check arbitraries, for
// every public method that takes parameters: each call rejects with an `AppError` of the
// documented code (`INVALID_CONFIG`), never a `TypeError`; the wallet and the backend hear
// nothing; and the next valid call works. Real parts: the EIP-1193 test wallet on a real key,
// anvil and the real backend. The seed is printed on failure; set PARAMS_SEED to replay one.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const numRuns = Number(process.env.PARAMS_RUNS ?? 40)
const seed = Number(process.env.PARAMS_SEED ?? Date.now() % 1_000_000)
const backend = useBackendWithAnvil()
const fetched: string[] = []
const dappFetch: typeof fetch = (input, init) => {
  fetched.push(input instanceof Request ? input.url : String(input))
  return fetch(input, init)
}

let session: { client: Client; wallet: TestEip1193Wallet; account: string } | null = null
async function connected() {
  if (session) return session
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_0],
  })
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
  session = { client, wallet, account: client.getConnection()?.accounts[0] as string }
  return session
}

const isString = (v: unknown) => typeof v === 'string'
/** Values of every JSON and JavaScript kind: numbers, bigints, strings, objects, arrays, null. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
  withSparseArray: true,
})
/** Not a non-negative bigint below 2^256: what `value`, `gas` and the fees must be. */
const notQuantity = fc.oneof(
  fc.bigInt({ max: -1n }),
  fc.bigInt({ min: 1n << 256n, max: 1n << 300n }),
  fc.integer().map((n) => n),
  fc.double(),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map((n) => n.toString()),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map((n) => `0x${n.toString(16)}`),
  anything.filter((v) => typeof v !== 'bigint' && v !== undefined),
)
const notAddress = fc.oneof(
  fc.string().filter((s) => !/^0x[0-9a-fA-F]{40}$/.test(s)),
  anything.filter((v) => !isString(v) && v !== undefined && v !== null),
)
const notHex = fc.oneof(
  fc.string().filter((s) => !/^0x(?:[0-9a-fA-F]{2})*$/.test(s)),
  anything.filter((v) => !isString(v) && v !== undefined),
)
const notNonce = fc.oneof(
  fc.integer({ max: -1 }),
  fc.double().filter((n) => !Number.isSafeInteger(n) || n < 0),
  fc.constant(2 ** 53),
  anything.filter((v) => typeof v !== 'number' && v !== undefined),
)
/** A transaction request with one field of the wrong kind, and that field's name. */
const wrongTransaction = fc.oneof(
  ...(['value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const).map((field) =>
    notQuantity.map((bad) => ({ params: { to: RECIPIENT, [field]: bad }, field })),
  ),
  notAddress.map((bad) => ({ params: { to: bad, value: 1n }, field: 'to' })),
  notHex.map((bad) => ({ params: { to: RECIPIENT, data: bad }, field: 'data' })),
  notNonce.map((bad) => ({ params: { to: RECIPIENT, nonce: bad }, field: 'nonce' })),
  anything
    .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
    .filter((v) => v !== undefined || true)
    .map((bad) => ({ params: bad, field: '' })),
)
/** Not a message: not text of 1 to 65,536 characters, nor `{ raw }` hex of 1 to 65,536 bytes. */
const wrongMessage = fc.oneof(
  fc.constant(''),
  fc.constant(undefined),
  fc.constant({}),
  fc.record({ raw: notHex }),
  fc.constant({ raw: '0x' }),
  fc.integer({ min: 65_537, max: 70_000 }).map((n) => 'a'.repeat(n)),
  anything.filter((v) => !isString(v) && !(v !== null && typeof v === 'object' && 'raw' in v)),
)
const wrongQuery = fc.oneof(
  anything.filter((v) => v === null || typeof v !== 'object'),
  fc.record(
    {
      chainId: fc.oneof(fc.string(), anything),
      tokenAddress: fc.oneof(fc.constant('native'), anything),
      account: anything,
      decimals: fc.oneof(fc.integer({ min: 256 }), fc.double(), anything),
    },
    { requiredKeys: [] },
  ),
)
const wrongQueries = fc.oneof(
  anything.filter((v) => !Array.isArray(v)),
  fc.array(
    anything.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
)
const wrongTypedData = fc.oneof(
  anything.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
  fc.record(
    { domain: anything, types: anything, primaryType: anything, message: anything },
    { requiredKeys: [] },
  ),
)

/**
 * The call rejects with INVALID_CONFIG (never a TypeError), naming `field` when given; nothing
 * reached the wallet or the backend; then `valid()` works.
 */
async function refusedThenWorks(
  call: () => Promise<unknown>,
  field: string | null,
  valid: () => Promise<unknown>,
): Promise<void> {
  const { wallet } = await connected()
  const asked = wallet.requests.length
  const reads = fetched.filter((url) => !url.endsWith('/config')).length
  let error: unknown = null
  let returned: unknown
  try {
    returned = call()
    // Whatever the input, the method returns a promise (it never throws synchronously).
    expect(returned).toBeInstanceOf(Promise)
    await returned
  } catch (thrown) {
    error = thrown
  }
  expect(error).not.toBeInstanceOf(TypeError)
  expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
  if (field !== null && isAppError(error)) {
    expect(
      error.details?.some((d) => d.field.includes(field)),
      error.message,
    ).toBe(true)
  }
  await Promise.resolve()
  expect(wallet.requests.slice(asked)).toEqual([])
  expect(fetched.filter((url) => !url.endsWith('/config')).length).toBe(reads)
  await valid()
}

const options = () => ({ seed, numRuns })

describe(`issue 27: random wrong-typed parameters of every public method (seed ${seed})`, () => {
  it('sendTransaction: INVALID_CONFIG naming the field; the next transaction is sent', async () => {
    const { client } = await connected()
    let sent = 0
    await fc.assert(
      fc.asyncProperty(wrongTransaction, async ({ params, field }) => {
        await refusedThenWorks(
          () => client.sendTransaction(params as never),
          field === '' ? null : field,
          async () => {
            // One real transaction every tenth run keeps the property fast (anvil mines each).
            if (sent++ % 10 !== 0) return
            const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
            expect(handle.hash).toMatch(/^0x[0-9a-f]{64}$/)
          },
        )
      }),
      options(),
    )
  }, 120_000)

  it('signMessage: INVALID_CONFIG; the next message is signed', async () => {
    const { client } = await connected()
    await fc.assert(
      fc.asyncProperty(wrongMessage, async (message) => {
        await refusedThenWorks(
          () => client.signMessage(message as never),
          'message',
          async () => {
            expect(await client.signMessage('ok')).toMatch(/^0x[0-9a-f]{130}$/)
          },
        )
      }),
      options(),
    )
  }, 120_000)

  it('signTypedData, signTransaction, switchChain, selectWallet and pair: INVALID_CONFIG; the next call works', async () => {
    const { client } = await connected()
    const nextSign = async () => {
      expect(await client.signMessage('ok')).toMatch(/^0x/)
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          wrongTypedData.map((v) => () => client.signTypedData(v as never)),
          anything
            .filter((v) => !isString(v) || v === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(v))
            .map((v) => () => client.signTransaction(v as never)),
          anything.filter((v) => !isString(v)).map((v) => () => client.switchChain(v as never)),
          fc
            .tuple(anything, anything)
            .filter(([id, o]) => !isString(id) || id === '' || o === null || typeof o !== 'object')
            .map(
              ([id, o]) =>
                () =>
                  client.selectWallet(id as never, o as never),
            ),
          anything
            .filter((v) => v !== undefined && (v === null || typeof v !== 'object'))
            .map((v) => () => client.pair(v as never)),
        ),
        async (call) => {
          await refusedThenWorks(call, null, nextSign)
        },
      ),
      options(),
    )
    expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })
  }, 120_000)

  it('getBalance and getBalances: INVALID_CONFIG, no request; the next read works', async () => {
    const { client, account } = await connected()
    const valid = { chainId: 'eip155:31337', tokenAddress: 'native', account }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          wrongQuery.map((q) => () => client.getBalance(q as never)),
          wrongQueries.map((q) => () => client.getBalances(q as never)),
        ),
        async (call) => {
          await refusedThenWorks(call, null, async () => {
            expect((await client.getBalance(valid)).raw).toBeGreaterThan(0n)
          })
        },
      ),
      options(),
    )
  }, 120_000)

  it('the standalone reader and toTransactionRequestData: INVALID_CONFIG, never a TypeError, no request', async () => {
    const calls: string[] = []
    const reader = createBalanceReader({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      fetchImpl: (input, init) => {
        calls.push(String(input))
        return fetch(input, init)
      },
    })
    const connection = { namespace: 'eip155', accounts: [RECIPIENT], chainId: 'eip155:1' }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          wrongQuery.map((q) => () => reader.getBalance(q as never)),
          wrongQueries.map((q) => () => reader.getBalances(q as never)),
          wrongTransaction.map(
            ({ params }) =>
              async () =>
                toTransactionRequestData(params as never, connection),
          ),
        ),
        async (call) => {
          const error = await call().then(
            () => null,
            (thrown: unknown) => thrown,
          )
          expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
        },
      ),
      { seed, numRuns: numRuns * 5 },
    )
    expect(calls).toEqual([])
  })

  it('the session client, the Client and the status reader with no options: INVALID_CONFIG, never a TypeError, no request', async () => {
    const calls: string[] = []
    const sessions = new GenericWalletSessionClient(backend.server.baseUrl, 'pk', {
      fetchImpl: (input, init) => {
        calls.push(String(input))
        return fetch(input, init)
      },
    })
    const notText = anything.filter((v) => !isString(v))
    const notObject = anything.filter((v) => v === null || typeof v !== 'object')
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          notText.map((v) => () => sessions.createSession(v as never)),
          notText.map((v) => () => sessions.getResult(v as never, 'token')),
          notText.map((v) => () => sessions.watchResult('session', v as never)),
          notObject.map((v) => () => sessions.verify('session', 'token', v as never)),
          notObject.map((v) => () => sessions.postConnect(v as never)),
          notObject.map((v) => () => sessions.postSignMsg(v as never)),
          notObject.map((v) => () => sessions.postTransaction(v as never)),
          notObject.map((v) => () => sessions.postReject(v as never)),
          notText.map((v) => () => sessions.postReject({ sessionId: 's', errorCode: v } as never)),
          notObject.map(
            (v) => async () => toTransactionRequestData({ to: RECIPIENT, value: 1n }, v as never),
          ),
        ),
        async (call) => {
          const error = await call().then(
            () => null,
            (thrown: unknown) => thrown,
          )
          expect(isAppError(error, 'INVALID_CONFIG'), String(error)).toBe(true)
        },
      ),
      { seed, numRuns: numRuns * 5 },
    )
    expect(calls).toEqual([])
    for (const options of [undefined, null]) {
      expect(() => new Client(options as never)).toThrow(
        expect.objectContaining({ name: 'AppError', code: 'INVALID_CONFIG' }),
      )
      expect(() => createTransactionStatusReader(options as never)).toThrow(
        expect.objectContaining({ name: 'AppError', code: 'INVALID_CONFIG' }),
      )
    }
  })
})
