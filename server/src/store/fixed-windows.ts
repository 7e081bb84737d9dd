import type { WindowHit } from './types'

/** Fixed-window counters in this process, shared by the memory store and the limiter's floor. */
export interface FixedWindows {
  /** Counts a hit on `key`; a window starts at the first hit and lasts `windowMs`. */
  hit(key: string, windowMs: number): WindowHit
  /** Drops the windows that have reset by `at`; returns how many went. */
  sweep(at: number): number
  size(): number
}

interface Window {
  count: number
  resetAt: number
}

/**
 * Windows leave only when they reset (no size cap, no LRU: evicting a live window would let a
 * client at its limit start over), so memory is bounded by the keys live within one window.
 */
export function createFixedWindows(now: () => number): FixedWindows {
  const windows = new Map<string, Window>()
  return {
    hit(key, windowMs) {
      const at = now()
      let window = windows.get(key)
      if (!window || at >= window.resetAt) {
        window = { count: 0, resetAt: at + windowMs }
        windows.set(key, window)
      }
      window.count++
      return { count: window.count, resetInMs: window.resetAt - at }
    },
    sweep(at) {
      let removed = 0
      for (const [key, window] of windows) {
        if (at >= window.resetAt) {
          windows.delete(key)
          removed++
        }
      }
      return removed
    },
    size: () => windows.size,
  }
}
