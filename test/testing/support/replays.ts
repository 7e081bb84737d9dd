import { afterEach, beforeEach, vi } from 'vitest'
import type { ClientPathDriver } from '../../../src/testing'

/**
 * The generated paths on the real Client with no UI: the driver calls the method itself, as a UI
 * handler would, and checks nothing of its own (the runner compares the Client's view).
 */
export const headless: ClientPathDriver = {
  mount: () => {},
  act: (action, client) => {
    action.run(client).catch(() => {})
  },
  expect: () => {},
}

/**
 * Every test of the file on vitest's fake timers (a named timeout passes at once); returns the
 * runner's `wait`, which advances them. Load the lazy chunks first (`preloadClientPaths`).
 */
export function useVirtualTime(): (ms: number) => Promise<void> {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  return async (ms) => {
    await vi.advanceTimersByTimeAsync(ms)
  }
}
