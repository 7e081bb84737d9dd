import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  API_PREFIX,
  ConnectCallbackSchema,
  RejectCallbackSchema,
  ROUTES,
  SESSION_NONCE_HEADER,
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
 * The wallet callbacks: limited per caller IP (IPv6 per /64), read from X-Forwarded-For only when
 * the socket peer is one of the configured trusted proxies. Each carries the session's nonce in
 * `X-Session-Nonce` (only the wallet's universal link holds it); an unknown session and a missing
 * or wrong nonce get the same 404 SESSION_NOT_FOUND.
 */
export function registerCallbackRoutes(app: FastifyInstance, ctx: AppContext): void {
  const callback = <S extends z.ZodMiniType>(
    path: string,
    schema: S,
    apply: (ctx: AppContext, body: z.infer<S>, nonce: string | undefined) => Promise<void>,
  ) =>
    app.post(API_PREFIX + path, async (request: FastifyRequest, reply: FastifyReply) => {
      const ip = resolveClientIp(request.socket.remoteAddress, request.headers, ctx.trustProxy)
      await enforceRateLimit(ctx.limiter, reply, clientIpKey(ip), ctx.callbackIpPolicy)
      const nonce = request.headers[SESSION_NONCE_HEADER]
      await apply(
        ctx,
        parseWith(schema, request.body, 'body'),
        typeof nonce === 'string' ? nonce : undefined,
      )
      return reply.code(204).send()
    })

  callback(ROUTES.callbackConnect, ConnectCallbackSchema, recordConnect)
  callback(ROUTES.callbackSign, SignCallbackSchema, recordSignature)
  callback(ROUTES.callbackTransaction, TransactionCallbackSchema, recordTransaction)
  callback(ROUTES.callbackReject, RejectCallbackSchema, recordRejection)
}
