import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ProjectConfig } from '../config/projects-schema'
import { type AppContext, policyFor } from '../context'
import { ApiError } from '../errors'
import {
  clientIpKey,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitPolicy,
  resolveClientIp,
} from '../rate-limit'

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

/**
 * The caller's rate-limit key: its IP (IPv6 masked to /64), read from X-Forwarded-For only when
 * the socket peer is one of `ctx.trustProxy`.
 */
export function callerKey(ctx: Pick<AppContext, 'trustProxy'>, request: FastifyRequest): string {
  return clientIpKey(resolveClientIp(request.socket.remoteAddress, request.headers, ctx.trustProxy))
}

/**
 * The app-key routes (balances, config, session creation, relay token), SPEC 4: first the
 * caller's own window, one per (app key, caller IP), then the project-wide ceiling. A caller
 * refused by its own window spends nothing of the ceiling, so one client cannot lock the project
 * out; and a full ceiling still admits callers within their fair share of it, so a hundred
 * cannot either (`decideCeiling`). A 429 names the refusing window (`appkey` or `project`) in
 * `RateLimit-Policy`. `cost`: the hits the request counts (a balances batch: `balancesBatchCost`).
 */
export async function enforceAppKeyLimits(
  ctx: Pick<AppContext, 'limiter' | 'trustProxy'>,
  request: FastifyRequest,
  reply: FastifyReply,
  project: ProjectConfig,
  appKey: string,
  cost = 1,
): Promise<void> {
  const decision = await ctx.limiter.checkWithCeiling(
    { key: `${appKey}|${callerKey(ctx, request)}`, policy: policyFor(project, 'appKey') },
    { key: project.projectId, policy: policyFor(project, 'project') },
    cost,
  )
  applyRateLimit(reply, undefined, decision)
}

/**
 * Sets the decision's RateLimit headers, or throws 429 RATE_LIMITED (with Retry-After) when
 * refused. The 429 names `decision.policy`; the `_policy` argument is kept for older callers.
 */
export function applyRateLimit(
  reply: FastifyReply,
  _policy: RateLimitPolicy | undefined,
  decision: RateLimitDecision,
): void {
  if (decision.allowed) {
    reply.headers(decision.headers)
    return
  }
  throw rateLimitedError(decision)
}

function rateLimitedError(decision: RateLimitDecision): ApiError {
  const { policy } = decision
  const retryAfter = Math.max(1, decision.retryAfterSeconds ?? policy.windowSeconds)
  return new ApiError(
    'RATE_LIMITED',
    `rate limit ${policy.name} exceeded; retry in ${retryAfter} s`,
    {
      headers: { ...decision.headers, 'retry-after': String(retryAfter) },
    },
  )
}

/** A refusal that means "your credential or session id was wrong" (SPEC 4: failed authentication). */
export function isAuthFailure(error: ApiError): boolean {
  return error.status === 401 || error.code === 'SESSION_NOT_FOUND'
}

/**
 * Failed authentication per caller IP (SPEC 4): every 401 and every 404 SESSION_NOT_FOUND counts
 * one hit on the caller's `auth` window; past its limit the failure is answered 429 instead (with
 * `RateLimit-Policy: "auth";…`), so guessing app keys, session ids or tokens is slowed to the
 * policy's rate and a refusal tells nothing about what was guessed. Successful requests never
 * count. The error handler calls it for every such refusal (each one is a thrown `ApiError`), so
 * it covers every route without the routes knowing, and costs a successful answer nothing.
 * Resolves to the refusal to send.
 */
export function authFailureLimit(
  ctx: AppContext,
): (request: FastifyRequest, failure: ApiError) => Promise<ApiError> {
  const policy = ctx.authFailurePolicy
  return (request, failure) =>
    ctx.limiter.check(callerKey(ctx, request), policy).then(
      (decision) => (decision.allowed ? failure : rateLimitedError(decision)),
      // A limiter error other than an outage (those go to the floor) must not turn a 401 into a 500.
      (err: unknown) => {
        request.log.error({ err }, 'auth failure limit: limiter error')
        return failure
      },
    )
}
