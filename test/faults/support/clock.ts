import { afterAll, beforeAll, vi } from 'vitest'

/**
 * The fault tests' clock: the Client's on-demand chunks load once on the real clock (later dynamic
 * imports are cached promises), then timers, `Date` and `performance` are fake, so every named timeout, the HTTP
 * timeout and the relay's waits pass in microseconds. Microtasks stay real.
 */
export function useFaultClock(): void {
  beforeAll(async () => {
    await Promise.all([
      import('../../../src/client/lazy/readers'),
      import('../../../src/client/lazy/wallet'),
      import('../../../src/client/lazy/route'),
      import('../../../machines/session-polling/session-polling.actors'),
      import('../../../src/client/lazy/pairing'),
      // `resume()`'s chunk: loaded on the fake clock, the first resume outlived every named timeout.
      import('../../../src/client/lazy/resume'),
      import('../../../src/client/lazy/inspector'),
      import('../../../src/universal-link/lazy/connector'),
      import('../../../src/client/lazy/link'),
      import('../../../src/client/lazy/transaction'),
      import('../../../src/connectors/switch-chain'),
      // The parameter checks: a call before they load waits for them, and a load that outlasts the
      // virtual settle time (a busy machine) left the call pending (the regression file's first test).
      import('../../../src/client/check').then((module) => module.loadParameterChecks()),
    ])
    vi.useFakeTimers({
      // `performance` too: the Client's deadlines run on `performance.now()` (issue 27), and a
      // clock-jump fault moves `Date` alone (`vi.setSystemTime`).
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    })
  })
  afterAll(() => {
    vi.useRealTimers()
  })
}
