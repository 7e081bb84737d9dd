import { beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client'
import {
  type ClientPath,
  type ClientPathDriver,
  createBackendDouble,
  getClientPaths,
  preloadClientPaths,
  runClientPath,
  type ShownReaders,
  TEST_APP_KEY,
  TEST_BALANCE_RAW,
  TEST_BASE_URL,
} from '../../src/testing'
import { useVirtualTime } from './support/replays'

// Issue 31, item 9 (last part): `runClientPath({ expectShown })` compares what the app SHOWS — its
// balance and its transaction toast, each read by a function of the app's — with the world: the
// backend's balance of the connected account, the transaction's stage. Before, the kit compared
// only the Client's view, and an app showing a stale balance or a toast stuck at "pending" passed.

/** What a sent transaction costs the sender here (the chain's balance after its receipt). */
const GAS = 21_000n * 1_000_000_000n
const AFTER = BigInt(TEST_BALANCE_RAW) - GAS

/**
 * The backend double, as a chain where the transaction is mined: once the Client read its receipt
 * (`GET /transactions`), `GET /balances` answers the sender's balance less the gas.
 */
function minedBackend() {
  const double = createBackendDouble()
  let mined = false
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.pathname.endsWith('/transactions')) mined = true
    const response = await double.fetch(input, init)
    if (!mined || !url.pathname.endsWith('/balances') || !response.ok) return response
    const body = (await response.json()) as Record<string, unknown>
    return new Response(JSON.stringify({ ...body, raw: AFTER.toString() }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  }) as typeof fetch
  return { baseUrl: TEST_BASE_URL, appKey: TEST_APP_KEY, fetchImpl }
}

/**
 * A dApp's state, as its UI would show it: the balance (read on connect; `fresh`: read again once
 * a transaction is confirmed), and the toast (`fresh`: the transaction's stage; stale: the first
 * stage it saw, never settled).
 */
function app(fresh: boolean) {
  const state: { balance: bigint | null; toast: string | null } = { balance: null, toast: null }
  let read = ''
  let unsubscribe = () => {}
  const driver: ClientPathDriver = {
    mount: (client: Client) => {
      state.balance = null
      state.toast = null
      read = ''
      unsubscribe = client.subscribe((view) => {
        const stage = view.transaction?.stage ?? null
        state.toast = fresh || state.toast === null ? stage : state.toast
        if (!view.isConnected || view.address === null || view.chainId === null) {
          state.balance = null
          read = ''
          return
        }
        const key = `${view.address}${view.chainId}${fresh ? stage : ''}`
        if (key === read) return
        read = key
        const query = {
          chainId: view.chainId as never,
          tokenAddress: 'native',
          account: view.address,
        }
        // Read after the Client's update (a read started inside its listener does not start).
        Promise.resolve()
          .then(() => client.getBalance(query))
          .then((b) => {
            state.balance = b.raw
          })
          .catch(() => {
            read = ''
          })
      })
    },
    act: (action, client) => {
      action.run(client).catch(() => {})
    },
    expect: () => {},
    unmount: () => unsubscribe(),
  }
  const shown: ShownReaders = { balance: () => state.balance, toast: () => state.toast as never }
  return { driver, shown }
}

let paths: ClientPath[]
let sent: ClientPath
beforeAll(async () => {
  paths = getClientPaths({ flows: ['desktop'], maxSteps: 5 })
  const found = paths.find((path) => {
    const at = path.steps.findIndex((s) => s.kind === 'user' && s.type === 'sendTransaction')
    const answer = path.steps[at + 1]
    return at >= 0 && answer?.kind === 'wallet' && answer.behaviour === 'approve'
  })
  if (!found) throw new Error('no path sends a transaction that confirms')
  sent = found
  await preloadClientPaths(paths)
}, 30_000)
const wait = useVirtualTime()

describe('expectShown: the balance and the toast the app shows', () => {
  it('an app that shows the chain balance and the settled toast passes', async () => {
    const { driver, shown } = app(true)
    await runClientPath(sent, driver, { wait, backend: minedBackend(), expectShown: shown })
  })

  it('a stale app (the old balance, a toast that never settles) fails the step, naming both', async () => {
    const { driver, shown } = app(false)
    const failure = await runClientPath(sent, driver, {
      wait,
      backend: minedBackend(),
      expectShown: shown,
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const message = String((failure as Error).message)
    expect(message).toContain(sent.description)
    expect(message).toMatch(/after step \d+ \(/)
    expect(message).toContain(`the backend answers ${AFTER}`)
    expect(message).toContain(`the app shows the balance ${TEST_BALANCE_RAW}`)
    expect(message).toMatch(/toast shows awaitingWallet, the transaction is confirmed/)
  })

  it('a toast dismissed once the transaction settled passes; only the balance is read where only it is given', async () => {
    const { driver, shown } = app(true)
    await runClientPath(sent, driver, {
      wait,
      backend: minedBackend(),
      expectShown: {
        ...shown,
        toast: async (client) => {
          const stage = await shown.toast?.(client)
          return stage === 'confirmed' ? null : (stage ?? null)
        },
      },
    })
    const stale = app(false)
    const failure = await runClientPath(sent, stale.driver, {
      wait,
      backend: minedBackend(),
      expectShown: { balance: stale.shown.balance },
    }).catch((error: unknown) => error)
    expect(String(failure)).toContain(`the backend answers ${AFTER}`)
    expect(String(failure)).not.toContain('toast')
  })

  it('without expectShown the same stale app passes (the check is opt-in)', async () => {
    const { driver } = app(false)
    await runClientPath(sent, driver, { wait, backend: minedBackend() })
  })

  it('a reader that is not a function is INVALID_CONFIG', async () => {
    const { driver } = app(true)
    await expect(
      runClientPath(sent, driver, { expectShown: { balance: 1 as never } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
  })
})
