import type { WindowHit } from '../store/types'
import { policyHeader, rateLimitHeader } from './headers'
import { assertPolicy, type RateLimitPolicy } from './policies'

export interface RateLimitDecision {
  allowed: boolean
  /** The window that decided (on a refusal: the one that refused). */
  policy: RateLimitPolicy
  /** Quota left in the window after this hit. */
  remaining: number
  /** `RateLimit-Policy`, `RateLimit` and, on a refusal, `Retry-After`. */
  headers: Record<string, string>
  /** Whole seconds until the window resets, at least 1; only when refused. */
  retryAfterSeconds?: number
  /** True when the shared store was unreachable and this instance's floor decided. */
  floor?: boolean
}

// Policies are validated on first use, once per policy object (they are built once per project).
const validated = new WeakSet<RateLimitPolicy>()
export function assertPolicyOnce(policy: RateLimitPolicy): void {
  if (validated.has(policy)) return
  assertPolicy(policy)
  validated.add(policy)
}

/**
 * The decision for one counted hit: by `check`, or by a store that counted the hit in the same
 * step as a session read (`Store.getSessionAndHit`).
 */
export function decideHit(policy: RateLimitPolicy, hit: WindowHit): RateLimitDecision {
  assertPolicyOnce(policy)
  // Clamp to 1..window: a counter read in its last millisecond still resets in "1 s".
  const resetSeconds = Math.min(policy.windowSeconds, Math.max(1, Math.ceil(hit.resetInMs / 1000)))
  const allowed = hit.count <= policy.limit
  const remaining = Math.max(0, policy.limit - hit.count)
  const headers: Record<string, string> = {
    'RateLimit-Policy': policyHeader(policy),
    RateLimit: rateLimitHeader(policy, remaining, resetSeconds),
  }
  if (allowed) return { allowed, policy, remaining, headers }
  headers['Retry-After'] = String(resetSeconds)
  return { allowed, policy, remaining, headers, retryAfterSeconds: resetSeconds }
}
