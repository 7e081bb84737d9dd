import type { CeilingHit } from '../store/types'
import { decideHit, type RateLimitDecision } from './decide'
import type { RateLimitPolicy } from './policies'

/**
 * A caller's fair share of a full ceiling: the ceiling divided among the distinct callers counted
 * in its window, at least 1.
 */
export function fairShare(ceiling: number, callers: number): number {
  return Math.max(1, Math.floor(ceiling / Math.max(1, callers)))
}

/**
 * The decision for the caller's own window and the project ceiling (`CounterStore.hitWithCeiling`).
 * Below the ceiling nothing changes: both windows must allow, and the one with less left is
 * announced. Once the ceiling is full, it no longer refuses everyone: a caller is let through while
 * its own count is within its fair share (`fairShare`), so the hundred cheap addresses (IPv6 /64s)
 * that filled it are refused and everyone else still gets in. Those admitted are bounded by about
 * one more ceiling (the shares add up to it), so it still caps a distributed flood.
 */
export function decideCeiling(
  callerPolicy: RateLimitPolicy,
  ceilingPolicy: RateLimitPolicy,
  hit: CeilingHit,
): RateLimitDecision {
  const own = decideHit(callerPolicy, hit.caller)
  if (!own.allowed || !hit.ceiling) return own
  const ceiling = decideHit(ceilingPolicy, hit.ceiling)
  if (ceiling.allowed) return ceiling.remaining < own.remaining ? ceiling : own
  const share = fairShare(ceilingPolicy.limit, hit.callers ?? 1)
  if (hit.caller.count > share) return ceiling
  // Admitted on its share: announce the caller's window with what is left of the share (a count
  // that leaves `min(own remaining, share - count)` under the caller's limit).
  const left = Math.min(own.remaining, share - hit.caller.count)
  return decideHit(callerPolicy, {
    count: callerPolicy.limit - left,
    resetInMs: hit.caller.resetInMs,
  })
}
