/** One fixed-window quota: `limit` requests per `windowSeconds`, named in the response headers. */
export interface RateLimitPolicy {
  /** Policy name as sent in `RateLimit-Policy` (e.g. 'appkey', 'session', 'ip'). */
  name: string
  limit: number
  windowSeconds: number
}

/**
 * `appKey`: one window per (app key, caller IP); `project`: the whole project's ceiling;
 * `session`: per session id; `callbackIp`: wallet callbacks per caller IP; `authFailureIp`:
 * failed authentication (unknown app key or session, wrong token) per caller IP.
 */
export type RateLimitGroup = 'appKey' | 'project' | 'session' | 'callbackIp' | 'authFailureIp'

export type RateLimitPolicies = Record<RateLimitGroup, RateLimitPolicy>

/** Overrides as written in the projects file: any group, any of its numbers. */
export type RateLimitOverrides = Partial<
  Record<RateLimitGroup, Partial<Pick<RateLimitPolicy, 'limit' | 'windowSeconds'>>>
>

/**
 * SPEC section 4 (revised 2026-11-23). The app key is public, so its everyday window is per
 * caller (`appkey`: app key and IP) and the project-wide window (`project`) is only a ceiling, a
 * hundred callers' worth. Session polling runs once per 1.5–2 s, i.e. at most 40 per minute, so
 * 120 a minute leaves room for a page that polls twice (two tabs, a resume) without ever limiting it.
 */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimitPolicies> = Object.freeze({
  appKey: Object.freeze({ name: 'appkey', limit: 600, windowSeconds: 60 }),
  project: Object.freeze({ name: 'project', limit: 60_000, windowSeconds: 60 }),
  session: Object.freeze({ name: 'session', limit: 120, windowSeconds: 60 }),
  callbackIp: Object.freeze({ name: 'ip', limit: 60, windowSeconds: 60 }),
  authFailureIp: Object.freeze({ name: 'auth', limit: 60, windowSeconds: 60 }),
})

/** Defaults with a project's overrides applied; names stay fixed so clients see stable policies. */
export function resolveRateLimits(overrides: RateLimitOverrides = {}): RateLimitPolicies {
  const resolve = (group: RateLimitGroup): RateLimitPolicy => {
    const policy = { ...DEFAULT_RATE_LIMITS[group], ...overrides[group] }
    assertPolicy(policy)
    return policy
  }
  return {
    appKey: resolve('appKey'),
    project: resolve('project'),
    session: resolve('session'),
    callbackIp: resolve('callbackIp'),
    authFailureIp: resolve('authFailureIp'),
  }
}

/** Throws on a policy the limiter cannot express in its headers. */
export function assertPolicy(policy: RateLimitPolicy): void {
  if (!/^[A-Za-z0-9_.-]+$/.test(policy.name)) {
    throw new TypeError(`rate-limit policy name must be [A-Za-z0-9_.-]+, got ${policy.name}`)
  }
  if (!Number.isSafeInteger(policy.limit) || policy.limit < 0) {
    throw new TypeError(`rate-limit policy ${policy.name}: limit must be an integer >= 0`)
  }
  if (!Number.isSafeInteger(policy.windowSeconds) || policy.windowSeconds < 1) {
    throw new TypeError(`rate-limit policy ${policy.name}: windowSeconds must be an integer >= 1`)
  }
}
