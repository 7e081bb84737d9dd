import { Cluster, Redis, type RedisOptions } from 'ioredis'

/**
 * Where the backend's Redis is: one server's URL (`redis://…`), or the nodes of a Redis Cluster
 * (`host:port` of any of them; the client learns the rest from the cluster).
 */
export type RedisTarget = string | { readonly cluster: readonly string[] }

export type RedisConnection = Redis | Cluster

export const isClusterTarget = (
  target: RedisTarget,
): target is { readonly cluster: readonly string[] } => typeof target !== 'string'

/** `host:port,host:port` (the `--redis-cluster` flag) as a target; throws on a malformed entry. */
export function parseClusterNodes(text: string): { cluster: string[] } {
  const nodes = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (nodes.length === 0) throw new Error('no cluster node given (host:port,…)')
  for (const node of nodes) {
    if (!/^[^\s:/]+:\d{1,5}$/.test(node)) throw new Error(`not a host:port: ${node}`)
  }
  return { cluster: nodes }
}

/**
 * One connection (or, on a Cluster, one client over every node) with `options`. On a Cluster the
 * same promises hold as on one server: a command is never queued while its node is away (the
 * offline queue is off at the cluster level; a node's lazy connection is allowed to dial), a
 * reply is awaited at most `commandTimeout`, and a command that met a closed connection is tried
 * again only a few times, 100 ms apart, with the slot table refreshed in between (so it reaches
 * the replica that took over, if that happened meanwhile; otherwise it fails and the route
 * answers 503). `sharded` adds one subscriber connection per primary for SSUBSCRIBE.
 */
export function connectRedis(
  target: RedisTarget,
  options: RedisOptions,
  cluster: { sharded?: boolean } = {},
): RedisConnection {
  if (typeof target === 'string') return new Redis(target, options)
  const { retryStrategy, enableOfflineQueue, ...nodeOptions } = options
  return new Cluster(
    target.cluster.map((node) => {
      const colon = node.lastIndexOf(':')
      return { host: node.slice(0, colon), port: Number(node.slice(colon + 1)) }
    }),
    {
      redisOptions: nodeOptions,
      enableOfflineQueue: enableOfflineQueue ?? true,
      // Whole-cluster reconnects (every node lost) back off as a lone server's do.
      clusterRetryStrategy: (times) => retryStrategy?.(times) ?? Math.min(100 * times, 2_000),
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      // A MOVED after a failover or a resharding costs one redirection; a dead primary costs one
      // each 100 ms try. Five bound a command during a failover to about half a second.
      maxRedirections: 5,
      slotsRefreshTimeout: options.connectTimeout ?? 1_000,
      scaleReads: 'master',
      shardedSubscribers: cluster.sharded ?? false,
    },
  )
}

/**
 * The two connections of an owner that publishes and subscribes: `commands` never queues a command
 * while Redis is away and waits `commandTimeoutMs` at most for a reply (a call fails fast, as the
 * store's), and `subscriber` re-subscribes by itself after a reconnect. Both reconnect with
 * `reconnectBackoff`, forever. `sharded`: the subscriber takes SSUBSCRIBE on a Cluster.
 */
export function connectPubSub(
  target: RedisTarget,
  timeouts: { connectTimeoutMs: number; commandTimeoutMs: number },
  subscriber: { sharded?: boolean } = {},
): { commands: RedisConnection; subscriber: RedisConnection } {
  return {
    commands: connectRedis(target, {
      connectTimeout: timeouts.connectTimeoutMs,
      commandTimeout: timeouts.commandTimeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: reconnectBackoff,
    }),
    subscriber: connectRedis(
      target,
      {
        connectTimeout: timeouts.connectTimeoutMs,
        autoResubscribe: true,
        maxRetriesPerRequest: null,
        retryStrategy: reconnectBackoff,
      },
      subscriber,
    ),
  }
}

/** The live connections to the primaries (one server: itself). */
export function primaryConnections(connection: RedisConnection): Redis[] {
  return connection instanceof Cluster ? connection.nodes('master') : [connection]
}

/** Reconnect backoff of every backend connection: 50 ms doubling to 2 s, never giving up. */
export const reconnectBackoff = (times: number): number =>
  Math.min(50 * 2 ** Math.min(times, 6), 2_000)

/** Resolves once every connection is ready; rejects after `timeoutMs`. */
export function waitUntilReady(connections: RedisConnection[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const pending = connections.filter((connection) => connection.status !== 'ready')
    if (pending.length === 0) return resolve()
    let left = pending.length
    const timer = setTimeout(() => {
      for (const connection of pending) connection.off('ready', onReady)
      reject(new Error(`redis not ready after ${timeoutMs} ms`))
    }, timeoutMs)
    timer.unref()
    function onReady() {
      if (--left === 0) {
        clearTimeout(timer)
        resolve()
      }
    }
    for (const connection of pending) connection.once('ready', onReady)
  })
}

export interface OutageLogOptions {
  log: { warn(obj: object, msg: string): void; info?(msg: string): void } | undefined
  /** The warning, e.g. `relay mailbox: redis unavailable; reconnecting`. */
  message: string
  /** Logged (info) once every connection is ready again after an outage; nothing when absent. */
  back?: string
  /** True once the owner is shutting down: its own disconnects are no outage. */
  closing(): boolean
}

/**
 * One warning per Redis outage of `connections`: the first error or closed connection logs
 * `message`; nothing more until every connection is ready again (then `back`). `report` logs an
 * outage seen another way (commands timing out), `recovered` ends one seen to be over (a PING).
 */
export function watchOutages(
  connections: RedisConnection[],
  options: OutageLogOptions,
): { report(reason: unknown): void; recovered(): void } {
  let logged = false
  // A reason is a sentence, or what a failed command threw (its message is logged).
  const report = (reason: unknown) => {
    if (logged || options.closing()) return
    logged = true
    const err = reason instanceof Error ? reason.message : String(reason)
    options.log?.warn({ err }, options.message)
  }
  for (const connection of connections) {
    connection.on('error', report)
    connection.on('close', () => report('connection closed'))
    connection.on('ready', () => {
      if (!logged || connections.some((other) => other.status !== 'ready')) return
      logged = false
      if (options.back) options.log?.info?.(options.back)
    })
  }
  return {
    report,
    recovered: () => {
      logged = false
    },
  }
}
