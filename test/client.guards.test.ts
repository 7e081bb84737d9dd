import fc from 'fast-check'
import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { InspectionEvent } from 'xstate'
import { Client, type ClientOptions } from '../src/client'
import { createMemoryConnectionStore } from '../src/connection/memory-store'
import type { ConnectionStore } from '../src/connection/store'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { AppError } from '../src/errors/app-error'
import { setConsoleLogging } from '../src/logging'
import { createMemoryTransactionStore } from '../src/transaction/store'
import { createMemoryUniversalLinkStore } from '../src/universal-link/memory-store'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'

// Issue 27, finding 3 and "What to build" 4: the app's own code — its inspector, its stores, its
// view listeners — cannot break the Client. Whatever they throw (synchronously, or as a rejected
// promise) is reported once through the logger and dropped; the root, the inspector's queue and
// every later call are unaffected. Real parts: the server on anvil, a wallet on viem keys.

const backend = useBackendWithAnvil()

/** Every unhandled rejection of the process while a test runs (vitest fails on them too). */
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
})
beforeEach(() => {
  unhandled.length = 0
})
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
})

/** How a piece of the app's code fails: not at all, a synchronous throw, a rejected promise. */
type Failure = 'none' | 'throw' | 'reject'
const failing = (failure: Failure, what: string): unknown => {
  if (failure === 'throw') throw new Error(`app ${what} threw`)
  if (failure === 'reject') return Promise.reject(new Error(`app ${what} rejected`))
  return undefined
}

/** The app's connection store: a memory one whose calls fail as `failure.<method>` says. */
function failingConnectionStore(failure: { save: Failure; load: Failure; clear: Failure }) {
  const inner = createMemoryConnectionStore()
  return {
    save: (value) => (failing(failure.save, 'store.save') as undefined) ?? inner.save(value),
    load: () =>
      failure.load === 'none' ? inner.load() : (failing(failure.load, 'store.load') as null),
    clear: () => (failing(failure.clear, 'store.clear') as undefined) ?? inner.clear(),
  } satisfies ConnectionStore
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5))
}

async function connectedClient(options: Partial<ClientOptions>) {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    ...options,
  })
  return { client, wallet }
}

const balanceOf = (client: Client) =>
  client.getBalance({
    chainId: 'eip155:31337',
    tokenAddress: 'native',
    account: (client.getConnection()?.accounts[0] ?? '0x0') as Hex,
  })

describe('the app inspector cannot break the Client (finding 3)', () => {
  it('error: an inspector that throws synchronously — getBalance still resolves, the root stays active', async () => {
    let events = 0
    const { client } = await connectedClient({
      inspect: () => {
        events++
        throw new Error('inspector bug')
      },
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    const balance = await balanceOf(client)
    expect(balance.raw).toBeTypeOf('bigint')
    expect(client.actor.getSnapshot().status).toBe('active')
    expect(client.getView().isConnected).toBe(true)
    await settle()
    expect(events).toBeGreaterThan(10)
    expect(unhandled).toEqual([])
  })

  it('error: an inspector that throws on its first event only — every later event still reaches it (the queue drains)', async () => {
    const seen: string[] = []
    let first = true
    const { client } = await connectedClient({
      inspect: (event: InspectionEvent) => {
        if (first) {
          first = false
          throw new Error('inspector bug')
        }
        seen.push(event.type)
      },
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    await settle()
    const before = seen.length
    expect(before).toBeGreaterThan(5)
    await balanceOf(client)
    await settle()
    expect(seen.length).toBeGreaterThan(before)
    expect(unhandled).toEqual([])
  })

  it('error: an inspector that returns a rejected promise — no unhandled rejection', async () => {
    const { client } = await connectedClient({
      inspect: () => Promise.reject(new Error('async inspector bug')) as never,
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    await client.signMessage('still works')
    await settle()
    expect(unhandled).toEqual([])
  })

  it('behavior: an inspector failure is reported once through the logger', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    setConsoleLogging(true)
    try {
      const { client } = await connectedClient({
        inspect: () => {
          throw new Error('inspector bug')
        },
      })
      await client.selectWallet('metamask', { namespace: 'eip155' })
      await client.connect()
      await settle()
      const lines = warn.mock.calls.filter((c) => String(c[0]).includes('the inspector threw'))
      expect(lines).toHaveLength(1)
    } finally {
      setConsoleLogging(false)
      warn.mockRestore()
    }
  })
})

describe('the app stores cannot break the Client (finding 10, stores)', () => {
  it('error: a connection store whose save throws, load throws and clear rejects — resume() and disconnect() resolve', async () => {
    const store = failingConnectionStore({ save: 'throw', load: 'throw', clear: 'reject' })
    const { client } = await connectedClient({ connectionStore: store })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    await settle()
    await expect(client.disconnect()).resolves.toBeUndefined()
    const result = await client.resume()
    expect(result.status).toBe('none')
    await settle()
    expect(unhandled).toEqual([])
  })

  it('error: a connection store whose save rejects — no unhandled rejection, the connection holds', async () => {
    const store = failingConnectionStore({ save: 'reject', load: 'reject', clear: 'throw' })
    const { client } = await connectedClient({ connectionStore: store })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    await settle()
    expect(client.getView().isConnected).toBe(true)
    // A load that answers with a promise finds nothing (stores are synchronous).
    await expect(client.resume()).resolves.toMatchObject({ status: 'none' })
    await expect(client.disconnect()).resolves.toBeUndefined()
    await settle()
    expect(unhandled).toEqual([])
  })

  it('error: universal-link, pairing and transaction stores that throw on load — resume() and resumeTransaction() resolve', async () => {
    const boom = () => {
      throw new Error('store bug')
    }
    const { client } = await connectedClient({
      universalLink: { store: { ...createMemoryUniversalLinkStore(), load: boom, clear: boom } },
      pairing: {
        store: { save: boom, load: boom, clear: boom },
      },
      transactions: { store: { ...createMemoryTransactionStore(), load: boom } },
    })
    await expect(client.resume()).resolves.toMatchObject({ status: 'none' })
    await expect(client.resumeTransaction()).resolves.toBeNull()
    await expect(client.disconnect()).resolves.toBeUndefined()
    await settle()
    expect(unhandled).toEqual([])
  })
})

describe('the app listeners cannot break the Client', () => {
  it('error: a subscribe() listener that throws — connect, sign and read still settle, the root stays active', async () => {
    const { client } = await connectedClient({})
    let calls = 0
    const unsubscribe = client.subscribe(() => {
      calls++
      throw new Error('listener bug')
    })
    await client.selectWallet('metamask', { namespace: 'eip155' })
    await client.connect()
    await client.signMessage('hello')
    await balanceOf(client)
    expect(calls).toBeGreaterThan(3)
    expect(client.actor.getSnapshot().status).toBe('active')
    unsubscribe()
    await settle()
    expect(unhandled).toEqual([])
  })
})

type Call = 'getBalance' | 'signMessage' | 'loadConfig' | 'resume' | 'disconnect' | 'connect'
const CALL_NAMES: Call[] = [
  'getBalance',
  'signMessage',
  'loadConfig',
  'resume',
  'disconnect',
  'connect',
]
const failureArb = fc.constantFrom<Failure>('none', 'throw', 'reject')

describe('property: random inspector, store and listener failures over random calls', () => {
  it('behavior: every call settles with a value or an AppError, the next call works, no unhandled rejection', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          inspector: failureArb,
          listener: failureArb,
          store: fc.record({ save: failureArb, load: failureArb, clear: failureArb }),
          calls: fc.array(fc.constantFrom(...CALL_NAMES), { minLength: 1, maxLength: 6 }),
        }),
        async ({ inspector, listener, store, calls }) => {
          unhandled.length = 0
          const { client } = await connectedClient({
            connectionStore: failingConnectionStore(store),
            inspect: () => failing(inspector, 'inspector') as undefined,
          })
          client.subscribe(() => failing(listener, 'listener') as undefined)
          await client.selectWallet('metamask', { namespace: 'eip155' })
          await client.connect()
          for (const call of calls) {
            const outcome = await Promise.resolve()
              .then(
                (): Promise<unknown> =>
                  call === 'getBalance'
                    ? balanceOf(client)
                    : call === 'signMessage'
                      ? client.signMessage('property')
                      : call === 'loadConfig'
                        ? client.loadConfig()
                        : call === 'resume'
                          ? client.resume()
                          : call === 'disconnect'
                            ? client.disconnect()
                            : client.connect(),
              )
              .then(
                () => 'value',
                (error: unknown) => error,
              )
            if (outcome !== 'value') {
              expect(outcome, `${call} rejected with a non-AppError`).toBeInstanceOf(AppError)
              expect((outcome as AppError).code).toBe('NOT_CONNECTED')
            }
            expect(client.actor.getSnapshot().status).toBe('active')
          }
          // The next call works.
          await client.connect()
          await expect(balanceOf(client)).resolves.toMatchObject({ chainId: 'eip155:31337' })
          await settle()
          expect(unhandled).toEqual([])
        },
      ),
      { numRuns: 25, seed: 27 },
    )
  })
})
