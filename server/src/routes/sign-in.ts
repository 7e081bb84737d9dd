import type { FastifyInstance } from 'fastify'
import { API_PREFIX, ROUTES, SignInVerifyRequestSchema } from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import type { AppContext } from '../context'
import { enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { newSignInNonce, nonceKey, SIGN_IN_NONCE_TTL_MS, verifySignIn } from './sign-in-verify'

/**
 * Sign-In with Ethereum (EIP-4361) and With Solana. `POST /sign-in/nonce` (`X-App-Key`): 201
 * `{ nonce, expiresAt }`, a single-use nonce kept in the store (memory or Redis) for
 * `SIGN_IN_NONCE_TTL_MS`. `POST /sign-in/verify` (`X-App-Key`) with `{ message, signature }`:
 * 200 with the verified record (`verifySignIn` says what is checked and what each refusal is).
 * Both are limited as the other app-key routes.
 */
export function registerSignInRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(API_PREFIX + ROUTES.signInNonce, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const nonce = newSignInNonce()
    const expiresAt = ctx.now() + SIGN_IN_NONCE_TTL_MS
    await ctx.store.putNonce(nonceKey(project.projectId, nonce), expiresAt)
    reply.header('cache-control', 'no-store')
    return reply.code(201).send({ nonce, expiresAt })
  })

  app.post(API_PREFIX + ROUTES.signInVerify, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const body = parseWith(SignInVerifyRequestSchema, request.body, 'body')
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined
    reply.header('cache-control', 'no-store')
    return verifySignIn(ctx, project, origin, body)
  })
}
