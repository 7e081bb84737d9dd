export { clientIpKey, resolveClientIp, trustedProxies } from './client-ip'
export { policyHeader, rateLimitHeader } from './headers'
export {
  counterKey,
  createRateLimiter,
  decideHit,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from './limiter'
export {
  assertPolicy,
  DEFAULT_RATE_LIMITS,
  type RateLimitGroup,
  type RateLimitOverrides,
  type RateLimitPolicies,
  type RateLimitPolicy,
  resolveRateLimits,
} from './policies'
export {
  applyRateLimitHeaders,
  type RateLimitedBody,
  type ReplyLike,
  rateLimitedBody,
  sendRateLimited,
} from './reply'
