import { startTestBackend } from '@scope-connect/server/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SOLANA_DEVNET } from '../../server/test/support/server'
import { Client } from '../../src/client'
import { type AppError, isAppError } from '../../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID, TEST_SOLANA_KEYS } from '../../src/testing'
import { createPhoneWallet } from '../../src/testing/doubles/phone-wallet'
import { createMemoryUniversalLinkStore } from '../../src/universal-link/memory-store'

// Issue 27 (small ones; "What to build" 8): "Failing result polls after the wallet answered end as
// 'The wallet did not answer in time'". Over a universal link (`sc*`), the phone wallet answers
// (its callback reaches the real backend: 204), but the dApp's result polls
// (GET /sessions/{id}/result) fail until the Client's deadline: the TIMEOUT must say the backend
// did not return the answer, how many polls failed and what the last one met; only polls that
// succeeded with "pending" throughout give "The wallet did not answer in time". After each, the
// next call works. The real backend (startTestBackend) and a real ed25519 key (the test kit's
// phone wallet); `failingPolls` is a double of a broken way to the backend (a proxy, a CDN), named
// so, in front of the real one for the Client's result polls only. Fake timers (setTimeout, Date,
// performance); the HTTP to the backend is real I/O, so the test lets real turns of the event loop
// pass (setImmediate) between the steps of virtual time.

type Fault = 'ok' | 503 | 'down' | 'garbage'

/** A DOUBLE of a broken way to the backend: while `fault` is set, result polls fail with it. */
function failingPolls() {
  const state = { fault: 'ok' as Fault, polls: 0, failed: 0 }
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : null
    const url = request?.url ?? String(input)
    if (/\/sessions\/[^/]+\/result/.test(url)) {
      state.polls++
      if (state.fault !== 'ok') state.failed++
      if (state.fault === 503)
        return Response.json(
          { error: { code: 'UNAVAILABLE', message: 'test double: upstream down' } },
          { status: 503 },
        )
      if (state.fault === 'down') throw new TypeError('fetch failed (test double: backend down)')
      if (state.fault === 'garbage')
        return new Response('<html>a proxy page</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        })
    }
    return fetch(input, init)
  }
  return { state, fetchImpl }
}

const WAIT_MS = 20_000
/** The wallet of the `sc*` links: the test kit's partner wallet (no built-in brand declares them). */
const WALLET_ID = TEST_PARTNER_WALLET_ID
let backend: Awaited<ReturnType<typeof startTestBackend>>

beforeAll(async () => {
  backend = await startTestBackend()
})
afterAll(() => backend?.close())
afterEach(() => {
  vi.useRealTimers()
})

/** A real turn of the event loop (setImmediate is not faked): lets real I/O land. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Runs virtual time in 100 ms steps, with real turns between them, until `done()` holds. */
async function until(done: () => boolean, maxMs = WAIT_MS * 2) {
  for (let ms = 0; !done() && ms <= maxMs; ms += 100) {
    for (let i = 0; i < 5; i++) await turn()
    await vi.advanceTimersByTimeAsync(100)
  }
  expect(done()).toBe(true)
}

function setup() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] })
  const polls = failingPolls()
  const links: string[] = []
  const phone = createPhoneWallet({
    secretKey: TEST_SOLANA_KEYS[0] as Uint8Array,
    walletSlug: WALLET_ID,
  })
  const client = new Client({
    baseUrl: backend.baseUrl,
    appKey: backend.appKey,
    fetchImpl: polls.fetchImpl,
    mobile: true,
    solanaChainId: SOLANA_DEVNET,
    partnerWallets: [TEST_PARTNER_WALLET],
    connectionStore: null,
    universalLink: {
      store: createMemoryUniversalLinkStore(),
      openLink: (url: string) => {
        links.push(url)
      },
      pollIntervalMs: 500,
    },
    timeouts: { walletAnswerMs: WAIT_MS, signatureMs: WAIT_MS },
  })
  return { client, links, phone, polls }
}

/** How a call settled: its value, or the AppError (anything else fails the test). */
function settle<T>(promise: Promise<T>) {
  const outcome: { done: boolean; value?: T; error?: AppError } = { done: false }
  promise.then(
    (value) => Object.assign(outcome, { done: true, value }),
    (error: unknown) => {
      if (!isAppError(error)) throw error
      Object.assign(outcome, { done: true, error })
    },
  )
  return outcome
}

/** Connects over the universal link; the phone answers the link the Client opens. */
async function connect(
  { client, links, phone }: ReturnType<typeof setup>,
  answer: 'approve' | 'never' = 'approve',
) {
  await client.selectWallet(WALLET_ID, { namespace: 'solana' })
  const opened = links.length
  const connecting = settle(client.connect())
  await until(() => links.length > opened)
  if (answer === 'approve') expect(await phone.answer(links.at(-1) as string, 'approve')).toBe(204)
  return connecting
}

describe('issue 27: a universal-link timeout says what did not answer', () => {
  it.each([
    [503, 'HTTP 503'],
    ['down', 'no answer from the backend'],
    ['garbage', 'an invalid answer (HTTP 200)'],
  ] as const)(
    'error: the wallet answered, every result poll fails (%s) — TIMEOUT names the backend; the next connect works',
    async (fault, last) => {
      const world = setup()
      world.polls.state.fault = fault
      const first = await connect(world)
      await until(() => first.done)
      expect(first.error?.code).toBe('TIMEOUT')
      const failed = world.polls.state.failed
      expect(failed).toBeGreaterThanOrEqual(3)
      // Backoff 1 s, 2 s, 4 s, 8 s … within 20 s; every one failed, the count is the Client's own.
      expect(first.error?.message).toBe(
        `The backend did not return the wallet's answer in time (${failed} polls failed; last: ${last}).`,
      )
      expect(world.client.getView().error?.message).toBe(first.error?.message)
      expect(first.error?.message).not.toMatch(/did not answer in time/)

      world.polls.state.fault = 'ok'
      const second = await connect(world)
      await until(() => second.done)
      expect(second.error).toBeUndefined()
      expect(world.client.getView()).toMatchObject({
        status: 'connected',
        address: world.phone.address,
        error: null,
      })
      world.client.actor.stop()
    },
  )

  it('error: the wallet never answers and every poll succeeds ("pending") — "The wallet did not answer in time."', async () => {
    const world = setup()
    const first = await connect(world, 'never')
    await until(() => first.done)
    expect(world.polls.state.polls).toBeGreaterThanOrEqual(10)
    expect(first.error).toMatchObject({
      code: 'TIMEOUT',
      message: 'The wallet did not answer in time.',
    })
    world.client.actor.stop()
  })

  it('behavior: polls that failed and then came back pending — the wallet is what did not answer', async () => {
    const world = setup()
    world.polls.state.fault = 503
    const first = await connect(world, 'never')
    await until(() => world.polls.state.failed >= 2)
    world.polls.state.fault = 'ok'
    await until(() => first.done)
    expect(first.error).toMatchObject({
      code: 'TIMEOUT',
      message: 'The wallet did not answer in time.',
    })
    world.client.actor.stop()
  })

  it('error: the wallet signed, every result poll fails — TIMEOUT names the signature; the next signature works', async () => {
    const world = setup()
    const connected = await connect(world)
    await until(() => connected.done)
    expect(connected.error).toBeUndefined()

    const sign = async () => {
      const opened = world.links.length
      const signing = settle(world.client.signMessage('issue 27'))
      // The session carried no signature yet: the wallet opens to sign.
      await until(() => world.links.length > opened)
      return { signing, opened }
    }
    world.polls.state.fault = 503
    const { signing } = await sign()
    expect(await world.phone.answer(world.links.at(-1) as string, 'approve')).toBe(204)
    await until(() => signing.done)
    const failed = world.polls.state.failed
    expect(signing.error?.code).toBe('TIMEOUT')
    expect(signing.error?.message).toBe(
      `The backend did not return the wallet's signature in time (${failed} polls failed; last: HTTP 503).`,
    )

    // A universal-link wait that times out ends the link flow (as before): the next connect and
    // signature work once the polls do.
    expect(world.client.getView().status).toBe('disconnected')
    world.polls.state.fault = 'ok'
    const reconnected = await connect(world)
    await until(() => reconnected.done)
    expect(reconnected.error).toBeUndefined()
    const again = await sign()
    expect(await world.phone.answer(world.links.at(-1) as string, 'approve')).toBe(204)
    await until(() => again.signing.done)
    expect(again.signing.error).toBeUndefined()
    expect(again.signing.value).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    world.client.actor.stop()
  })
})
