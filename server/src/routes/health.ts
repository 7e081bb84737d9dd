import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import type { RelayServer } from '../relay/relay'
import { describeUnserved } from '../store/redis-connection'

/**
 * Liveness (the process answers) and readiness (the stores it needs answer too). Outside the API
 * prefix. `/healthz` is 200 while the process runs (restarting it fixes no Redis) and says
 * `degraded` when something it depends on is away: the rate limiter on its per-instance floor,
 * the session store refusing requests, the relay's Redis down. It reports the limiter (mode,
 * outages, floor decisions), the per-IP connection cap's refusals, the session store's outages
 * and the relay (its Redis, sockets, subscriptions), so a probe or a scrape sees a degraded
 * instance without reading logs. `/readyz` is 503 while a required store is down: the session
 * store (on a Redis Cluster: while any hash slot range has no primary answering, the answer
 * names the ranges), or the relay's Redis when the relay runs on one (docs/operations.md).
 *
 * The public `/healthz` answers `{ status }` only: the details (outage counts, refusals, sockets)
 * are the operator's, so they go to a caller `details(request)` admits (the metrics token) and
 * to the metrics listener's own `/healthz`, which calls the returned report function.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  relay: Pick<RelayServer, 'stats'>,
  details: (request: FastifyRequest) => boolean = () => false,
): () => { status: string } {
  const healthReport = () => {
    const rateLimiter = ctx.limiter.stats()
    const store = ctx.storeOutages.stats()
    const relayReport = relay.stats()
    const degraded = rateLimiter.mode === 'floor' || store.down || relayReport.redis === 'down'
    return {
      status: degraded ? 'degraded' : 'ok',
      rateLimiter,
      connections: { refusedByIpCap: ctx.connections.refused },
      store,
      relay: {
        redis: relayReport.redis,
        sockets: relayReport.sockets,
        subscriptions: relayReport.subscriptions,
      },
    }
  }
  app.get('/healthz', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const report = healthReport()
    return details(request) ? report : { status: report.status }
  })
  app.get('/readyz', async () => {
    const readiness = ctx.store.readiness
      ? await ctx.store.readiness().catch(() => ({ ready: false, unservedSlots: undefined }))
      : { ready: await ctx.store.isReady().catch(() => false), unservedSlots: undefined }
    const relayReport = relay.stats()
    if (!readiness.ready) {
      // On a Redis Cluster one PING answers while a shard is away: the answer names its slots.
      throw new ApiError(
        'STORE_UNAVAILABLE',
        readiness.unservedSlots && readiness.unservedSlots.length > 0
          ? `the store does not serve every hash slot: ${describeUnserved(readiness.unservedSlots)}`
          : 'the store is not reachable',
      )
    }
    if (relayReport.redis === 'down') {
      throw new ApiError('STORE_UNAVAILABLE', "the relay's Redis is not reachable")
    }
    return { status: 'ready', store: ctx.store.kind, relay: relayReport.redis }
  })
  return healthReport
}
