import type { CounterStore, WindowHit } from '../store/types'

export interface LocalWindows extends CounterStore {
  /** Drops windows that have reset; returns how many went. */
  sweep(): number
  /** Live windows, for tests and metrics. */
  size(): number
  /** Stops the background sweep. */
  close(): void
}

interface Window {
  count: number
  resetAt: number
}

/**
 * Fixed windows in this process: the limiter's floor while the shared store is away. Windows
 * leave only when they reset (no size cap, no LRU: evicting a live window would let a client at
 * its limit start over), so memory is bounded by the keys live within one window.
 */
export function createLocalWindows(
  options: { now?: () => number; sweepIntervalMs?: number } = {},
): LocalWindows {
  const now = options.now ?? Date.now
  const windows = new Map<string, Window>()

  const sweep = (): number => {
    const at = now()
    let removed = 0
    for (const [key, window] of windows) {
      if (at >= window.resetAt) {
        windows.delete(key)
        removed++
      }
    }
    return removed
  }
  const sweepIntervalMs = options.sweepIntervalMs ?? 30_000
  // unref: the sweep must never keep a process alive on its own.
  const timer = sweepIntervalMs > 0 ? setInterval(sweep, sweepIntervalMs).unref() : undefined

  const hit = (key: string, windowMs: number): WindowHit => {
    const at = now()
    let window = windows.get(key)
    if (!window || at >= window.resetAt) {
      window = { count: 0, resetAt: at + windowMs }
      windows.set(key, window)
    }
    window.count++
    return { count: window.count, resetInMs: window.resetAt - at }
  }

  return {
    hitWindow: async (key, windowMs) => hit(key, windowMs),
    sweep,
    size: () => windows.size,
    close: () => {
      if (timer) clearInterval(timer)
    },
  }
}
