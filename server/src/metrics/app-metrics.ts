import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import type { ConnectionCap } from '../http/connection-limits'
import type { StoreOutages } from '../http/store-outages'
import type { RateLimiter } from '../rate-limit'
import type { RelayServer } from '../relay/relay'
import type { SessionEvents } from '../store/session-events'
import type { Store } from '../store/types'

/** What the metrics read when Prometheus scrapes (none of it costs a request anything). */
export interface MetricsSources {
  limiter: Pick<RateLimiter, 'stats'>
  storeOutages: Pick<StoreOutages, 'stats'>
  connections: Pick<ConnectionCap, 'refused'>
  longPolls: { readonly open: number }
  store: Pick<Store, 'kind' | 'isReady'>
  /** Set once the relay routes are registered. */
  relay?: Pick<RelayServer, 'stats'>
  /** The session events (their Redis outages, when on Redis). */
  sessionEvents?: Pick<SessionEvents, 'outages'>
}

/** Counts one answer with the given status. */
export type CountStatus = (statusCode: number) => void

export interface AppMetrics {
  /** The answers of one route pattern and method; its label children are resolved once each. */
  route(pattern: string, method: string): CountStatus
  /** One 429, by the window that refused (the `RateLimit-Policy` name). */
  rateLimited(window: string): void
  /** The Prometheus text: reads every source once, then renders. */
  scrape(): Promise<string>
  readonly contentType: string
}

/**
 * Every metric the server exports (listed in docs/operations.md#metrics). The per-request
 * counters keep their label children, so the hot path does two Map lookups and an increment and
 * allocates nothing; everything else is read from its owner at scrape time.
 */
export function createAppMetrics(sources: MetricsSources): AppMetrics {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry })
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers })
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers })

  const requests = counter(
    'scope_http_requests_total',
    'HTTP answers by route pattern (never the raw URL; "unmatched" when no route matched), method and status',
    ['route', 'method', 'status'],
  )
  const rateLimited = counter(
    'scope_rate_limited_total',
    'Answers 429, by the window that refused: appkey, project, session, ip, auth, relay-sockets',
    ['window'],
  )
  const limiterFloor = gauge(
    'scope_rate_limiter_floor',
    '1 while the rate limiter counts on its per-instance floor (shared store unreachable)',
  )
  const limiterOutages = counter(
    'scope_rate_limiter_outages_total',
    'Switches of the rate limiter to its per-instance floor',
  )
  const floorDecisions = counter(
    'scope_rate_limiter_floor_decisions_total',
    'Rate-limit decisions made by the per-instance floor',
  )
  const storeDown = gauge(
    'scope_store_down',
    '1 from the first 503 STORE_UNAVAILABLE of an outage until the session store answers again',
  )
  const storeOutages = counter(
    'scope_store_outages_total',
    'Session store outages met by the routes',
  )
  const storeRefusals = counter(
    'scope_store_unavailable_responses_total',
    'Answers 503 STORE_UNAVAILABLE (a route found the session store unreachable)',
  )
  const connectionsRefused = counter(
    'scope_connections_refused_total',
    'Connections refused by the per-IP connection cap',
  )
  const longPolls = gauge('scope_long_polls_open', 'Session result long-polls waiting for a change')
  const redisUp = gauge(
    'scope_redis_up',
    'Whether Redis answers, by client: session_store, relay (absent for one kept in process)',
    ['client'],
  )
  const relaySockets = gauge('scope_relay_sockets', 'Open relay WebSockets on this instance')
  const relaySubscriptions = gauge('scope_relay_subscriptions', 'Relay topic subscriptions')
  const mailboxBytes = gauge('scope_relay_mailbox_bytes', 'Bytes held in the relay mailboxes')
  const mailboxMessages = gauge('scope_relay_mailbox_messages', 'Messages held in relay mailboxes')
  const quotaRefusals = counter(
    'scope_relay_quota_refusals_total',
    'Relay requests refused by a quota, by quota',
    ['quota'],
  )
  const relayRefusals = counter(
    'scope_relay_refusals_total',
    'Relay requests and sockets refused, by reason: a quota or share (as scope_relay_quota_refusals_total), storeUnavailable, tooManySubscriptions, publishRate, socketsPerIp',
    ['reason'],
  )
  const redisOutages = counter(
    'scope_redis_outages_total',
    'Redis outages by client (session_store, session_events, relay), each counted once however much it flapped',
    ['client'],
  )
  const slowConsumerCloses = counter(
    'scope_relay_slow_consumer_closes_total',
    'Relay sockets closed because they did not keep up',
  )

  // Counts their owners keep as plain numbers become counters here: each scrape adds the growth.
  const reported = new Map<string, number>()
  const advance = (
    key: string,
    metric: Counter,
    total: number,
    labels: Record<string, string> = {},
  ) => {
    const before = reported.get(key) ?? 0
    if (total > before) metric.inc(labels, total - before)
    reported.set(key, total)
  }

  const refresh = async () => {
    const limiter = sources.limiter.stats()
    limiterFloor.set(limiter.mode === 'floor' ? 1 : 0)
    advance('limiterOutages', limiterOutages, limiter.outages)
    advance('floorDecisions', floorDecisions, limiter.floorDecisions)
    const store = sources.storeOutages.stats()
    storeDown.set(store.down ? 1 : 0)
    advance('storeOutages', storeOutages, store.outages)
    advance('storeRefusals', storeRefusals, store.refusals)
    if (sources.store.kind === 'redis') {
      advance('redisOutages store', redisOutages, store.outages, { client: 'session_store' })
    }
    const events = sources.sessionEvents?.outages?.()
    if (events) {
      advance('redisOutages events', redisOutages, events.outages, { client: 'session_events' })
    }
    advance('connectionsRefused', connectionsRefused, sources.connections.refused)
    longPolls.set(sources.longPolls.open)

    const storeAnswers =
      sources.store.kind === 'redis' ? await sources.store.isReady().catch(() => false) : undefined
    const relay = sources.relay?.stats()
    redisUp.reset()
    if (storeAnswers !== undefined) redisUp.set({ client: 'session_store' }, storeAnswers ? 1 : 0)
    if (!relay) return
    if (relay.redis !== 'none') redisUp.set({ client: 'relay' }, relay.redis === 'up' ? 1 : 0)
    relaySockets.set(relay.sockets)
    relaySubscriptions.set(relay.subscriptions)
    mailboxBytes.set(relay.mailboxBytes)
    mailboxMessages.set(relay.mailboxMessages)
    advance('slowConsumerCloses', slowConsumerCloses, relay.slowConsumerCloses)
    for (const [quota, count] of Object.entries(relay.quotaRefusals)) {
      advance(`quota ${quota}`, quotaRefusals, count, { quota })
    }
    for (const [reason, count] of Object.entries(relay.refusals)) {
      advance(`refusal ${reason}`, relayRefusals, count, { reason })
    }
    if (relay.redis !== 'none') {
      advance('redisOutages relay', redisOutages, relay.redisOutages, { client: 'relay' })
    }
  }

  const routeChildren = new Map<string, Map<number, Counter.Internal>>()
  const windowChildren = new Map<string, Counter.Internal>()
  return {
    contentType: registry.contentType,
    async scrape() {
      await refresh()
      return registry.metrics()
    },
    route(pattern, method) {
      const key = `${method} ${pattern}`
      const children = routeChildren.get(key) ?? new Map<number, Counter.Internal>()
      routeChildren.set(key, children)
      return (statusCode) => {
        let child = children.get(statusCode)
        if (!child) {
          child = requests.labels(pattern, method, String(statusCode))
          children.set(statusCode, child)
        }
        child.inc()
      }
    },
    rateLimited(window) {
      let child = windowChildren.get(window)
      if (!child) {
        child = rateLimited.labels(window)
        windowChildren.set(window, child)
      }
      child.inc()
    },
  }
}
