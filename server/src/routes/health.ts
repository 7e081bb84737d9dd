import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context'
import { ApiError } from '../errors'

/** Liveness (the process answers) and readiness (the store answers too). Outside the API prefix. */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    const ready = await ctx.store.isReady().catch(() => false)
    if (!ready) throw new ApiError('STORE_UNAVAILABLE', 'the store is not reachable')
    return { status: 'ready', store: ctx.store.kind }
  })
}
