import { type CounterStore, StoreUnavailableError, type WindowHit } from '../store/types'
import { policyHeader, rateLimitHeader } from './headers'
import { assertPolicy, type RateLimitPolicy } from './policies'

export interface RateLimitDecision {
  allowed: boolean
  /** `RateLimit-Policy`, `RateLimit` (unless failed open) and, on a refusal, `Retry-After`. */
  headers: Record<string, string>
  /** Whole seconds until the window resets, at least 1; only when refused. */
  retryAfterSeconds?: number
  /** True when the counter store was unreachable and the request was let through uncounted. */
  failedOpen?: boolean
}

export interface RateLimiterOptions {
  store: CounterStore
  log: { warn(obj: object, msg: string): void }
  /** Called on every fail-open, e.g. to bump a metrics counter. */
  onFailOpen?: () => void
  /** At most one fail-open warning per this many ms (an outage would flood the log). */
  warnIntervalMs?: number
}

export interface RateLimiter {
  check(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>
  /** Requests let through because the store was unreachable, since start. */
  readonly failOpenCount: number
}

/** The counter of `key` under `policy`: app key, session and IP quotas never share one. */
export const counterKey = (key: string, policy: RateLimitPolicy): string => `${policy.name}:${key}`

// Policies are validated on first use, once per policy object (they are built once per project).
const validated = new WeakSet<RateLimitPolicy>()
function assertPolicyOnce(policy: RateLimitPolicy): void {
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
  const headers: Record<string, string> = {
    'RateLimit-Policy': policyHeader(policy),
    RateLimit: rateLimitHeader(policy, Math.max(0, policy.limit - hit.count), resetSeconds),
  }
  if (allowed) return { allowed, headers }
  headers['Retry-After'] = String(resetSeconds)
  return { allowed, headers, retryAfterSeconds: resetSeconds }
}

/** Fixed-window limiter over a CounterStore, keyed by `counterKey`. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, log, onFailOpen } = options
  const warnIntervalMs = options.warnIntervalMs ?? 10_000
  let failOpenCount = 0
  let lastWarnAt = Number.NEGATIVE_INFINITY
  let suppressed = 0

  const failOpen = (policy: RateLimitPolicy, err: StoreUnavailableError): RateLimitDecision => {
    failOpenCount++
    onFailOpen?.()
    const at = Date.now()
    if (at - lastWarnAt >= warnIntervalMs) {
      log.warn(
        { err: err.message, policy: policy.name, failOpenCount, suppressed },
        'rate limiter failing open: counter store unavailable',
      )
      lastWarnAt = at
      suppressed = 0
    } else {
      suppressed++
    }
    // Remaining quota is unknown, so only the policy is announced.
    return {
      allowed: true,
      failedOpen: true,
      headers: { 'RateLimit-Policy': policyHeader(policy) },
    }
  }

  return {
    get failOpenCount() {
      return failOpenCount
    },

    async check(key, policy) {
      assertPolicyOnce(policy) // before the hit: an invalid policy must not count anything
      let hit: WindowHit
      try {
        hit = await store.hitWindow(counterKey(key, policy), policy.windowSeconds * 1000)
      } catch (err) {
        if (err instanceof StoreUnavailableError) return failOpen(policy, err)
        throw err
      }
      return decideHit(policy, hit)
    },
  }
}
