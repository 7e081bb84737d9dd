import Fastify, { type FastifyInstance } from 'fastify'
import { API_PREFIX, ROUTES } from 'scope-connect/wire'
import { type ChainRegistry, createChainRegistry } from './chains'
import { createProjectIndex } from './config/project-index'
import { parseProjectsConfig } from './config/projects'
import type { ProjectsConfig } from './config/projects-schema'
import type { AppContext } from './context'
import { closeUnusedConnectionsOnClose } from './http/close-connections'
import {
  type ConnectionCap,
  type HttpLimits,
  installConnectionCap,
  resolveHttpLimits,
} from './http/connection-limits'
import { installCors } from './http/cors'
import { frameworkErrorHandler, installErrorHandling } from './http/error-handler'
import { clientErrorHandler, installHygiene } from './http/hygiene'
import { authFailureLimit } from './http/rate-limit'
import { trackRoutes } from './http/route-table'
import { createStoreOutages } from './http/store-outages'
import { installUpgradeGuard } from './http/upgrade-guard'
import { type LoggingOptions, loggerOptions } from './logging'
import { createAppMetrics, type MetricsSources } from './metrics/app-metrics'
import { countAnswers, countUnmatched } from './metrics/count-answers'
import {
  bearerCheck,
  listenMetrics,
  type MetricsOptions,
  registerMetricsRoute,
} from './metrics/endpoint'
import { registerOpenApiRoute } from './openapi/route'
import {
  coversEveryAddress,
  createRateLimiter,
  DEFAULT_RATE_LIMITS,
  type RateLimiter,
  trustedPeerWithoutHops,
  trustedProxies,
} from './rate-limit'
import type { RelayServer } from './relay/relay'
import { registerBalanceRoute } from './routes/balances'
import { registerBalancesBatchRoute } from './routes/balances-batch'
import { registerCallbackRoutes } from './routes/callbacks'
import { registerConfigRoute } from './routes/config'
import { registerHealthRoutes } from './routes/health'
import { type RelayOptions, registerRelayRoutes } from './routes/relay'
import { registerSessionRoutes } from './routes/sessions'
import { registerSignInRoutes } from './routes/sign-in'
import { registerTransactionRoute } from './routes/transactions'
import { createPollWindows } from './sessions/poll-windows'
import { createMemoryStore } from './store/memory'
import { createMemorySessionEvents, type SessionEvents } from './store/session-events'
import type { Store } from './store/types'
import { createMemoryTransactionFeed, type TransactionFeed } from './transactions/feed'
import { createTransactionService, type WaiterLimits } from './transactions/service'

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's relay: `app.relay.stats()` for metrics and health checks. */
    relay: RelayServer
  }
}

export interface AppOptions {
  /** The projects file's content; validated again here (throws ProjectsConfigError). */
  projects: ProjectsConfig
  /** Default: a new in-memory store (on the `now` clock). The app closes it on `app.close()`. */
  store?: Store
  /**
   * Where session changes are announced to waiting long-polls. Default: this process only
   * (`createMemorySessionEvents`), right for the embedded default. With several instances on
   * Redis pass `createRedisSessionEvents(url)`, or a long-poll on one instance learns of a
   * callback on another only when its wait ends. The app closes the default one.
   */
  sessionEvents?: SessionEvents
  /** Default: adapters for every network of every project (rpcUrls from the projects file). */
  chains?: ChainRegistry
  /** Default: `createRateLimiter` over the store. */
  limiter?: RateLimiter
  /**
   * Addresses/CIDRs of the reverse proxies in front; X-Forwarded-For and `Forwarded: for=` are
   * read only from them. A list that covers every address (0.0.0.0/0, ::/0, or a union that is
   * all of a family) is refused (`buildApp` throws) unless `trustProxyAny` is true.
   */
  trustProxy?: string[]
  /**
   * Allows a `trustProxy` that covers every address (`--trust-proxy-any`): only when nothing but
   * the proxies can reach the server's port, since any client could otherwise mint callers.
   */
  trustProxyAny?: boolean
  /** Test clock, ms. */
  now?: () => number
  /** false (default) or pino settings; `destination` captures the log lines. */
  logger?: LoggingOptions | false
  /** Session lifetime; default 600. */
  sessionTtlSeconds?: number
  /** Largest accepted body in bytes; default 16 KiB. */
  bodyLimit?: number
  /** The relay: signing keys, public URL, mailbox (memory by default, Redis to scale out), limits. */
  relay?: RelayOptions
  /** Request/header/keep-alive timeouts and the per-IP connection cap (`DEFAULT_HTTP_LIMITS`). */
  http?: Partial<HttpLimits>
  /**
   * Prometheus `/metrics`: on a listener of its own (`port`, `host` default 127.0.0.1), and/or on
   * the main port behind `token` (Bearer). Default: off, and then no request pays for it.
   */
  metrics?: MetricsOptions
  /** Transaction status reads (`GET /transactions`) and their block watchers. */
  transactions?: TransactionOptions
}

export interface TransactionOptions {
  /**
   * What instances share: the lease of each chain's block watcher, the heads, the pending
   * transactions seen. Default: this process only. With several instances pass
   * `createRedisTransactionFeed(url)`, so one instance polls each chain. The app closes the default.
   */
  feed?: TransactionFeed
  /** How often a watched chain's head is read; default 500 ms. */
  blockPollMs?: number
  /** Per RPC call; default 3 s (a slower node answers 502 UPSTREAM_ERROR). */
  timeoutMs?: number
  /** The fetch of the RPC calls (tests count them). */
  fetch?: typeof fetch
  /** Long-polls waiting at once, per caller and per instance (429 TOO_MANY_WAITERS past them). */
  waiters?: Partial<WaiterLimits>
}

export const DEFAULT_BODY_LIMIT = 16 * 1024
export const DEFAULT_SESSION_TTL_SECONDS = 600

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const config = parseProjectsConfig(options.projects, 'projects')
  const trustProxy = options.trustProxy ?? []
  trustedProxies(trustProxy) // throws at start on an entry that is not an address or CIDR
  if (coversEveryAddress(trustProxy) && options.trustProxyAny !== true) {
    throw new Error(
      `trustProxy ${JSON.stringify(trustProxy.join(','))} trusts every address: any client could name itself in X-Forwarded-For and mint new callers. List the proxies' addresses, or pass trustProxyAny (--trust-proxy-any) if only they can reach this port`,
    )
  }
  const now = options.now ?? Date.now
  const store = options.store ?? createMemoryStore({ now })
  const sessionEvents = options.sessionEvents ?? createMemorySessionEvents()
  const chains =
    options.chains ?? createChainRegistry(config.projects.flatMap((project) => project.networks))

  const httpLimits = resolveHttpLimits(options.http)
  const transactionFeed = options.transactions?.feed ?? createMemoryTransactionFeed(now)

  const app = Fastify({
    logger: loggerOptions(options.logger),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify's defaults never cut a request that trickles its body (requestTimeout 0).
    requestTimeout: httpLimits.requestTimeoutMs,
    keepAliveTimeout: httpLimits.keepAliveTimeoutMs,
    http: {
      headersTimeout: httpLimits.headersTimeoutMs,
      requestTimeout: httpLimits.requestTimeoutMs,
      connectionsCheckingInterval: httpLimits.timeoutCheckIntervalMs,
      // A missing Host is refused by installHygiene, in the documented body.
      requireHostHeader: false,
    },
    // Node's parser refusals (400, 408, 431) in the documented body.
    clientErrorHandler,
    // Fastify must not trust X-Forwarded-For itself; the callback routes resolve the caller.
    trustProxy: false,
    frameworkErrors: frameworkErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
  })
  // Only JSON bodies: text/plain would reach the schemas as a string instead of a 415.
  app.removeContentTypeParser('text/plain')
  closeUnusedConnectionsOnClose(app)

  const connections: ConnectionCap = installConnectionCap(
    app.server,
    httpLimits.maxConnectionsPerIp,
    trustProxy,
  )
  const projects = createProjectIndex(config)
  const ctx: AppContext = {
    connections,
    projects,
    store,
    sessionEvents,
    chains,
    limiter: options.limiter ?? createRateLimiter({ store, log: app.log }),
    countPollsInStore: options.limiter === undefined,
    pollWindows: createPollWindows(projects),
    now,
    sessionTtlMs: (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000,
    callbackIpPolicy: { ...DEFAULT_RATE_LIMITS.callbackIp, ...config.rateLimits?.callbackIp },
    authFailurePolicy: {
      ...DEFAULT_RATE_LIMITS.authFailureIp,
      ...config.rateLimits?.authFailureIp,
    },
    storeOutages: createStoreOutages({ store, log: app.log }),
    longPolls: { open: 0 },
    trustProxy,
    transactions: createTransactionService(
      config.projects.flatMap((project) => project.networks),
      {
        feed: transactionFeed,
        log: app.log,
        // A receipt ends the balance cache of the accounts it touched (docs/chains.md).
        onSettled: (chainId, touch) => chains.get(chainId)?.settled?.(touch),
        ...(options.transactions?.blockPollMs === undefined
          ? {}
          : { blockPollMs: options.transactions.blockPollMs }),
        ...(options.transactions?.fetch ? { fetch: options.transactions.fetch } : {}),
        ...(options.transactions?.waiters ? { waiters: options.transactions.waiters } : {}),
        ...(options.transactions?.timeoutMs === undefined
          ? {}
          : { timeoutMs: options.transactions.timeoutMs }),
      },
    ),
  }

  const metricsSources: MetricsSources = { ...ctx }
  const metrics = options.metrics ? createAppMetrics(metricsSources) : undefined
  // Before any route: each route's answer counter is resolved as it is registered.
  if (metrics) countAnswers(app, metrics)
  const routes = trackRoutes(app)
  const unmatched = metrics ? countUnmatched(metrics) : undefined
  installErrorHandling(app, routes, {
    limitAuthFailure: authFailureLimit(ctx),
    storeOutages: ctx.storeOutages,
    ...(unmatched ? { unmatched: (request, status) => unmatched(request.method, status) } : {}),
  })
  installHygiene(app)
  installCors(app, ctx.projects, routes)
  if (trustProxy.length > 0) warnOfProxiesWithoutHops(app, trustProxy)
  installUpgradeGuard(app, new Set([API_PREFIX + ROUTES.relay]))
  const relay = await registerRelayRoutes(app, ctx, options.relay)
  app.decorate('relay', relay)
  metricsSources.relay = relay
  const metricsToken = options.metrics?.token
  const holdsToken = metricsToken === undefined ? undefined : bearerCheck(metricsToken)
  const healthReport = registerHealthRoutes(app, ctx, relay, (request) =>
    holdsToken ? holdsToken(request.headers.authorization) : false,
  )
  registerBalanceRoute(app, ctx)
  registerBalancesBatchRoute(app, ctx)
  registerConfigRoute(app, ctx)
  registerSessionRoutes(app, ctx)
  registerCallbackRoutes(app, ctx)
  registerTransactionRoute(app, ctx)
  registerSignInRoutes(app, ctx)
  registerOpenApiRoute(app)
  if (metrics && options.metrics?.token !== undefined) {
    registerMetricsRoute(app, metrics, options.metrics.token)
  }
  if (metrics && options.metrics?.port !== undefined) {
    const listener = await listenMetrics(
      metrics,
      options.metrics.port,
      options.metrics.host,
      healthReport,
    )
    app.decorate('metricsUrl', listener.url)
    app.addHook('onClose', () => listener.close())
  }
  app.addHook('onClose', async () => {
    ctx.storeOutages.close()
    if (!options.store) await store.close()
    if (!options.sessionEvents) await sessionEvents.close()
    ctx.transactions.close()
    if (!options.transactions?.feed) await transactionFeed.close()
    if (!options.chains) chains.close?.()
  })
  await app.ready()
  return app
}

/** Peers named once in the log at most; past it, further ones are not logged (a bounded set). */
const MAX_LOGGED_PEERS = 64

/**
 * A trusted proxy that sends neither X-Forwarded-For nor `Forwarded` makes every client behind it
 * one caller (one rate-limit window for all). Logged once per peer address, never per request.
 */
function warnOfProxiesWithoutHops(app: FastifyInstance, trustProxy: readonly string[]): void {
  const logged = new Set<string>()
  app.addHook('onRequest', async (request) => {
    const peer = request.socket.remoteAddress
    if (peer === undefined || logged.has(peer) || logged.size >= MAX_LOGGED_PEERS) return
    if (!trustedPeerWithoutHops(peer, request.headers, trustProxy)) return
    logged.add(peer)
    app.log.warn(
      { peer },
      'a trusted proxy sent neither X-Forwarded-For nor Forwarded: every client behind it counts as one caller (logged once per proxy)',
    )
  })
}
