export {
  clientIpKey,
  coversEveryAddress,
  type ForwardingHeaders,
  forwardedHops,
  resolveClientIp,
  trustedPeerWithoutHops,
  trustedProxies,
} from './client-ip'
export { policyHeader, rateLimitHeader } from './headers'
export {
  counterKey,
  createRateLimiter,
  decideHit,
  type RateLimitCheck,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimiterStats,
} from './limiter'
export { createLocalWindows, type LocalWindows } from './local-windows'
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
