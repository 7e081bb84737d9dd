import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSessionPollingActor } from '../../machines/session-polling/session-polling.facade'
import { AppError } from '../../src/errors'
import { pollGenericSessionResult } from '../../src/session/face/poll'
import {
  gaps,
  http,
  network,
  result,
  SESSION_ID,
  scriptedClient,
  TOKEN,
} from './support/fake-session'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-08-20T10:00:00Z') })
})
afterEach(() => {
  vi.useRealTimers()
})

const session = { sessionId: SESSION_ID, sessionToken: TOKEN }

/** The fake session is on EVM: a 32-byte transaction hash (wallet answers are checked, issue 27). */
const TX_SIGNATURE = `0x${'5e'.repeat(32)}`
describe('poll cadence', () => {
  it('keeps every gap between 1.5 and 2 s with the default random jitter', async () => {
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(60_000)
    actor.stop()
    expect(client.calls.length).toBeGreaterThanOrEqual(30)
    for (const gap of gaps(client.calls)) {
      expect(gap).toBeGreaterThanOrEqual(1500)
      expect(gap).toBeLessThanOrEqual(2000)
    }
    // Jitter: not every gap is the same.
    expect(new Set(gaps(client.calls)).size).toBeGreaterThan(1)
  })

  it('draws the delay from the injected random source', async () => {
    const draws = [0, 0.999999, 0.5]
    let i = 0
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, {
      session,
      random: () => draws[i++ % draws.length]!,
    }).start()
    await vi.advanceTimersByTimeAsync(11_000)
    actor.stop()
    expect(gaps(client.calls).slice(0, 6)).toEqual([1500, 2000, 1750, 1500, 2000, 1750])
  })

  it('sends the token only to getResult, via the vault', async () => {
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(client.calls.every((c) => c.token === TOKEN)).toBe(true)
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain(TOKEN)
    actor.stop()
  })
})

describe('retries', () => {
  it('waits for Retry-After on 429, at least the normal interval', async () => {
    const client = scriptedClient([
      result('pending'),
      http(429, 'RATE_LIMITED', 7000),
      http(429, 'RATE_LIMITED', 100),
      result('pending'),
      result('signed'),
    ])
    const actor = createSessionPollingActor(client, { session, random: () => 0 }).start()
    await vi.advanceTimersByTimeAsync(20_000)
    expect(gaps(client.calls)).toEqual([1500, 7000, 1500, 1500])
    expect(actor.getSnapshot().value).toBe('signed')
  })

  it('backs off exponentially on transient failures, up to 30 s, then resets', async () => {
    const failures = Array.from({ length: 8 }, (_, i) =>
      i % 2 ? http(503, 'STORE_UNAVAILABLE') : network(),
    )
    const client = scriptedClient([...failures, result('pending'), result('pending')])
    const actor = createSessionPollingActor(client, { session, random: () => 0.5 }).start()
    await vi.advanceTimersByTimeAsync(200_000)
    actor.stop()
    expect(gaps(client.calls).slice(0, 9)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 1750,
    ])
  })

  it('applies ±25 % jitter to the backoff and still grows', async () => {
    let flip = 0
    const client = scriptedClient([network()])
    const actor = createSessionPollingActor(client, {
      session,
      random: () => (flip++ % 2 ? 0.999 : 0),
    }).start()
    await vi.advanceTimersByTimeAsync(60_000)
    actor.stop()
    const g = gaps(client.calls).slice(0, 5)
    expect(g).toEqual([750, 2499, 3000, 9996, 12_000])
    for (let k = 1; k < g.length; k++) expect(g[k]!).toBeGreaterThan(g[k - 1]!)
  })

  it('keeps the last transient error in context while retrying, and clears it after success', async () => {
    const client = scriptedClient([network(), result('pending')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(actor.getSnapshot().context.lastError?.code).toBe('BACKEND_ERROR')
    await vi.advanceTimersByTimeAsync(2000)
    expect(actor.getSnapshot().context.lastError).toBeNull()
    actor.stop()
  })
})

describe('after the wallet connected', () => {
  it('waits for Retry-After on 429 and keeps showing the wallet as connected', async () => {
    const client = scriptedClient([
      result('connected'),
      http(429, 'RATE_LIMITED', 7000),
      result('connected'),
      result('signed'),
    ])
    const actor = createSessionPollingActor(client, { session, random: () => 0 }).start()
    await vi.advanceTimersByTimeAsync(1600)
    expect(client.calls).toHaveLength(2)
    expect(actor.getSnapshot().matches({ connected: 'sleeping' })).toBe(true)
    expect(actor.getSnapshot().context.lastError?.status).toBe(429)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(gaps(client.calls)).toEqual([1500, 7000, 1500])
    expect(actor.getSnapshot().value).toBe('signed')
  })

  it('backs off on a network error or a 5xx and keeps showing the wallet as connected', async () => {
    const client = scriptedClient([
      result('connected'),
      network(),
      http(503, 'STORE_UNAVAILABLE'),
      result('connected'),
      result('signed'),
    ])
    const actor = createSessionPollingActor(client, { session, random: () => 0.5 }).start()
    await vi.advanceTimersByTimeAsync(1800)
    expect(client.calls).toHaveLength(2)
    expect(actor.getSnapshot().matches({ connected: 'sleeping' })).toBe(true)
    expect(actor.getSnapshot().context.lastError?.code).toBe('BACKEND_ERROR')
    await vi.advanceTimersByTimeAsync(20_000)
    expect(gaps(client.calls)).toEqual([1750, 1000, 2000, 1750])
    expect(actor.getSnapshot().value).toBe('signed')
  })

  it('POLL_NOW skips the wait', async () => {
    const client = scriptedClient([result('connected')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(100)
    expect(actor.getSnapshot().matches({ connected: 'sleeping' })).toBe(true)
    actor.send({ type: 'POLL_NOW' })
    await vi.advanceTimersByTimeAsync(10)
    expect(client.calls).toHaveLength(2)
    expect(actor.getSnapshot().matches({ connected: 'sleeping' })).toBe(true)
    actor.stop()
  })
})

describe('limits', () => {
  it('expires at the deadline: the last lookup happens at the deadline, none after', async () => {
    const start = Date.now()
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, {
      session,
      timeoutMs: 10_000,
      random: () => 0,
    }).start()
    await vi.advanceTimersByTimeAsync(30_000)
    const snapshot = actor.getSnapshot()
    expect(snapshot.value).toBe('expired')
    expect(snapshot.output).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED' } })
    expect(client.calls.at(-1)!.at - start).toBe(10_000)
    expect(client.calls.every((c) => c.at - start <= 10_000)).toBe(true)
    expect(snapshot.context.deadline).toBe(start + 10_000)
  })

  it('caps the deadline with the session expiry', async () => {
    const start = Date.now()
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, {
      session: { ...session, expiresAt: start + 4000 },
    }).start()
    expect(actor.getSnapshot().context.deadline).toBe(start + 4000)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(actor.getSnapshot().value).toBe('expired')
  })

  it('stops after maxAttempts lookups', async () => {
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, { session, maxAttempts: 3 }).start()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(client.calls).toHaveLength(3)
    expect(actor.getSnapshot().value).toBe('expired')
    expect(actor.getSnapshot().context.error?.message).toContain('after 3 attempts')
  })

  it('counts failed lookups toward the attempt cap', async () => {
    const client = scriptedClient([network()])
    const actor = createSessionPollingActor(client, { session, maxAttempts: 4 }).start()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(client.calls).toHaveLength(4)
    expect(actor.getSnapshot().context.error).toMatchObject({ code: 'SESSION_EXPIRED' })
  })
})

describe('outcomes', () => {
  it('goes waiting → connected → signed', async () => {
    const client = scriptedClient([
      result('pending'),
      result('connected'),
      result('connected'),
      result('signed'),
    ])
    const actor = createSessionPollingActor(client, { session })
    const values: string[] = []
    actor.subscribe((s) => values.push(JSON.stringify(s.value)))
    actor.start()
    await vi.advanceTimersByTimeAsync(10_000)
    const distinct = values.filter((v, i) => v !== values[i - 1])
    expect(distinct).toEqual([
      '{"waiting":"fetching"}',
      '{"waiting":"sleeping"}',
      '{"waiting":"fetching"}',
      '{"connected":"sleeping"}',
      '{"connected":"fetching"}',
      '{"connected":"sleeping"}',
      '{"connected":"fetching"}',
      '"signed"',
    ])
    expect(actor.getSnapshot().output).toMatchObject({ ok: true, result: { status: 'signed' } })
  })

  it('completes at connected when the target is connected', async () => {
    const client = scriptedClient([result('pending'), result('connected')])
    const actor = createSessionPollingActor(client, { session, target: 'connected' }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().value).toBe('complete')
    expect(client.calls).toHaveLength(2)
  })

  it('completes on a txSignature when the target is transaction', async () => {
    const client = scriptedClient([
      result('connected'),
      result('connected', { txSignature: TX_SIGNATURE }),
    ])
    const actor = createSessionPollingActor(client, { session, target: 'transaction' }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().value).toBe('complete')
    expect(actor.getSnapshot().output).toMatchObject({
      ok: true,
      result: { txSignature: TX_SIGNATURE },
    })
  })

  it.each([
    ['status rejected', 'rejected', 'USER_REJECTED', result('rejected')],
    ['status failed', 'failed', 'SESSION_FAILED', result('failed')],
    ['status expired', 'expired', 'SESSION_EXPIRED', result('expired')],
    ['HTTP 410', 'expired', 'SESSION_EXPIRED', http(410, 'SESSION_EXPIRED')],
    ['HTTP 404', 'failed', 'BACKEND_ERROR', http(404, 'SESSION_NOT_FOUND')],
    ['HTTP 401', 'failed', 'BACKEND_ERROR', http(401, 'INVALID_SESSION_TOKEN')],
  ] as const)('%s ends in %s with %s', async (_name, state, code, step) => {
    const client = scriptedClient([result('pending'), step])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().value).toBe(state)
    expect(actor.getSnapshot().context.error?.code).toBe(code)
    expect(client.calls).toHaveLength(2)
  })

  it('cancels while sleeping and makes no further lookups', async () => {
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(100)
    actor.send({ type: 'CANCEL' })
    await vi.advanceTimersByTimeAsync(20_000)
    expect(actor.getSnapshot().value).toBe('cancelled')
    expect(actor.getSnapshot().context.error?.code).toBe('ABORTED')
    expect(client.calls).toHaveLength(1)
  })

  it('POLL_NOW skips the wait', async () => {
    const client = scriptedClient([result('pending')])
    const actor = createSessionPollingActor(client, { session }).start()
    await vi.advanceTimersByTimeAsync(100)
    actor.send({ type: 'POLL_NOW' })
    await vi.advanceTimersByTimeAsync(10)
    expect(client.calls).toHaveLength(2)
    actor.stop()
  })

  it('creates the session first when asked, keeping its token out of the snapshot', async () => {
    const client = scriptedClient([result('pending'), result('connected')])
    const actor = createSessionPollingActor(client, {
      create: { caip2Chain: 'eip155:1', walletSlug: 'metamask' },
    }).start()
    const values: string[] = []
    actor.subscribe((s) => values.push(JSON.stringify(s.value)))
    await vi.advanceTimersByTimeAsync(5000)
    expect(client.created).toBe(1)
    // Until the wallet answers, the session is shown as waiting for it.
    expect(values.filter((v, i) => v !== values[i - 1])).toEqual([
      '{"waiting":"fetching"}',
      '{"waiting":"sleeping"}',
      '{"waiting":"fetching"}',
      '"complete"',
    ])
    expect(actor.getSnapshot().value).toBe('complete')
    expect(actor.getSnapshot().context.session?.sessionId).toBe(SESSION_ID)
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain(TOKEN)
  })
})

describe('pollGenericSessionResult', () => {
  it('resolves with the signed result and reports each status once', async () => {
    const client = scriptedClient([
      result('pending'),
      result('pending'),
      result('connected'),
      result('signed'),
    ])
    const updates: string[] = []
    const promise = pollGenericSessionResult(client, SESSION_ID, TOKEN, {
      onUpdate: (r) => updates.push(r.status),
    })
    await vi.advanceTimersByTimeAsync(10_000)
    await expect(promise).resolves.toMatchObject({ status: 'signed', signed: true })
    expect(updates).toEqual(['pending', 'connected', 'signed'])
  })

  it.each([
    ['USER_REJECTED', 'rejected', result('rejected')],
    ['SESSION_FAILED', 'failed', result('failed')],
    ['SESSION_EXPIRED', '410', http(410, 'SESSION_EXPIRED')],
    ['BACKEND_ERROR', '404', http(404, 'SESSION_NOT_FOUND')],
  ] as const)('rejects with %s on %s', async (code, _name, step) => {
    const client = scriptedClient([step])
    const promise = pollGenericSessionResult(client, SESSION_ID, TOKEN)
    const settled = promise.catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(5000)
    const error = await settled
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe(code)
  })

  it('rejects with SESSION_EXPIRED at timeoutMs and with ABORTED when the signal aborts', async () => {
    const a = pollGenericSessionResult(scriptedClient([result('pending')]), SESSION_ID, TOKEN, {
      timeoutMs: 5000,
    }).catch((e: AppError) => e.code)
    const controller = new AbortController()
    const client = scriptedClient([result('pending')])
    const b = pollGenericSessionResult(client, SESSION_ID, TOKEN, {
      signal: controller.signal,
    }).catch((e: AppError) => e.code)
    await vi.advanceTimersByTimeAsync(3000)
    controller.abort()
    const callsAtAbort = client.calls.length
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await a).toBe('SESSION_EXPIRED')
    expect(await b).toBe('ABORTED')
    expect(client.calls).toHaveLength(callsAtAbort)
  })

  it('rejects with ABORTED at once for an already aborted signal', async () => {
    const client = scriptedClient([result('signed')])
    const error = await pollGenericSessionResult(client, SESSION_ID, TOKEN, {
      signal: AbortSignal.abort(),
    }).catch((e: AppError) => e)
    expect((error as AppError).code).toBe('ABORTED')
    expect(client.calls).toHaveLength(0)
  })

  it('honours until and a fixed intervalMs', async () => {
    const client = scriptedClient([result('pending'), result('pending'), result('connected')])
    const promise = pollGenericSessionResult(client, SESSION_ID, TOKEN, {
      until: 'connected',
      intervalMs: 1000,
    })
    await vi.advanceTimersByTimeAsync(5000)
    await expect(promise).resolves.toMatchObject({ status: 'connected' })
    expect(gaps(client.calls)).toEqual([1000, 1000])
  })
})

// Every way a poll ends after the wallet connected, and the failure limits of either phase: each
// test drives the failure through the backend (a status, an HTTP error, a network error at the
// deadline or at the attempt cap) and checks the end state, its error and how many lookups it took.
describe('failures', () => {
  it.each([
    ['status rejected', 'rejected', 'USER_REJECTED', result('rejected')],
    ['status failed', 'failed', 'SESSION_FAILED', result('failed')],
    ['status expired', 'expired', 'SESSION_EXPIRED', result('expired')],
    ['HTTP 410', 'expired', 'SESSION_EXPIRED', http(410, 'SESSION_EXPIRED')],
    ['HTTP 404', 'failed', 'BACKEND_ERROR', http(404, 'SESSION_NOT_FOUND')],
  ] as const)(
    'after the wallet connected, %s ends in %s with %s',
    async (_name, state, code, step) => {
      const client = scriptedClient([result('connected'), step])
      const actor = createSessionPollingActor(client, { session }).start()
      await vi.advanceTimersByTimeAsync(5000)
      expect(actor.getSnapshot().value).toBe(state)
      expect(actor.getSnapshot().context.error?.code).toBe(code)
      expect(client.calls).toHaveLength(2)
    },
  )

  it.each([
    ['while waiting', [network()]],
    ['after the wallet connected', [result('connected'), network()]],
  ])(
    'a network error at the deadline ends in expired %s, with no lookup after it',
    async (_name, steps) => {
      const start = Date.now()
      const client = scriptedClient(steps)
      const actor = createSessionPollingActor(client, {
        session,
        timeoutMs: 10_000,
        random: () => 0,
      }).start()
      await vi.advanceTimersByTimeAsync(30_000)
      expect(actor.getSnapshot().value).toBe('expired')
      expect(actor.getSnapshot().context.error).toMatchObject({ code: 'SESSION_EXPIRED' })
      expect(actor.getSnapshot().context.error?.message).toContain('passed its deadline')
      expect(actor.getSnapshot().context.error?.message).toContain('ECONNREFUSED')
      expect(client.calls.at(-1)!.at - start).toBe(10_000)
      expect(client.calls.filter((c) => c.at - start === 10_000)).toHaveLength(1)
    },
  )

  it('after the wallet connected, a lookup at the deadline ends in expired', async () => {
    const start = Date.now()
    const client = scriptedClient([result('connected')])
    const actor = createSessionPollingActor(client, {
      session,
      timeoutMs: 10_000,
      random: () => 0,
    }).start()
    await vi.advanceTimersByTimeAsync(30_000)
    expect(actor.getSnapshot().value).toBe('expired')
    expect(actor.getSnapshot().context.error?.message).toContain('passed its deadline')
    expect(client.calls.at(-1)!.at - start).toBe(10_000)
    expect(client.calls.filter((c) => c.at - start === 10_000)).toHaveLength(1)
  })

  it.each([
    ['answers', [result('connected')]],
    ['failed lookups', [result('connected'), network()]],
  ])('after the wallet connected, stops after maxAttempts lookups (%s)', async (_name, steps) => {
    const client = scriptedClient(steps)
    const actor = createSessionPollingActor(client, { session, maxAttempts: 3 }).start()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(client.calls).toHaveLength(3)
    expect(actor.getSnapshot().value).toBe('expired')
    expect(actor.getSnapshot().context.error?.message).toContain('after 3 attempts')
  })

  it('a failed session creation ends in failed with the backend error, without polling', async () => {
    const client = scriptedClient([result('pending')])
    const failing = {
      getResult: client.getResult,
      createSession: async () => {
        throw http(503, 'STORE_UNAVAILABLE')
      },
    }
    const actor = createSessionPollingActor(failing, {
      create: { caip2Chain: 'eip155:1', walletSlug: 'metamask' },
    }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().status).toBe('done')
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().output).toMatchObject({
      ok: false,
      error: { code: 'BACKEND_ERROR', status: 503, backendCode: 'STORE_UNAVAILABLE' },
      session: null,
    })
    expect(client.calls).toHaveLength(0)
  })
})
