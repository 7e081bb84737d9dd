import type { CeilingHit, CeilingHitRequest, WindowHit } from './types'

/** Fixed-window counters in this process, shared by the memory store and the limiter's floor. */
export interface FixedWindows {
  /** Counts a hit (`cost` hits) on `key`; a window starts at the first hit and lasts `windowMs`. */
  hit(key: string, windowMs: number, cost?: number): WindowHit
  /** `CounterStore.hitWithCeiling` in this process. */
  hitWithCeiling(request: CeilingHitRequest): CeilingHit
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
  // A ceiling's distinct callers in its current window (the caller keys are the windows' own
  // strings, so a set costs a pointer per caller); reset and swept with the ceiling's window.
  const callersOf = new Map<string, Set<string>>()
  const hit = (key: string, windowMs: number, cost = 1): WindowHit => {
    const at = now()
    let window = windows.get(key)
    if (!window || at >= window.resetAt) {
      window = { count: 0, resetAt: at + windowMs }
      windows.set(key, window)
    }
    window.count += cost
    return { count: window.count, resetInMs: window.resetAt - at }
  }
  return {
    hit,
    hitWithCeiling(request) {
      const caller = hit(request.callerKey, request.callerWindowMs, request.cost)
      if (caller.count > request.callerLimit) return { caller }
      const ceiling = hit(request.ceilingKey, request.ceilingWindowMs, request.cost)
      let callers = callersOf.get(request.ceilingKey)
      if (!callers || ceiling.count === (request.cost ?? 1)) {
        callers = new Set()
        callersOf.set(request.ceilingKey, callers)
      }
      callers.add(request.callerKey)
      if (ceiling.count <= request.ceiling) return { caller, ceiling }
      return { caller, ceiling, callers: callers.size }
    },
    sweep(at) {
      let removed = 0
      for (const [key, window] of windows) {
        if (at >= window.resetAt) {
          windows.delete(key)
          callersOf.delete(key)
          removed++
        }
      }
      return removed
    },
    size: () => windows.size,
  }
}
