import { startTestBackend } from '@scope-connect/server/testing'
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientView } from '../src/client'
import { AppError, type AppErrorCode, isAppError, type MayBeAppError } from '../src/errors'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID, TEST_SOLANA_KEYS } from '../src/testing'
import { createPhoneWallet } from '../src/testing/doubles/phone-wallet'
import { createMemoryUniversalLinkStore } from '../src/universal-link/memory-store'

// Issue 31, item 7: `view.error` is an `AppError` — `isAppError(view.error, 'USER_REJECTED')` tells a
// rejection — and the type system refuses the old trap (`isAppError` on a type that can never be
// an AppError, such as the machines' plain `ErrorData`). Through the public API, for each failure
// kind (the wallet rejects, the wallet app fails (SESSION_FAILED), the backend answers 5xx, the backend is down, the
// wallet never answers, the caller cancels): the rejected call's error and the view's agree on the
// code, the view keeps one object while the error stays, holds no secret of the flow, and the next
// connect works. The real backend (startTestBackend) and a real ed25519 key (the test kit's phone
// wallet); `faultyBackend` is a DOUBLE of a broken way to the backend (a proxy), in front of the
// real one. Fake timers for the timeout (setTimeout, Date, performance); the HTTP is real I/O.

// --- Types (checked by `tsc`/`tsgo` over test/: a broken expectation fails the typecheck) ---
describe('types', () => {
  it('view.error is an AppError; isAppError refuses a type that is never one', () => {
    expectTypeOf<ClientView['error']>().toEqualTypeOf<AppError | null>()
    const view = {} as ClientView
    if (isAppError(view.error, 'USER_REJECTED')) expectTypeOf(view.error).toEqualTypeOf<AppError>()
    // The old trap: a plain error shape (what machines keep in context) can never be an AppError.
    const plain = { code: 'USER_REJECTED' as AppErrorCode, message: 'no' }
    // @ts-expect-error — a plain `{ code, message }` is never an AppError: the call does not compile
    expect(isAppError(plain, 'USER_REJECTED')).toBe(false)
    // @ts-expect-error — nor without a code
    expect(isAppError('USER_REJECTED')).toBe(false)
    // What may be one still compiles: unknown (a catch), Error, unions with an error, any.
    expectTypeOf<MayBeAppError<unknown>>().toEqualTypeOf<true>()
    expectTypeOf<MayBeAppError<Error>>().toEqualTypeOf<true>()
    expectTypeOf<MayBeAppError<AppError | null>>().toEqualTypeOf<true>()
    // biome-ignore lint/suspicious/noExplicitAny: `any` must stay accepted
    expectTypeOf<MayBeAppError<any>>().toEqualTypeOf<true>()
    expectTypeOf<MayBeAppError<typeof plain>>().toEqualTypeOf<false>()
    expectTypeOf<MayBeAppError<string | null>>().toEqualTypeOf<false>()
    const caught: unknown = new AppError('ABORTED', 'x')
    if (isAppError(caught, 'ABORTED')) expectTypeOf(caught).toEqualTypeOf<AppError>()
  })
})

type Fault = 'ok' | 503 | 'down'

/** A DOUBLE of a broken way to the backend: while `fault` is set, session creation fails with it. */
function faultyBackend() {
  const state = { fault: 'ok' as Fault }
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const method = (input instanceof Request ? input.method : init?.method) ?? 'GET'
    if (state.fault !== 'ok' && method === 'POST' && /\/sessions$/.test(url)) {
      if (state.fault === 503)
        return Response.json(
          { error: { code: 'UNAVAILABLE', message: 'test double: upstream down' } },
          { status: 503 },
        )
      throw new TypeError('fetch failed (test double: backend down)')
    }
    return fetch(input, init)
  }
  return { state, fetchImpl }
}

const WAIT_MS = 20_000
let backend: Awaited<ReturnType<typeof startTestBackend>>

beforeAll(async () => {
  backend = await startTestBackend()
})
afterAll(() => backend?.close())
afterEach(() => {
  vi.useRealTimers()
})

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Virtual time in 100 ms steps (fake timers), or real 10 ms steps, until `done()` holds. */
async function until(done: () => boolean, maxMs = WAIT_MS * 2) {
  for (let ms = 0; !done() && ms <= maxMs; ms += 100) {
    for (let i = 0; i < 5; i++) await turn()
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(100)
    else await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(done()).toBe(true)
}

function setup() {
  const faults = faultyBackend()
  const links: string[] = []
  const phone = createPhoneWallet({
    secretKey: TEST_SOLANA_KEYS[0] as Uint8Array,
    walletSlug: TEST_PARTNER_WALLET_ID,
  })
  const client = new Client({
    baseUrl: backend.baseUrl,
    appKey: backend.appKey,
    fetchImpl: faults.fetchImpl,
    mobile: true,
    solanaChainId: SOLANA_DEVNET,
    partnerWallets: [TEST_PARTNER_WALLET],
    connectionStore: null,
    universalLink: {
      store: createMemoryUniversalLinkStore(),
      openLink: (url: string) => {
        links.push(url)
      },
      pollIntervalMs: 200,
    },
    timeouts: { walletAnswerMs: WAIT_MS, signatureMs: WAIT_MS },
  })
  return { client, faults, links, phone }
}

function settle<T>(promise: Promise<T>) {
  const outcome: { done: boolean; value?: T; error?: unknown } = { done: false }
  promise.then(
    (value) => Object.assign(outcome, { done: true, value }),
    (error: unknown) => Object.assign(outcome, { done: true, error }),
  )
  return outcome
}

/** The secrets of the links the Client opened (query values: session ids, keys, tokens). */
function secretsOf(links: readonly string[]): string[] {
  return links.flatMap((link) =>
    [...new URL(link).searchParams.values()].filter((value) => value.length >= 16),
  )
}

type World = ReturnType<typeof setup>

async function connectAndApprove(world: World) {
  await world.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
  const opened = world.links.length
  const connecting = settle(world.client.connect())
  await until(() => world.links.length > opened)
  expect(await world.phone.answer(world.links.at(-1) as string, 'approve')).toBe(204)
  await until(() => connecting.done)
  expect(connecting.error).toBeUndefined()
  expect(world.client.getView()).toMatchObject({ status: 'connected', error: null })
}

/** The view's error after a failed connect: the same code as the call's, an AppError, no secrets. */
function expectViewError(world: World, thrown: unknown, code: AppErrorCode) {
  expect((thrown as AppError).code).toBe(code)
  expect(isAppError(thrown, code)).toBe(true)
  const view = world.client.getView()
  expect(view.error).toBeInstanceOf(AppError)
  expect(isAppError(view.error, code)).toBe(true)
  expect(view.error?.code).toBe(code)
  expect(view.error?.message).toBe((thrown as AppError).shortMessage)
  // One object while the error stays: a UI can compare it (`===`) across renders.
  expect(world.client.getView().error).toBe(view.error)
  const text = `${view.error?.message} ${JSON.stringify(view.error)} ${String(view.error?.stack)}`
  for (const secret of secretsOf(world.links)) expect(text).not.toContain(secret)
  return view.error as AppError
}

describe('view.error is an AppError, for each failure kind (then the next connect works)', () => {
  it.each([
    ['reject', 'USER_REJECTED'],
    ['error', 'SESSION_FAILED'],
  ] as const)('the phone wallet answers %s: %s', async (answer, code) => {
    const world = setup()
    await world.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = settle(world.client.connect())
    await until(() => world.links.length > 0)
    await world.phone.answer(world.links[0] as string, answer)
    await until(() => connecting.done)
    expectViewError(world, connecting.error, code)
    await connectAndApprove(world)
    world.client.actor.stop()
  })

  it.each([
    [503, 503],
    ['down', undefined],
  ] as const)('the backend fails (%s) when the session is created', async (fault, status) => {
    const world = setup()
    world.faults.state.fault = fault
    await world.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = settle(world.client.connect())
    await until(() => connecting.done)
    const thrown = connecting.error as AppError
    expect(isAppError(thrown)).toBe(true)
    const error = expectViewError(world, thrown, thrown.code)
    expect(['BACKEND_ERROR', 'RPC_ERROR', 'SESSION_FAILED']).toContain(error.code)
    expect(error.status).toBe(status)
    world.faults.state.fault = 'ok'
    await connectAndApprove(world)
    world.client.actor.stop()
  })

  it('the wallet never answers: TIMEOUT', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] })
    const world = setup()
    await world.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = settle(world.client.connect())
    await until(() => connecting.done)
    expectViewError(world, connecting.error, 'TIMEOUT')
    vi.useRealTimers()
    await connectAndApprove(world)
    world.client.actor.stop()
  })

  it('the caller cancels: ABORTED', async () => {
    const world = setup()
    await world.client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = settle(world.client.connect())
    await until(() => world.links.length > 0)
    world.client.cancel()
    await until(() => connecting.done)
    expectViewError(world, connecting.error, 'ABORTED')
    await connectAndApprove(world)
    world.client.actor.stop()
  })
})
