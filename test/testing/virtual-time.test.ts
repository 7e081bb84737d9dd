import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import {
  getClientPaths,
  openClientPaths,
  PATH_TIMEOUTS,
  preloadClientPaths,
  runClientPath,
} from '../../src/testing'
import { headless } from './support/replays'

// The runner on virtual time: every wait goes through `options.wait`, so under fake timers a
// named timeout passes at once; the lazy chunks are loaded first, on real time.

const desktop = getClientPaths({ flows: ['desktop'] })
/** A path that waits out `signatureMs` (1 s of `PATH_TIMEOUTS`) and signs again after it. */
const timedOut = desktop.find((path) =>
  /signs a message → nobody answers: signatureMs passes → signs a message$/.test(path.description),
)

beforeAll(async () => {
  expect(timedOut).toBeDefined()
  expect(await preloadClientPaths([timedOut!])).toBe(1)
}, 30_000)

afterEach(() => {
  vi.useRealTimers()
})

describe('behavior: a run on fake timers', () => {
  it('passes a named timeout on the fake clock, in far less real time', async () => {
    vi.useFakeTimers()
    const realStart = vi.getRealSystemTime()
    const fakeStart = Date.now()
    const waits: number[] = []
    const run = await runClientPath(timedOut!, headless, {
      wait: async (ms) => {
        waits.push(ms)
        await vi.advanceTimersByTimeAsync(ms)
      },
    })
    // The time step waited the timeout (and a margin) on the fake clock.
    expect(waits).toContain(PATH_TIMEOUTS.signatureMs + 150)
    expect(Date.now() - fakeStart).toBeGreaterThanOrEqual(PATH_TIMEOUTS.signatureMs)
    expect(vi.getRealSystemTime() - realStart).toBeLessThan(PATH_TIMEOUTS.signatureMs)
    expect(run.views.some((view) => view.error?.code === 'TIMEOUT')).toBe(true)
    expect(run.views.at(-1)).toMatchObject({ status: 'signing' })
  })

  it('counts settleMs by what it waited: a view that never comes fails after settleMs of waits', async () => {
    vi.useFakeTimers()
    const path = timedOut!
    const wrong = {
      ...path,
      steps: path.steps.map((step, i) =>
        i === 0 ? { ...step, expected: { ...step.expected, status: 'pairing' as const } } : step,
      ),
    }
    let waited = 0
    const failure = await runClientPath(wrong, headless, {
      settleMs: 500,
      wait: async (ms) => {
        waited += ms
        await vi.advanceTimersByTimeAsync(ms)
      },
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(String(failure)).toContain('status: "connecting", expected "pairing"')
    expect(waited).toBeGreaterThanOrEqual(500)
    expect(waited).toBeLessThan(600)
  })
})

describe('error: the entry points of virtual time check their arguments', () => {
  it('preloadClientPaths with no list of paths: INVALID_CONFIG', async () => {
    const error = await preloadClientPaths({} as never).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    expect((error as Error).message).toContain('preloadClientPaths paths')
  })

  it('openClientPaths with clock: true and a page without a clock: INVALID_CONFIG', async () => {
    // Not a page: an object with the four functions the fixture calls, and no `clock`.
    const noClock = {
      exposeFunction: async () => {},
      goto: async () => {},
      waitForFunction: async () => {},
      evaluate: async () => [],
    }
    const error = await openClientPaths(noClock as never, 'http://x.test', { clock: true }).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    expect((error as Error).message).toContain('openClientPaths page.clock')
  })
})
