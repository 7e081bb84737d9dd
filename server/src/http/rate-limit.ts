import type { FastifyReply } from 'fastify'
import { ApiError } from '../errors'
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from '../rate-limit'

/**
 * Counts one hit for `key` under `policy` (the limiter prefixes the policy name); sets the
 * RateLimit headers on every answer and refuses with 429 RATE_LIMITED past the limit.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  reply: FastifyReply,
  key: string,
  policy: RateLimitPolicy,
): Promise<void> {
  applyRateLimit(reply, policy, await limiter.check(key, policy))
}

/** Sets the decision's RateLimit headers, or throws 429 RATE_LIMITED (with Retry-After) when refused. */
export function applyRateLimit(
  reply: FastifyReply,
  policy: RateLimitPolicy,
  decision: RateLimitDecision,
): void {
  if (decision.allowed) {
    reply.headers(decision.headers)
    return
  }
  const retryAfter = Math.max(1, decision.retryAfterSeconds ?? policy.windowSeconds)
  throw new ApiError(
    'RATE_LIMITED',
    `rate limit ${policy.name} exceeded; retry in ${retryAfter} s`,
    {
      headers: { ...decision.headers, 'retry-after': String(retryAfter) },
    },
  )
}
