import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  API_PREFIX,
  ConnectCallbackSchema,
  RejectCallbackSchema,
  ROUTES,
  SignCallbackSchema,
  TransactionCallbackSchema,
} from 'scope-connect/wire'
import type * as z from 'zod/mini'
import type { AppContext } from '../context'
import { enforceRateLimit } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { clientIpKey, resolveClientIp } from '../rate-limit'
import {
  recordConnect,
  recordRejection,
  recordSignature,
  recordTransaction,
} from '../sessions/callbacks'

/**
 * The wallet callbacks: no credential, so they are limited per caller IP (IPv6 per /64), read from
 * X-Forwarded-For only when the socket peer is one of the configured trusted proxies.
 */
export function registerCallbackRoutes(app: FastifyInstance, ctx: AppContext): void {
  const callback = <S extends z.ZodMiniType>(
    path: string,
    schema: S,
    apply: (ctx: AppContext, body: z.infer<S>) => Promise<void>,
  ) =>
    app.post(API_PREFIX + path, async (request: FastifyRequest, reply: FastifyReply) => {
      const ip = resolveClientIp(
        request.socket.remoteAddress,
        request.headers['x-forwarded-for'],
        ctx.trustProxy,
      )
      await enforceRateLimit(ctx.limiter, reply, clientIpKey(ip), ctx.callbackIpPolicy)
      await apply(ctx, parseWith(schema, request.body, 'body'))
      return reply.code(204).send()
    })

  callback(ROUTES.callbackConnect, ConnectCallbackSchema, recordConnect)
  callback(ROUTES.callbackSign, SignCallbackSchema, recordSignature)
  callback(ROUTES.callbackTransaction, TransactionCallbackSchema, recordTransaction)
  callback(ROUTES.callbackReject, RejectCallbackSchema, recordRejection)
}
