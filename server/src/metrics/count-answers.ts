import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify'
import type { AppMetrics, CountStatus } from './app-metrics'

/**
 * Counts every answer under its route pattern (`/api/v1/connect/sessions/:id/result`, never the
 * URL: ids would make a series per session) by adding an `onSend` hook to each route as it is
 * registered, with the route's counters resolved then; a request pays two Map lookups and an
 * increment. Call before any route is registered. Unmatched requests are counted by the
 * not-found handler through `countUnmatched`.
 */
export function countAnswers(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((method) =>
      method.toUpperCase(),
    )
    const byMethod = new Map(methods.map((method) => [method, metrics.route(route.url, method)]))
    const only = byMethod.size === 1 ? byMethod.values().next().value : undefined
    const count: onSendHookHandler = (request, reply, payload, done) => {
      ;(only ?? byMethod.get(request.method))?.(reply.statusCode)
      if (reply.statusCode === 429) metrics.rateLimited(refusingWindow(reply))
      done(null, payload)
    }
    const existing = route.onSend
    route.onSend = existing ? [...(Array.isArray(existing) ? existing : [existing]), count] : count
  })
}

/** The not-found handler's counter: answers no route matched, under the one label `unmatched`. */
export function countUnmatched(metrics: AppMetrics): (method: string, statusCode: number) => void {
  const byMethod = new Map<string, CountStatus>()
  return (method, statusCode) => {
    let count = byMethod.get(method)
    if (!count) {
      count = metrics.route('unmatched', method)
      byMethod.set(method, count)
    }
    count(statusCode)
  }
}

/** The window a 429 names in `RateLimit-Policy`; the relay's socket cap is the one that names none. */
function refusingWindow(reply: FastifyReply): string {
  const policy = reply.getHeader('ratelimit-policy')
  const name = typeof policy === 'string' ? /^"([^"]+)"/.exec(policy)?.[1] : undefined
  return name ?? 'relay-sockets'
}
