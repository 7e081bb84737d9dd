import type { RateLimitPolicy } from './policies'

/**
 * Structured fields of draft-ietf-httpapi-ratelimit-headers-10. The policy name is an sf-string
 * (quoted); assertPolicy keeps it to characters that need no escaping.
 */
export function policyHeader(policy: RateLimitPolicy): string {
  // Policies are built once per project and asked on every request: format each once.
  let text = policyTexts.get(policy)
  if (text === undefined) {
    text = `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`
    policyTexts.set(policy, text)
  }
  return text
}

const policyTexts = new WeakMap<RateLimitPolicy, string>()

/** `r` remaining quota units, `t` whole seconds until the window resets. */
export function rateLimitHeader(policy: RateLimitPolicy, remaining: number, resetSeconds: number) {
  return `"${policy.name}";r=${remaining};t=${resetSeconds}`
}
