import { afterEach, describe, expect, it, vi } from 'vitest'
import { monotonicClock } from '../machines/shared/clock'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { isAppError } from '../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { createMemoryTransactionStore } from '../src/transaction'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0, rpc } from './support/evm-transactions'
import { textLinkStore } from './support/text-link-store'

// Issue 27, finding 8 and "What to build" 6: deadlines inside a page run on a monotonic clock
// (`performance.now()`), so a wall-clock jump (an NTP correction, a user changing the time) neither
// fails a healthy wait nor stretches one; a deadline restored from another page is capped at its
// timeout's length. `Date` and `performance` are moved separately. Real parts: anvil (mined by
// hand), the server reading the receipts, a wallet on a real key, a real universal-link session.

const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: { blockPollMs: 100 },
})
const HOUR = 3_600_000

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('monotonicClock', () => {
  it('behavior: follows performance.now() from the wall time it was made at, whatever Date does', () => {
    let perf = 500
    let wall = 1_000_000
    const now = monotonicClock({ now: () => perf }, () => wall)
    expect(now()).toBe(1_000_000)
    perf += 250
    wall += HOUR
    expect(now()).toBe(1_000_250)
    wall -= 2 * HOUR
    expect(now()).toBe(1_000_250)
  })

  it('behavior: without performance, the wall clock', () => {
    let wall = 7
    const now = monotonicClock(null, () => wall)
    wall = 9
    expect(now()).toBe(9)
  })
})

describe('a wall-clock jump inside a page (finding 8)', () => {
  it('error: +1 h while a transaction waits for its receipt — wait() still confirms (no TIMEOUT)', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
    })
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
      connectionStore: null,
      transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    })
    await client.connect()
    const handle = await client.sendTransaction({
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: 1n,
    })
    const settled = handle.wait().then(
      (receipt) => receipt,
      (error: unknown) => error,
    )
    // The wall clock jumps an hour ahead (past the 30 min receipt wait); performance does not.
    const realNow = Date.now.bind(Date)
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + HOUR)
    await new Promise((r) => setTimeout(r, 2_000))
    expect(client.getView().transaction?.stage).not.toBe('failed')
    vi.restoreAllMocks()
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    const outcome = await settled
    expect(isAppError(outcome) ? outcome.code : outcome).toMatchObject({ status: 'confirmed' })
  }, 20_000)
})

describe('a wall clock that went back between two pages', () => {
  it('error: −1 h before the reload — a restored 3 s wallet wait ends after 3 s, not after an hour', async () => {
    const store = textLinkStore()
    const links: string[] = []
    const options = {
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      connectionStore: null,
      timeouts: { walletAnswerMs: 3_000 },
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
    for (let i = 0; i < 200 && (links.length === 0 || store.value === null); i++)
      await new Promise((r) => setTimeout(r, 5))
    before.actor.stop() // the page goes away; the wallet never answers

    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    })
    vi.setSystemTime(Date.now() - HOUR) // the wall clock went back; performance.now() did not
    const after = new Client(options)
    const resumed = await after.resume()
    expect(resumed.status).toBe('awaitingWallet')
    let outcome: unknown = 'pending'
    resumed.wait().then(
      () => {
        outcome = 'connected'
      },
      (error: unknown) => {
        outcome = isAppError(error) ? error.code : error
      },
    )
    await vi.advanceTimersByTimeAsync(2_900)
    expect(outcome).toBe('pending')
    await vi.advanceTimersByTimeAsync(200)
    expect(outcome).toBe('TIMEOUT')
  }, 20_000)
})
