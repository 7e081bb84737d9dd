import type { RateLimitDecision } from './decide'

/** The part of a Fastify reply the helpers use (kept structural so any reply-like object fits). */
export interface ReplyLike {
  header(name: string, value: string): unknown
  code(statusCode: number): unknown
  send(payload?: unknown): unknown
}

export interface RateLimitedBody {
  error: { code: 'RATE_LIMITED'; message: string }
}

export function rateLimitedBody(decision: RateLimitDecision): RateLimitedBody {
  const seconds = decision.retryAfterSeconds ?? 1
  return {
    error: {
      code: 'RATE_LIMITED',
      message: `Too many requests; retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
    },
  }
}

/** Sets the decision's headers; call on every limited route, allowed or not. */
export function applyRateLimitHeaders(reply: ReplyLike, decision: RateLimitDecision): void {
  for (const [name, value] of Object.entries(decision.headers)) reply.header(name, value)
}

/** Answers 429 RATE_LIMITED with the decision's headers (Retry-After included). */
export function sendRateLimited(reply: ReplyLike, decision: RateLimitDecision): unknown {
  applyRateLimitHeaders(reply, decision)
  reply.code(429)
  return reply.send(rateLimitedBody(decision))
}
