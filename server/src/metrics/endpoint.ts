import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors'
import type { AppMetrics } from './app-metrics'

/**
 * Where `/metrics` is served; metrics are off (and cost nothing) when neither is set. Both may be.
 * `port`: a listener of its own (no authentication: bind it where only Prometheus reaches;
 * `host` defaults to 127.0.0.1). `token`: on the main port, to `Authorization: Bearer <token>`.
 */
export interface MetricsOptions {
  port?: number
  host?: string
  token?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `http://host:port` of the metrics listener (`metrics.port`), when there is one. */
    metricsUrl?: string
  }
}

export const METRICS_PATH = '/metrics'
const HEALTH_PATH = '/healthz'
/** A token shorter than this could be guessed; refused at start. */
const MIN_TOKEN_LENGTH = 16

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * `GET /metrics` on the main port for callers with the bearer token. Any other caller gets the
 * 404 an unknown route gets: the endpoint is not there for them (a 401 would confirm it is).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string) {
  const holdsToken = bearerCheck(token)
  app.get(METRICS_PATH, async (request, reply) => {
    if (!holdsToken(request.headers.authorization)) {
      throw new ApiError('NOT_FOUND', 'no such route')
    }
    reply.header('content-type', metrics.contentType).header('cache-control', 'no-store')
    return metrics.scrape()
  })
}

/**
 * Whether an `Authorization` value is `Bearer <token>` (the metrics token: it opens `/metrics`
 * and `/healthz`'s details on the main port). Throws on a token shorter than 16 characters.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new TypeError(`the metrics token must be at least ${MIN_TOKEN_LENGTH} characters`)
  }
  // Compared as digests: equal lengths for timingSafeEqual, and nothing learnt from timing.
  const expected = digest(`Bearer ${token}`)
  return (presented) => presented !== undefined && timingSafeEqual(digest(presented), expected)
}

/**
 * A listener of its own serving `GET /metrics`, and `GET /healthz` with its details when
 * `health` is given (the main port's `/healthz` answers its status only); resolves once bound.
 */
export async function listenMetrics(
  metrics: AppMetrics,
  port: number,
  host = '127.0.0.1',
  health?: () => unknown,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0]
    if (request.method === 'GET' && path === HEALTH_PATH && health) {
      response
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        })
        .end(JSON.stringify(health()))
      return
    }
    if (request.method !== 'GET' || path !== METRICS_PATH) {
      response.writeHead(404).end()
      return
    }
    metrics.scrape().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => response.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
