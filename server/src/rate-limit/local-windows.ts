import { createFixedWindows } from '../store/fixed-windows'
import type { CounterStore } from '../store/types'

export interface LocalWindows extends Required<CounterStore> {
  /** Drops windows that have reset; returns how many went. */
  sweep(): number
  /** Live windows, for tests and metrics. */
  size(): number
  /** Stops the background sweep. */
  close(): void
}

/**
 * Fixed windows in this process: the limiter's floor while the shared store is away (the memory
 * store's counters, with a background sweep of their own).
 */
export function createLocalWindows(
  options: { now?: () => number; sweepIntervalMs?: number } = {},
): LocalWindows {
  const now = options.now ?? Date.now
  const windows = createFixedWindows(now)
  const sweep = (): number => windows.sweep(now())
  const sweepIntervalMs = options.sweepIntervalMs ?? 30_000
  // unref: the sweep must never keep a process alive on its own.
  const timer = sweepIntervalMs > 0 ? setInterval(sweep, sweepIntervalMs).unref() : undefined

  return {
    hitWindow: async (key, windowMs) => windows.hit(key, windowMs),
    hitWithCeiling: async (request) => windows.hitWithCeiling(request),
    sweep,
    size: () => windows.size(),
    close: () => {
      if (timer) clearInterval(timer)
    },
  }
}
