import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  API_PREFIX,
  CreateSessionRequestSchema,
  ROUTES,
  SESSION_ID_PATTERN,
  SessionIdSchema,
  VerifyRequestSchema,
} from 'scope-connect/wire'
import * as z from 'zod/mini'
import { appKeyOf, requireProject } from '../auth/app-key'
import { authorizeSession, presentedTokenHash } from '../auth/session-auth'
import { type AppContext, policyFor } from '../context'
import { applyRateLimit, enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { decideHit } from '../rate-limit'
import { createSession } from '../sessions/create'
import { loadPolledSession } from '../sessions/records'
import { verifyBySession } from '../sessions/verify'
import { toResultResponse } from '../sessions/view'

const SessionParamsSchema = z.object({ sessionId: SessionIdSchema })

/** The path's session id; a malformed one is 422 with the schema's details. */
function sessionIdOf(request: FastifyRequest): string {
  const { sessionId } = request.params as { sessionId?: unknown }
  // Polls hit this path many times a second: a well-formed id skips building a zod result.
  if (typeof sessionId === 'string' && SESSION_ID_PATTERN.test(sessionId)) return sessionId
  return parseWith(SessionParamsSchema, request.params, 'path').sessionId
}

/** Order: id shape (422), record (404), bearer token (401), origin (403), then the session's counter. */
async function authorizedSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const sessionId = sessionIdOf(request)
  const tokenHash = presentedTokenHash(request)
  const { record, hit } = await loadPolledSession(ctx, sessionId, tokenHash, request.headers.origin)
  authorizeSession(request, ctx.projects, record, tokenHash)
  const policy = policyFor(ctx.projects.byId(record.projectId)!, 'session')
  // Counted with the read (one round trip) unless the store could not count it there.
  const decision = hit ? decideHit(policy, hit) : await ctx.limiter.check(sessionId, policy)
  applyRateLimit(reply, policy, decision)
  return record
}

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(API_PREFIX + ROUTES.sessions, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const body = parseWith(CreateSessionRequestSchema, request.body, 'body')
    const created = await createSession(ctx, project, body)
    reply.header('cache-control', 'no-store')
    return reply.code(201).send(created)
  })

  app.get(`${API_PREFIX}/sessions/:sessionId/result`, async (request, reply) => {
    const record = await authorizedSession(ctx, request, reply)
    reply.header('cache-control', 'no-store')
    return toResultResponse(record, ctx.now())
  })

  app.post(`${API_PREFIX}/sessions/:sessionId/verify`, async (request, reply) => {
    const record = await authorizedSession(ctx, request, reply)
    const body = parseWith(VerifyRequestSchema, request.body, 'body')
    return verifyBySession(ctx, record, body)
  })
}
