import { Cluster, Redis, type RedisOptions } from 'ioredis'
import { createOutageTracker, type OutageLog, type OutageStats } from './outage-tracker'

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

/**
 * Start-up check of `--redis-cluster`: resolves once one of `nodes` answers as a node of a Redis
 * Cluster (CLUSTER INFO); the client learns the rest from it. Rejects, naming every address and
 * why it failed, when none answers within `timeoutMs` (tried again every 250 ms meanwhile, as a
 * Redis started alongside may still be loading), or at once when one answers as a lone server
 * (`cluster support disabled`: that is `--redis-url`). Before, such a server started, answered
 * 503 forever and exited 0.
 */
export async function checkClusterNodes(
  nodes: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const reasons = new Map<string, string>()
  for (;;) {
    for (const node of nodes) {
      const colon = node.lastIndexOf(':')
      const client = new Redis({
        host: node.slice(0, colon),
        port: Number(node.slice(colon + 1)),
        lazyConnect: true,
        connectTimeout: Math.max(100, Math.min(1_000, deadline - Date.now())),
        commandTimeout: 1_000,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      })
      // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than `Connection is closed`.
      let socketError: unknown
      client.on('error', (err) => {
        socketError ??= err
      })
      try {
        await client.connect()
        const info = String(await client.cluster('INFO'))
        if (/cluster_state:/.test(info)) return
        reasons.set(node, 'no cluster state in CLUSTER INFO')
      } catch (thrown) {
        const err = socketError ?? thrown
        const message = err instanceof Error ? err.message : String(err)
        if (/cluster support disabled/i.test(message)) {
          throw new Error(
            `--redis-cluster ${node}: not a Redis Cluster node (${message}); for one Redis server give --redis-url`,
          )
        }
        reasons.set(node, message)
      } finally {
        client.disconnect()
      }
    }
    if (Date.now() >= deadline) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(
    `--redis-cluster: no node answered within ${timeoutMs} ms: ${[...reasons]
      .map(([node, reason]) => `${node} (${reason})`)
      .join(', ')}`,
  )
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

/** The hash slots of a Redis Cluster: 0 to 16383. */
const SLOT_COUNT = 16_384

/** A range of hash slots no primary serves now, and why (an operator's first clue). */
export interface UnservedSlots {
  /** `from-to`, or one slot `n`. */
  slots: string
  /** The primary that should serve them (`host:port`), when the cluster names one. */
  primary?: string
  reason: string
}

const slotRange = (from: number, to: number) => (from === to ? `${from}` : `${from}-${to}`)

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
    timer.unref?.()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * The slot ranges of a Redis Cluster that no primary serves now: the cluster's own slot table
 * (CLUSTER SLOTS, from the first node that answers) has a gap, or names a primary that does not
 * answer a PING within `timeoutMs`. Empty when every slot is served. A PING to a random node
 * succeeds while one shard is down; a request whose key hashes to that shard does not: this is
 * what `/readyz` and `scope_redis_up` read, so they agree with what the routes meet.
 */
export async function unservedSlots(cluster: Cluster, timeoutMs: number): Promise<UnservedSlots[]> {
  if (cluster.status !== 'ready') {
    return [{ slots: slotRange(0, SLOT_COUNT - 1), reason: `cluster client ${cluster.status}` }]
  }
  const nodes = cluster.nodes('all')
  const keyOf = (node: Redis) => `${node.options.host}:${node.options.port}`
  // Each entry: first slot, last slot, then its primary's [host, port, …] and its replicas'.
  let table: [number, number, ...[string, number, ...unknown[]][]][] | undefined
  let lastError: unknown
  for (const node of [...nodes].sort((a, b) => +(b.status === 'ready') - +(a.status === 'ready'))) {
    // A client that has sent nothing yet has only lazy connections: the first one is dialled.
    const away = await reach(node, timeoutMs)
    if (away !== undefined) {
      lastError = new Error(away)
      continue
    }
    try {
      table = (await withTimeout(
        node.cluster('SLOTS'),
        timeoutMs,
        'CLUSTER SLOTS',
      )) as unknown as typeof table
      break
    } catch (err) {
      lastError = err
    }
  }
  if (!table) {
    const reason = lastError instanceof Error ? lastError.message : 'no node connected'
    return [
      { slots: slotRange(0, SLOT_COUNT - 1), reason: `no node answers CLUSTER SLOTS (${reason})` },
    ]
  }
  const unserved: UnservedSlots[] = []
  const entries = [...table].sort((a, b) => a[0] - b[0])
  let next = 0
  const answers = new Map<string, Promise<string | undefined>>()
  const answerOf = (primary: string): Promise<string | undefined> => {
    let answer = answers.get(primary)
    if (!answer) {
      answer = pingNode(
        nodes.find((node) => keyOf(node) === primary),
        timeoutMs,
      )
      answers.set(primary, answer)
    }
    return answer
  }
  const checks: Promise<void>[] = []
  for (const [from, to, primaryNode] of entries) {
    const [host, port] = primaryNode ?? ['?', 0]
    if (from > next)
      unserved.push({ slots: slotRange(next, from - 1), reason: 'no primary assigned' })
    next = Math.max(next, to + 1)
    const primary = `${host}:${port}`
    checks.push(
      answerOf(primary).then((trouble) => {
        if (trouble !== undefined)
          unserved.push({ slots: slotRange(from, to), primary, reason: trouble })
      }),
    )
  }
  if (next < SLOT_COUNT) {
    unserved.push({ slots: slotRange(next, SLOT_COUNT - 1), reason: 'no primary assigned' })
  }
  await Promise.all(checks)
  if (unserved.some((range) => range.reason === 'unknown to this client')) {
    // A node this client has not met yet (a restarted or added one): learn the table again.
    void Promise.resolve()
      .then(() => cluster.refreshSlotsCache())
      .catch(() => {})
  }
  return unserved.sort((a, b) => Number.parseInt(a.slots, 10) - Number.parseInt(b.slots, 10))
}

/**
 * Undefined once `node`'s connection is ready; else why not. A node the client has not used yet
 * is dialled (lazily connected); one that dropped and is reconnecting is not waited for.
 */
async function reach(node: Redis, timeoutMs: number): Promise<string | undefined> {
  try {
    if (node.status === 'wait') node.connect().catch(() => {})
    if (node.status === 'wait' || node.status === 'connecting' || node.status === 'connect') {
      await waitUntilReady([node], timeoutMs)
    }
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
  return node.status === 'ready' ? undefined : `connection ${node.status}`
}

/** Undefined when `node` answers a PING; else why not. */
async function pingNode(node: Redis | undefined, timeoutMs: number): Promise<string | undefined> {
  if (!node) return 'unknown to this client'
  try {
    const away = await reach(node, timeoutMs)
    if (away !== undefined) return away
    await withTimeout(node.ping(), timeoutMs, 'PING')
    return undefined
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}

/** `slots 0-5460 (127.0.0.1:7000: connection reconnecting), …`: the ranges in one sentence. */
export function describeUnserved(ranges: readonly UnservedSlots[]): string {
  return `slots ${ranges
    .map((range) => `${range.slots} (${range.primary ? `${range.primary}: ` : ''}${range.reason})`)
    .join(', ')} not served`
}

export interface OutageLogOptions {
  log: OutageLog | undefined
  /** The start line (warn), e.g. `relay mailbox: redis unavailable; reconnecting`. */
  message: string
  /** The end line (info); default: the start line's subject and `redis is back`. */
  back?: string
  /** True once the owner is shutting down: its own disconnects are no outage. */
  closing(): boolean
  /** How long the connections must look healthy before the outage is over (default 2 s). */
  settleMs?: number
  /** While down, how often the connections are probed (default 500 ms). */
  probeMs?: number
  /** Bound on each probe command (default 1 s). */
  timeoutMs?: number
  /** Told of each confirmed sign of trouble (the reason), e.g. to start the routes' outage. */
  onTrouble?(reason: string): void
}

export interface OutageWatch {
  /**
   * An outage seen another way (commands failing or timing out): confirmed by a check first (the
   * connections ready and answering a PING; a Cluster's every slot range served).
   */
  report(reason: unknown): void
  /** A sign the outage is over (a PING answered). */
  recovered(): void
  /** Down now, and outages since start (each once). */
  stats(): OutageStats
  /** Checks the connections now: undefined when healthy, else why not (a Cluster names slots). */
  trouble(): Promise<string | undefined>
  /** Stops probing (owner closing). */
  close(): void
}

const DEFAULT_PROBE_MS = 500

/**
 * The outages of one owner's connections, through the shared `createOutageTracker`: counted once
 * and logged twice (start, end) however much a failover flaps. One server: a connection's error
 * or close starts an outage. A Cluster: a node's error, a failed command or a closed connection
 * starts one only when a slot range is then found unserved (`unservedSlots`; a replica lost is no
 * outage), and the start line names the ranges. While down the connections are probed every
 * `probeMs`; the outage ends once they have answered for `settleMs` in a row. (The cluster
 * client's own status stays `ready` through a shard's failover: waiting for its `ready` event
 * latched the warning at the first failover and never logged the end.)
 */
export function watchOutages(
  connections: RedisConnection[],
  options: OutageLogOptions,
): OutageWatch {
  const subject = options.message.split(':')[0]
  const tracker = createOutageTracker({
    log: options.log,
    message: options.message,
    back: options.back ?? `${subject}: redis is back`,
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    closing: options.closing,
  })
  const cluster = connections.find(
    (connection): connection is Cluster => connection instanceof Cluster,
  )
  const probeMs = options.probeMs ?? DEFAULT_PROBE_MS
  const timeoutMs = options.timeoutMs ?? 1_000
  let probeTimer: ReturnType<typeof setInterval> | undefined
  let checking = false

  const trouble = async (): Promise<string | undefined> => {
    const away = connections.find((connection) => connection.status !== 'ready')
    if (away) return `connection ${away.status}`
    if (cluster) {
      const unserved = await unservedSlots(cluster, timeoutMs)
      return unserved.length > 0 ? describeUnserved(unserved) : undefined
    }
    const [commands] = connections
    if (commands) await withTimeout(commands.ping(), timeoutMs, 'PING')
    return undefined
  }
  const stopProbe = () => {
    if (probeTimer) clearInterval(probeTimer)
    probeTimer = undefined
  }
  const startProbe = () => {
    if (probeTimer || options.closing()) return
    probeTimer = setInterval(() => check(), probeMs)
    probeTimer.unref?.()
  }
  const goDown = (reason: unknown) => {
    if (options.closing()) return
    tracker.down(reason)
    options.onTrouble?.(reason instanceof Error ? reason.message : String(reason))
    startProbe()
  }
  // A symptom on a Cluster is confirmed first; without one, the check only ends an outage.
  const check = (symptom?: unknown) => {
    if (options.closing()) return stopProbe()
    if (checking) return
    checking = true
    trouble()
      .catch((err: unknown) => (err instanceof Error ? err.message : String(err)))
      .then((found) => {
        checking = false
        if (options.closing()) return
        if (found !== undefined) {
          if (symptom !== undefined || tracker.stats().down) goDown(found)
          return
        }
        tracker.up()
        if (!tracker.stats().down) stopProbe()
      })
  }
  // A Cluster client swaps its start-up nodes for the slot table's (`-node`, errors) before it is
  // first ready: no outage yet (a cluster that never comes up stops the CLI's start-up instead).
  let started = !cluster
  const symptom = (reason: unknown) => {
    if (options.closing()) return
    if (cluster) {
      if (started) check(reason ?? 'error')
    } else goDown(reason)
  }
  const onReady = () => {
    if (connections.every((connection) => connection.status === 'ready')) started = true
  }
  onReady()
  for (const connection of connections) {
    connection.on('ready', onReady)
    connection.on('error', symptom)
    connection.on('close', () => symptom('connection closed'))
    connection.on('ready', () => {
      if (tracker.stats().down) check()
    })
    if (connection instanceof Cluster) {
      // A node's connection failed (`nodeError`: a sharded subscriber's), or one left the pool.
      const nodeError = (err: unknown, node: string) =>
        symptom(`${node}: ${err instanceof Error ? err.message : String(err)}`)
      connection.on('node error', nodeError)
      connection.on('nodeError', nodeError)
      connection.on('-node', (_redis: unknown, node: string) => symptom(`${node} left`))
    }
  }
  return {
    // A failed command is checked first (a PING, a Cluster's slots): one odd error is no outage.
    report: (reason) => {
      if (started) check(reason)
    },
    recovered: () => tracker.up(),
    stats: () => tracker.stats(),
    trouble,
    close: () => {
      stopProbe()
      tracker.close()
    },
  }
}
