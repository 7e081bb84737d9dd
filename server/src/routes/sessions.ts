import { setMaxListeners } from 'node:events'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  API_PREFIX,
  CreateSessionRequestSchema,
  LONG_POLL_MAX_HEADER,
  LONG_POLL_MAX_MS,
  ROUTES,
  SESSION_ID_PATTERN,
  SessionIdSchema,
  VerifyRequestSchema,
} from 'scope-connect/wire'
import * as z from 'zod/mini'
import { appKeyOf, requireProject } from '../auth/app-key'
import { authorizeSession, presentedTokenHash, sessionNotFound } from '../auth/session-auth'
import { type AppContext, policyFor } from '../context'
import { applyRateLimit, enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { decideHit } from '../rate-limit'
import { createSession } from '../sessions/create'
import {
  ifNoneMatchHits,
  parseWaitMs,
  resultEtag,
  statusEtag,
  waitForChange,
  watchChanges,
} from '../sessions/long-poll'
import { loadPolledSession, polledSession } from '../sessions/records'
import { verifyBySession } from '../sessions/verify'
import { effectiveStatus, toResultJson, toResultResponse } from '../sessions/view'

const SessionParamsSchema = z.object({ sessionId: SessionIdSchema })

/** The path's session id; a malformed one is 422 with the schema's details. */
function sessionIdOf(request: FastifyRequest): string {
  const { sessionId } = request.params as { sessionId?: unknown }
  // Polls hit this path many times a second: a well-formed id skips building a zod result.
  if (typeof sessionId === 'string' && SESSION_ID_PATTERN.test(sessionId)) return sessionId
  return parseWith(SessionParamsSchema, request.params, 'path').sessionId
}

/**
 * Order: id shape (422), then record and bearer token together: an unknown session, a missing
 * token and a wrong one all answer the same 404 SESSION_NOT_FOUND (no existence oracle), then
 * origin (403), then the session's counter.
 */
async function authorizedSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const sessionId = sessionIdOf(request)
  const tokenHash = presentedTokenHash(request)
  if (tokenHash === undefined) throw sessionNotFound()
  const read = await loadPolledSession(ctx, sessionId, tokenHash, request.headers.origin)
  const { record, hit } = polledSession(ctx, read)
  authorizeSession(request, ctx.projects, record, tokenHash)
  const policy = policyFor(ctx.projects.byId(record.projectId)!, 'session')
  // Counted with the read (one round trip) unless the store could not count it there.
  const decision = hit ? decideHit(policy, hit) : await ctx.limiter.check(sessionId, policy)
  applyRateLimit(reply, policy, decision)
  return record
}

const JSON_TYPE = 'application/json; charset=utf-8'
const LONG_POLL_MAX = String(LONG_POLL_MAX_MS)

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Waiting long-polls answer (304) as soon as the server starts closing, not after 25 s.
  const closing = new AbortController()
  // One listener per waiting long-poll, removed when it ends: many at once is normal, not a leak.
  setMaxListeners(0, closing.signal)
  app.addHook('preClose', async () => closing.abort())

  app.post(API_PREFIX + ROUTES.sessions, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const body = parseWith(CreateSessionRequestSchema, request.body, 'body')
    const created = await createSession(ctx, project, body)
    reply.header('cache-control', 'no-store')
    return reply.code(201).send(created)
  })

  // The result, and its long-poll: with `If-None-Match` naming the current tag, the answer waits
  // (up to `waitMs`) for a change; 304 when none came. Counted once per request, whatever the wait.
  app.get(`${API_PREFIX}/sessions/:sessionId/result`, async (request, reply) => {
    const waitMs = parseWaitMs(request.query)
    const ifNoneMatch = request.headers['if-none-match']
    if (waitMs > 0 && ifNoneMatch !== undefined)
      return longPoll(request, reply, waitMs, ifNoneMatch)
    // The poll hot path: one clock read for the status, the tag and the body, and the body as a
    // string (the same bytes JSON.stringify would give) so Fastify has nothing to serialize.
    const record = await authorizedSession(ctx, request, reply)
    const status = effectiveStatus(record, ctx.now())
    const etag = statusEtag(record, status)
    reply.header('cache-control', 'no-store')
    reply.header(LONG_POLL_MAX_HEADER, LONG_POLL_MAX)
    reply.header('etag', etag)
    if (ifNoneMatchHits(ifNoneMatch, etag)) return reply.code(304).send()
    reply.header('content-type', JSON_TYPE)
    return toResultJson(record, status)
  })

  /** The result with `If-None-Match` and `waitMs`: waits for a change of the tag, 304 if none. */
  async function longPoll(
    request: FastifyRequest,
    reply: FastifyReply,
    waitMs: number,
    ifNoneMatch: string | string[],
  ) {
    // Watch before the first read, so a change that lands between the read and the wait is seen.
    const changed = watchChanges(ctx, sessionIdOf(request))
    try {
      let record = await authorizedSession(ctx, request, reply)
      reply.header('cache-control', 'no-store')
      reply.header(LONG_POLL_MAX_HEADER, LONG_POLL_MAX)
      const etag = resultEtag(record, ctx.now())
      if (ifNoneMatchHits(ifNoneMatch, etag)) {
        // Ends when the client goes away or the server starts closing (no AbortSignal.any: its
        // dependants on the long-lived closing signal are not collected promptly on Node 20).
        const ended = new AbortController()
        const end = () => ended.abort()
        reply.raw.once('close', end)
        // A client gone during the first read closed before the listener: its wait ends at once.
        if (closing.signal.aborted || reply.raw.destroyed) end()
        closing.signal.addEventListener('abort', end, { once: true })
        try {
          const latest = await waitForChange(ctx, record.sessionId, record, {
            etag,
            waitMs,
            signal: ended.signal,
            changed,
          })
          if (!latest) throw sessionNotFound()
          record = latest
        } finally {
          reply.raw.off('close', end)
          closing.signal.removeEventListener('abort', end)
        }
      }
      const current = resultEtag(record, ctx.now())
      reply.header('etag', current)
      if (ifNoneMatchHits(ifNoneMatch, current)) return reply.code(304).send()
      return toResultResponse(record, ctx.now())
    } finally {
      changed.stop()
    }
  }

  app.post(`${API_PREFIX}/sessions/:sessionId/verify`, async (request, reply) => {
    const record = await authorizedSession(ctx, request, reply)
    const body = parseWith(VerifyRequestSchema, request.body, 'body')
    return verifyBySession(ctx, record, body)
  })
}
