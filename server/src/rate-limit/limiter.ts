import { type CounterStore, StoreUnavailableError } from '../store/types'
import { assertPolicyOnce, decideHit, type RateLimitDecision } from './decide'
import { decideCeiling } from './fair-ceiling'
import { createLocalWindows } from './local-windows'
import type { RateLimitPolicy } from './policies'

export { decideHit, type RateLimitDecision } from './decide'

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
  /**
   * The caller's own window, then the project ceiling with its fair share (`decideCeiling`): once
   * the ceiling is full, callers still within their share of it get through. One store call.
   * `cost` (default 1) is how many hits the request counts on both (a balances batch, SPEC 3).
   */
  checkWithCeiling(
    own: RateLimitCheck,
    ceiling: RateLimitCheck,
    cost?: number,
  ): Promise<RateLimitDecision>
  stats(): RateLimiterStats
}

/** The counter of `key` under `policy`: app key, session and IP quotas never share one. */
export const counterKey = (key: string, policy: RateLimitPolicy): string => `${policy.name}:${key}`

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

  // Counts on the shared store, or on the floor during an outage; while on the floor one request
  // at a time probes the shared store.
  const counted = async <T>(
    policy: RateLimitPolicy,
    hit: (counters: CounterStore) => Promise<T>,
  ): Promise<{ result: T; floor: boolean }> => {
    if (mode === 'floor' && probing) return onFloorHit(hit)
    const probe = mode === 'floor'
    if (probe) probing = true
    let result: T
    try {
      result = await hit(store)
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err
      enterFloor(policy, err)
      return onFloorHit(hit)
    } finally {
      if (probe) probing = false
    }
    if (mode === 'floor') {
      mode = 'shared'
      log.info?.({ outages, floorDecisions }, 'rate limiter back on the shared counter store')
    }
    return { result, floor: false }
  }

  const onFloorHit = async <T>(hit: (counters: CounterStore) => Promise<T>) => {
    floorDecisions++
    onFloor?.()
    return { result: await hit(floor), floor: true }
  }

  const decided = (decision: RateLimitDecision, fromFloor: boolean): RateLimitDecision =>
    fromFloor ? { ...decision, floor: true } : decision

  const check = async (key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> => {
    assertPolicyOnce(policy) // before the hit: an invalid policy must not count anything
    const windowMs = policy.windowSeconds * 1000
    const counterName = counterKey(key, policy)
    const { result, floor: fromFloor } = await counted(policy, (counters) =>
      counters.hitWindow(counterName, windowMs),
    )
    return decided(decideHit(policy, result), fromFloor)
  }

  const checkAll = async (checks: readonly RateLimitCheck[]) => {
    let best: RateLimitDecision | undefined
    for (const { key, policy } of checks) {
      const decision = await check(key, policy)
      if (!decision.allowed) return decision
      if (best === undefined || decision.remaining < best.remaining) best = decision
    }
    if (!best) throw new TypeError('checkAll needs at least one window')
    return best
  }

  return {
    check,
    checkAll,

    async checkWithCeiling(own, ceiling, cost = 1) {
      if (!Number.isSafeInteger(cost) || cost < 1)
        throw new TypeError('cost must be an integer >= 1')
      // Counter stores without the one-step hit (custom ones) get the plain ceiling, hit by hit.
      if (!store.hitWithCeiling || !floor.hitWithCeiling) {
        let decision = await checkAll([own, ceiling])
        for (let hit = 1; hit < cost && decision.allowed; hit++) {
          decision = await checkAll([own, ceiling])
        }
        return decision
      }
      assertPolicyOnce(own.policy)
      assertPolicyOnce(ceiling.policy)
      const request = {
        callerKey: counterKey(own.key, own.policy),
        callerWindowMs: own.policy.windowSeconds * 1000,
        callerLimit: own.policy.limit,
        ceilingKey: counterKey(ceiling.key, ceiling.policy),
        ceilingWindowMs: ceiling.policy.windowSeconds * 1000,
        ceiling: ceiling.policy.limit,
        ...(cost === 1 ? {} : { cost }),
      }
      const { result, floor: fromFloor } = await counted(own.policy, (counters) =>
        counters.hitWithCeiling!(request),
      )
      return decided(decideCeiling(own.policy, ceiling.policy, result), fromFloor)
    },

    stats: () => ({ mode, outages, floorDecisions }),
  }
}
