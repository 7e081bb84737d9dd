import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context'
import { ApiError } from '../errors'

/**
 * Liveness (the process answers) and readiness (the store answers too). Outside the API prefix.
 * `/healthz` also reports the rate limiter (`mode: "floor"` while the shared store is away, the
 * outages seen and the decisions the per-instance floor made) and the connections refused by
 * the per-IP cap, so a probe or a scrape sees a degraded limiter without reading logs.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({
    status: 'ok',
    rateLimiter: ctx.limiter.stats(),
    connections: { refusedByIpCap: ctx.connections.refused },
    store: ctx.storeOutages.stats(),
  }))
  app.get('/readyz', async () => {
    const ready = await ctx.store.isReady().catch(() => false)
    if (!ready) throw new ApiError('STORE_UNAVAILABLE', 'the store is not reachable')
    return { status: 'ready', store: ctx.store.kind }
  })
}
