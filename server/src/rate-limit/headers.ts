import type { RateLimitPolicy } from './policies'

/**
 * Structured fields of draft-ietf-httpapi-ratelimit-headers-10. The policy name is an sf-string
 * (quoted); assertPolicy keeps it to characters that need no escaping.
 */
export function policyHeader(policy: RateLimitPolicy): string {
  return `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`
}

/** `r` remaining quota units, `t` whole seconds until the window resets. */
export function rateLimitHeader(policy: RateLimitPolicy, remaining: number, resetSeconds: number) {
  return `"${policy.name}";r=${remaining};t=${resetSeconds}`
}
