import { type CounterStore, StoreUnavailableError, type WindowHit } from '../store/types'
import { policyHeader, rateLimitHeader } from './headers'
import { createLocalWindows } from './local-windows'
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

export interface RateLimiterOptions {
  /** The shared counters (Redis to scale out); every instance sees the same windows. */
  store: CounterStore
  /** One warning when an outage starts; `info` (when given) when the shared store is back. */
  log: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
  /**
   * The per-instance floor used while `store` throws StoreUnavailableError: the same policies,
   * counted in this process. Default: `createLocalWindows()`.
   */
  floor?: CounterStore
  /** Called on every decision the floor made, e.g. to bump a metrics counter. */
  onFloor?: () => void
}

/** How the limiter has fared since start (exposed by `/healthz`). */
export interface RateLimiterStats {
  /** `shared` while the shared store answers, `floor` during an outage. */
  mode: 'shared' | 'floor'
  /** Outages seen: switches from the shared store to the floor. */
  outages: number
  /** Decisions the floor made. */
  floorDecisions: number
}

/** One window to count a request against (see `checkAll`). */
export interface RateLimitCheck {
  key: string
  policy: RateLimitPolicy
}

export interface RateLimiter {
  /** Counts one hit of `key` under `policy`. Throws only on a store error that is not an outage. */
  check(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>
  /**
   * Counts one hit on each window in order and stops at the first refusal, so a caller refused
   * by its own window spends nothing of the windows after it (a project ceiling). Returns the
   * refusing window's decision, or when every window allowed, the one with the least quota left.
   */
  checkAll(checks: readonly RateLimitCheck[]): Promise<RateLimitDecision>
  stats(): RateLimiterStats
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
  const remaining = Math.max(0, policy.limit - hit.count)
  const headers: Record<string, string> = {
    'RateLimit-Policy': policyHeader(policy),
    RateLimit: rateLimitHeader(policy, remaining, resetSeconds),
  }
  if (allowed) return { allowed, policy, remaining, headers }
  headers['Retry-After'] = String(resetSeconds)
  return { allowed, policy, remaining, headers, retryAfterSeconds: resetSeconds }
}

/**
 * Fixed-window limiter over a shared CounterStore, keyed by `counterKey`. When the shared store
 * is unreachable it never fails open: the same windows are counted in this process (the floor)
 * until the store answers again. While on the floor, one request at a time probes the shared
 * store; the others go straight to the floor, so a hung store does not slow every request.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { store, log, onFloor } = options
  const floor = options.floor ?? createLocalWindows()
  let mode: 'shared' | 'floor' = 'shared'
  let outages = 0
  let floorDecisions = 0
  let probing = false

  const enterFloor = (policy: RateLimitPolicy, err: StoreUnavailableError) => {
    if (mode === 'floor') return
    mode = 'floor'
    outages++
    log.warn(
      { err: err.message, policy: policy.name, outages },
      'rate limiter on its per-instance floor: shared counter store unavailable',
    )
  }

  const onFloorHit = async (key: string, policy: RateLimitPolicy) => {
    floorDecisions++
    onFloor?.()
    const hit = await floor.hitWindow(counterKey(key, policy), policy.windowSeconds * 1000)
    return { ...decideHit(policy, hit), floor: true }
  }

  const check = async (key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> => {
    assertPolicyOnce(policy) // before the hit: an invalid policy must not count anything
    if (mode === 'floor' && probing) return onFloorHit(key, policy)
    const probe = mode === 'floor'
    if (probe) probing = true
    let hit: WindowHit
    try {
      hit = await store.hitWindow(counterKey(key, policy), policy.windowSeconds * 1000)
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err
      enterFloor(policy, err)
      return onFloorHit(key, policy)
    } finally {
      if (probe) probing = false
    }
    if (mode === 'floor') {
      mode = 'shared'
      log.info?.({ outages, floorDecisions }, 'rate limiter back on the shared counter store')
    }
    return decideHit(policy, hit)
  }

  return {
    check,

    async checkAll(checks) {
      let best: RateLimitDecision | undefined
      for (const { key, policy } of checks) {
        const decision = await check(key, policy)
        if (!decision.allowed) return decision
        if (best === undefined || decision.remaining < best.remaining) best = decision
      }
      if (!best) throw new TypeError('checkAll needs at least one window')
      return best
    },

    stats: () => ({ mode, outages, floorDecisions }),
  }
}
