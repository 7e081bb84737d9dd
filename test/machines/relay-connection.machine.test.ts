import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import { relayConnectionMachine } from '../../machines/relay-connection/relay-connection.machine'
import type {
  ActorTime,
  RelayConnectionInput,
  TokenOutput,
} from '../../machines/relay-connection/relay-connection.types'
import { toRelayConnectionView } from '../../machines/relay-connection/relay-connection.view'
import { topState } from '../../machines/shared/top-state'
import { AppError } from '../../src/errors'

const T = Date.parse('2026-11-23T10:00:00Z')
const input: RelayConnectionInput = {
  backoff: { baseMs: 500, maxMs: 30_000, maxAttempts: 3 },
  keepaliveMs: 25_000,
  requestTimeoutMs: 10_000,
  startedAt: T,
}

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void }

/** Promise actors wait for the test; every `socket` actor is recorded with its `sendBack`. */
function scripted(overrides: Partial<RelayConnectionInput> = {}) {
  const pending: Record<string, Array<Deferred<unknown>>> = {}
  const tokenInputs: Array<{ stale: boolean }> = []
  const sockets: Array<{ sendBack: (event: AnyEventObject) => void; stopped: boolean }> = []
  const promise = <T>(name: string) =>
    fromPromise<T, unknown>(({ input }) => {
      if (name === 'fetchToken') tokenInputs.push({ stale: (input as { stale: boolean }).stale })
      return new Promise<T>((resolve, reject) => {
        pending[name] = [
          ...(pending[name] ?? []),
          { resolve: resolve as (value: unknown) => void, reject },
        ]
      })
    })
  const machine = relayConnectionMachine.provide({
    actors: {
      fetchToken: promise<TokenOutput>('fetchToken') as never,
      settle: promise<ActorTime>('settle') as never,
      ping: promise<ActorTime>('ping') as never,
      socket: fromCallback(({ sendBack }) => {
        const entry = { sendBack, stopped: false }
        sockets.push(entry)
        return () => {
          entry.stopped = true
        }
      }),
    },
  })
  const actor = createActor(machine, { input: { ...input, ...overrides } })
  const flush = () => vi.advanceTimersByTimeAsync(0)
  const answer = async (name: string, outcome: unknown, fail = false) => {
    await flush()
    const next = pending[name]?.shift()
    if (!next) throw new Error(`${name} is not running`)
    if (fail) next.reject(outcome)
    else next.resolve(outcome)
    await flush()
  }
  const socket = () => sockets.at(-1)
  const view = () => toRelayConnectionView(actor.getSnapshot())
  return {
    actor,
    sockets,
    tokenInputs,
    answer,
    socket,
    view,
    running: (name: string) => (pending[name]?.length ?? 0) > 0,
    /** The last socket opens. */
    open: () => socket()?.sendBack({ type: 'SOCKET.OPEN' }),
    /** The last socket closes with `code`. */
    close: (code: number) => socket()?.sendBack({ type: 'SOCKET.CLOSED', code }),
    state: () => actor.getSnapshot().value,
  }
}

type Script = ReturnType<typeof scripted>
const token = (expiresIn = 3_600_000, at = Date.now()): TokenOutput => ({
  expiresAt: at + expiresIn,
  at,
})
const now = (): ActorTime => ({ at: Date.now() })

async function toOnline(s: Script, expiresIn?: number) {
  s.actor.start()
  s.actor.send({ type: 'CONNECT' })
  await s.answer('fetchToken', token(expiresIn))
  s.open()
  await s.answer('settle', now())
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('relay-connection machine', () => {
  it('default: idle → connecting (token, socket, topics) → online', async () => {
    const s = scripted()
    s.actor.start()
    expect(s.view()).toEqual({ status: 'idle', closed: false })
    s.actor.send({ type: 'CONNECT' })
    expect(s.state()).toEqual({ connecting: 'token' })
    expect(s.view().status).toBe('connecting')
    await s.answer('fetchToken', token())
    expect(s.state()).toEqual({ connecting: 'opening' })
    expect(s.sockets.length).toBe(1)
    s.open()
    expect(s.state()).toEqual({ connecting: 'settling' })
    await s.answer('settle', now())
    expect(s.state()).toEqual({ online: 'ready' })
    expect(s.view()).toEqual({ status: 'online', closed: false })
    expect(s.actor.getSnapshot().hasTag('online')).toBe(true)
    expect(s.tokenInputs).toEqual([{ stale: false }])
  })

  it('behavior: its host reads every status it enters from its snapshots, the close from its output', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 1 } })
    const statuses: string[] = []
    s.actor.subscribe((snapshot) => {
      const status = topState(snapshot.value)
      if (statuses.at(-1) !== status) statuses.push(status)
    })
    await toOnline(s)
    expect(statuses).toEqual(['idle', 'connecting', 'online'])
    s.close(1006)
    expect(statuses.at(-1)).toBe('reconnecting')
    await vi.advanceTimersByTimeAsync(input.backoff.maxMs)
    await s.answer('fetchToken', token())
    s.close(1006)
    expect(statuses.at(-1)).toBe('offline')
    s.actor.send({ type: 'CLOSE' })
    expect(statuses).toEqual(['idle', 'connecting', 'online', 'reconnecting', 'offline', 'closed'])
    expect(s.actor.getSnapshot().output).toEqual({
      error: { code: 'ABORTED', message: 'The relay client was closed.' },
    })
  })

  it('behavior: CONNECT while connecting or online changes nothing', async () => {
    const s = scripted()
    await toOnline(s)
    s.actor.send({ type: 'CONNECT' })
    expect(s.state()).toEqual({ online: 'ready' })
    expect(s.sockets.length).toBe(1)
  })

  it('behavior: a socket lost while online backs off 500, 1000, 2000 ms, keeping the token', async () => {
    const s = scripted()
    await toOnline(s)
    s.close(1001)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    expect(s.sockets[0]?.stopped).toBe(true)
    expect(s.view()).toMatchObject({ status: 'reconnecting', attempt: 1 })
    expect(s.view().error?.message).toMatch(/code 1001/)
    await vi.advanceTimersByTimeAsync(499)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ reconnecting: 'token' })
    expect(s.tokenInputs.at(-1)).toEqual({ stale: false })
    await s.answer('fetchToken', token())
    expect(s.state()).toEqual({ reconnecting: 'opening' })
    // Refused before it opened: its token may be the reason.
    s.close(1006)
    expect(s.view()).toMatchObject({ status: 'reconnecting', attempt: 2 })
    await vi.advanceTimersByTimeAsync(999)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.tokenInputs.at(-1)).toEqual({ stale: true })
    await s.answer('fetchToken', token())
    s.open()
    expect(s.state()).toEqual({ reconnecting: 'settling' })
    await s.answer('settle', now())
    expect(s.view()).toEqual({ status: 'online', closed: false })
    expect(s.actor.getSnapshot().context.attempt).toBe(0)
    // The budget is whole again: the next loss starts at 500 ms.
    s.close(1006)
    await vi.advanceTimersByTimeAsync(500)
    expect(s.state()).toEqual({ reconnecting: 'token' })
  })

  it('error: offline once the attempts are spent; RECONNECT starts over with a fresh budget', async () => {
    const s = scripted()
    await toOnline(s)
    s.close(1006)
    for (const wait of [500, 1000, 2000]) {
      await vi.advanceTimersByTimeAsync(wait)
      await s.answer('fetchToken', token())
      s.close(1006)
    }
    expect(s.state()).toBe('offline')
    expect(s.view()).toMatchObject({ status: 'offline', error: { code: 'RELAY_ERROR' } })
    s.actor.send({ type: 'RECONNECT' })
    expect(s.state()).toEqual({ reconnecting: 'token' })
    expect(s.view().attempt).toBeUndefined()
    await s.answer('fetchToken', token())
    s.open()
    await s.answer('settle', now())
    expect(s.view().status).toBe('online')
  })

  it('behavior: CONNECT from offline tries again, like RECONNECT', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 0 } })
    await toOnline(s)
    s.close(1006)
    expect(s.state()).toBe('offline')
    s.actor.send({ type: 'CONNECT' })
    expect(s.state()).toEqual({ reconnecting: 'token' })
  })

  it('behavior: RECONNECT while waiting tries at once; mid-attempt it only renews the budget', async () => {
    const s = scripted()
    await toOnline(s)
    s.close(1006)
    s.close(1006) // a stray report of the dropped socket changes nothing
    expect(s.actor.getSnapshot().context.attempt).toBe(1)
    s.actor.send({ type: 'RECONNECT' })
    expect(s.state()).toEqual({ reconnecting: 'token' })
    expect(s.actor.getSnapshot().context.attempt).toBe(0)
    await s.answer('fetchToken', token())
    s.close(1006)
    expect(s.actor.getSnapshot().context.attempt).toBe(1)
    await vi.advanceTimersByTimeAsync(500)
    await s.answer('fetchToken', token())
    s.actor.send({ type: 'RECONNECT' })
    expect(s.state()).toEqual({ reconnecting: 'opening' })
    expect(s.actor.getSnapshot().context.attempt).toBe(0)
    expect(s.sockets.length).toBe(3)
  })

  it('behavior: close 4001 reconnects at once with a fresh token', async () => {
    const s = scripted()
    await toOnline(s)
    s.close(4001)
    expect(s.state()).toEqual({ reconnecting: 'token' })
    expect(s.tokenInputs.at(-1)).toEqual({ stale: true })
    expect(s.view().error?.message).toMatch(/token expired/)
    await s.answer('fetchToken', token())
    s.open()
    await s.answer('settle', now())
    expect(s.view().status).toBe('online')
  })

  it('behavior: close 4001 while settling also takes a fresh token at once', async () => {
    const s = scripted()
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer('fetchToken', token())
    s.open()
    s.close(4001)
    expect(s.state()).toEqual({ reconnecting: 'token' })
  })

  it('behavior: a socket lost while settling backs off, keeping the token', async () => {
    const s = scripted()
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer('fetchToken', token())
    s.open()
    s.close(1001)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    expect(s.actor.getSnapshot().context.tokenStale).toBe(false)
  })

  it('behavior: token refresh 5 s before expiry, from the clock the actors reported', async () => {
    const s = scripted({ keepaliveMs: 0 })
    await toOnline(s, 60_000)
    await vi.advanceTimersByTimeAsync(54_999)
    expect(s.state()).toEqual({ online: 'ready' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ reconnecting: 'token' })
    expect(s.tokenInputs.at(-1)).toEqual({ stale: true })
    expect(s.sockets[0]?.stopped).toBe(true)
    expect(s.view()).toMatchObject({ status: 'reconnecting' })
    expect(s.view().attempt).toBeUndefined()
  })

  it('behavior: a token about to expire is refreshed after at least 1 s', async () => {
    const s = scripted({ keepaliveMs: 0 })
    await toOnline(s, 2_000)
    await vi.advanceTimersByTimeAsync(999)
    expect(s.state()).toEqual({ online: 'ready' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ reconnecting: 'token' })
  })

  it('behavior: keepalive pings every 25 s; an answer keeps the socket', async () => {
    const s = scripted()
    await toOnline(s)
    await vi.advanceTimersByTimeAsync(24_999)
    expect(s.state()).toEqual({ online: 'ready' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ online: 'pinging' })
    await s.answer('ping', now())
    expect(s.state()).toEqual({ online: 'ready' })
    await vi.advanceTimersByTimeAsync(25_000)
    expect(s.state()).toEqual({ online: 'pinging' })
    // A refused ping is no reason to drop the socket.
    await s.answer('ping', new AppError('RELAY_ERROR', 'refused'), true)
    expect(s.state()).toEqual({ online: 'ready' })
    expect(s.sockets.length).toBe(1)
  })

  it('error: a keepalive miss (no answer within the request timeout) drops and reconnects', async () => {
    const s = scripted()
    await toOnline(s)
    await vi.advanceTimersByTimeAsync(25_000)
    expect(s.state()).toEqual({ online: 'pinging' })
    await vi.advanceTimersByTimeAsync(9_999)
    expect(s.state()).toEqual({ online: 'pinging' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    expect(s.sockets[0]?.stopped).toBe(true)
    expect(s.view().error?.message).toMatch(/scr_ping/)
  })

  it('error: a keepalive miss with no attempts left is offline', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 0 } })
    await toOnline(s)
    await vi.advanceTimersByTimeAsync(35_000)
    expect(s.state()).toBe('offline')
  })

  it('parameters: keepaliveMs 0 turns pings off', async () => {
    const s = scripted({ keepaliveMs: 0 })
    await toOnline(s)
    await vi.advanceTimersByTimeAsync(100_000)
    expect(s.state()).toEqual({ online: 'ready' })
  })

  it('error: a refused token (401) is final: offline with that error', async () => {
    const s = scripted()
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer(
      'fetchToken',
      new AppError('BACKEND_ERROR', 'HTTP 401', { status: 401, backendCode: 'INVALID_APP_KEY' }),
      true,
    )
    expect(s.state()).toBe('offline')
    expect(s.view().error).toMatchObject({ code: 'BACKEND_ERROR', status: 401 })
    expect(s.sockets.length).toBe(0)
  })

  it('error: a refused token while reconnecting is final too', async () => {
    const s = scripted()
    await toOnline(s)
    s.close(4001)
    await s.answer('fetchToken', new AppError('INVALID_CONFIG', 'no app key'), true)
    expect(s.state()).toBe('offline')
  })

  it('error: a token source that is down (503) is retried with backoff, then offline', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 1 } })
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    const down = new AppError('BACKEND_ERROR', 'HTTP 503', { status: 503 })
    await s.answer('fetchToken', down, true)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    await vi.advanceTimersByTimeAsync(500)
    await s.answer('fetchToken', down, true)
    expect(s.state()).toBe('offline')
  })

  it('error: a refused first socket backs off with a fresh token; no attempts left is offline', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 1 } })
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer('fetchToken', token())
    s.close(1006)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    expect(s.actor.getSnapshot().context.tokenStale).toBe(true)
    await vi.advanceTimersByTimeAsync(500)
    await s.answer('fetchToken', token())
    s.close(1006)
    expect(s.state()).toBe('offline')
  })

  it('error: a failed resubscription drops the socket and backs off', async () => {
    const s = scripted({ backoff: { ...input.backoff, maxAttempts: 1 } })
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer('fetchToken', token())
    s.open()
    await s.answer('settle', new AppError('RELAY_ERROR', 'subscribe timed out'), true)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    expect(s.sockets[0]?.stopped).toBe(true)
    expect(s.view().error?.message).toMatch(/subscribe timed out/)
    await vi.advanceTimersByTimeAsync(500)
    await s.answer('fetchToken', token())
    s.open()
    expect(s.state()).toEqual({ reconnecting: 'settling' })
    await s.answer('settle', new AppError('RELAY_ERROR', 'again'), true)
    expect(s.state()).toBe('offline')
  })

  it('error: a relay that says try again later is not retried before 10 s', async () => {
    const s = scripted()
    s.actor.start()
    s.actor.send({ type: 'CONNECT' })
    await s.answer(
      'fetchToken',
      new AppError('BACKEND_ERROR', 'busy', { status: 503, backendCode: 'TRY_AGAIN_LATER' }),
      true,
    )
    await vi.advanceTimersByTimeAsync(9_999)
    expect(s.state()).toEqual({ reconnecting: 'waiting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.state()).toEqual({ reconnecting: 'token' })
  })

  it('behavior: CLOSE ends it from any state, socket stopped, ABORTED', async () => {
    const s = scripted()
    await toOnline(s)
    s.actor.send({ type: 'CLOSE' })
    expect(s.actor.getSnapshot().status).toBe('done')
    expect(s.sockets[0]?.stopped).toBe(true)
    expect(s.view()).toMatchObject({ status: 'offline', closed: true, error: { code: 'ABORTED' } })
    const idle = scripted()
    idle.actor.start()
    idle.actor.send({ type: 'CLOSE' })
    expect(idle.view().closed).toBe(true)
  })

  describe('every failure of every step, in connecting and in reconnecting', () => {
    const down = () => new AppError('BACKEND_ERROR', 'HTTP 503', { status: 503 })
    /** Runs up to `step` of a first connection (`connecting`) or of a reconnect (`reconnecting`). */
    async function upTo(
      phase: 'connecting' | 'reconnecting',
      step: 'token' | 'settling',
      maxAttempts: number,
    ) {
      const s = scripted({ backoff: { ...input.backoff, maxAttempts } })
      if (phase === 'connecting') {
        s.actor.start()
        s.actor.send({ type: 'CONNECT' })
      } else {
        await toOnline(s)
        s.close(4001) // straight to reconnecting.token, attempt 0
      }
      expect(s.state()).toEqual({ [phase]: 'token' })
      if (step === 'settling') {
        await s.answer('fetchToken', token())
        s.open()
        expect(s.state()).toEqual({ [phase]: 'settling' })
      }
      return s
    }
    const phases = ['connecting', 'reconnecting'] as const

    it.each(phases)(
      'error: %s.token, the token source down: waiting, or offline without attempts',
      async (phase) => {
        const s = await upTo(phase, 'token', 1)
        await s.answer('fetchToken', down(), true)
        expect(s.state()).toEqual({ reconnecting: 'waiting' })
        expect(s.view()).toMatchObject({ attempt: 1, error: { status: 503 } })
        const o = await upTo(phase, 'token', 0)
        await o.answer('fetchToken', down(), true)
        expect(o.state()).toBe('offline')
      },
    )

    it.each(phases)(
      'error: %s.settling fails: waiting, or offline without attempts',
      async (phase) => {
        const s = await upTo(phase, 'settling', 1)
        await s.answer('settle', new AppError('RELAY_ERROR', 'x'), true)
        expect(s.state()).toEqual({ reconnecting: 'waiting' })
        const o = await upTo(phase, 'settling', 0)
        await o.answer('settle', new AppError('RELAY_ERROR', 'x'), true)
        expect(o.state()).toBe('offline')
      },
    )

    it.each(phases)(
      'error: %s.settling loses its socket: waiting, or offline without attempts; 4001: a new token',
      async (phase) => {
        const s = await upTo(phase, 'settling', 1)
        s.close(1006)
        expect(s.state()).toEqual({ reconnecting: 'waiting' })
        expect(s.view()).toMatchObject({ attempt: 1 })
        const o = await upTo(phase, 'settling', 0)
        o.close(1006)
        expect(o.state()).toBe('offline')
        const t = await upTo(phase, 'settling', 0)
        t.close(4001)
        expect(t.state()).toEqual({ reconnecting: 'token' })
        expect(t.tokenInputs.at(-1)).toEqual({ stale: true })
      },
    )

    it.each(phases)(
      'error: %s.opening refused: waiting with a stale token, or offline without attempts',
      async (phase) => {
        const s = await upTo(phase, 'token', 1)
        await s.answer('fetchToken', token())
        s.close(1006)
        expect(s.state()).toEqual({ reconnecting: 'waiting' })
        expect(s.actor.getSnapshot().context.tokenStale).toBe(true)
        const o = await upTo(phase, 'token', 0)
        await o.answer('fetchToken', token())
        o.close(1006)
        expect(o.state()).toBe('offline')
      },
    )
  })
})
