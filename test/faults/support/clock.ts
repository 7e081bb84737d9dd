import { afterAll, beforeAll, vi } from 'vitest'

/**
 * The fault tests' clock: the Client's on-demand chunks load once on the real clock (later dynamic
 * imports are cached promises), then timers and `Date` are fake, so every named timeout, the HTTP
 * timeout and the relay's waits pass in microseconds. Microtasks stay real.
 */
export function useFaultClock(): void {
  beforeAll(async () => {
    await Promise.all([
      import('../../../src/client/lazy/readers'),
      import('../../../src/client/lazy/wallet'),
      import('../../../src/client/lazy/pairing'),
      import('../../../src/client/lazy/inspector'),
      import('../../../src/universal-link/lazy/connector'),
    ])
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    })
  })
  afterAll(() => {
    vi.useRealTimers()
  })
}
