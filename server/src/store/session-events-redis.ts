import { createHash, randomBytes } from 'node:crypto'
import {
  connectPubSub,
  isClusterTarget,
  type RedisTarget,
  waitUntilReady,
  watchOutages,
} from './redis-connection'
import { assertClusterPrefix } from './redis-keys'
import { createLocalWatchers, type SessionEvents } from './session-events'

export interface RedisSessionEventsOptions {
  /** Prefix of the channel, as the store's key prefix (default `scope:`). */
  keyPrefix?: string
  connectTimeoutMs?: number
  /** A PUBLISH with no reply after this long is given up (the waiters time out instead). */
  commandTimeoutMs?: number
  /** Told once per outage that Redis went away. */
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
}

export interface RedisSessionEvents extends SessionEvents {
  readonly kind: 'redis'
  /** Resolves once both connections are up and the channel is subscribed. */
  ready(): Promise<void>
}

const DEFAULTS = { keyPrefix: 'scope:', connectTimeoutMs: 1_000, commandTimeoutMs: 1_000 }

/**
 * On a Cluster, the channels of sharded pub/sub: a message goes to the one shard that serves its
 * channel, never over every shard's bus. Sessions are spread over this many channels by their
 * hash (each its own slot, so over every shard), and every instance subscribes to all of them.
 */
export const SESSION_EVENT_SHARDS = 64

/**
 * Session changes across instances through one Redis pub/sub channel, `<prefix>sessions:changed`.
 * A message is `<instance id> <short hash of the session id>`: the session id itself never
 * leaves the instance (a MONITOR or a shared Redis does not show it), and an instance ignores its
 * own messages (it told its watchers already). Two connections: PUBLISH (no offline queue, short
 * timeout, like the store) and SUBSCRIBE (re-subscribes after a reconnect and then wakes every
 * local waiter, which re-reads its session: messages sent while it was away are not replayed).
 * On a Redis Cluster the same over sharded pub/sub (SPUBLISH, SSUBSCRIBE): the channel is
 * `<prefix>sessions:changed:{<n>}`, n the first hex digits of the hash modulo
 * SESSION_EVENT_SHARDS; after a failover moved a channel's shard, every local waiter re-reads.
 */
export function createRedisSessionEvents(
  target: RedisTarget,
  options: RedisSessionEventsOptions = {},
): RedisSessionEvents {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const cluster = isClusterTarget(target)
  if (cluster) assertClusterPrefix(keyPrefix)
  const channel = `${keyPrefix}sessions:changed`
  const channelOf = (key: string) =>
    cluster
      ? `${channel}:{${Number.parseInt(key.slice(0, 4), 16) % SESSION_EVENT_SHARDS}}`
      : channel
  const channels = cluster
    ? Array.from({ length: SESSION_EVENT_SHARDS }, (_, n) => `${channel}:{${n}}`)
    : [channel]
  const instanceId = randomBytes(8).toString('hex')
  const { commands: publisher, subscriber } = connectPubSub(
    target,
    { connectTimeoutMs, commandTimeoutMs },
    { sharded: true },
  )
  // Local watchers are keyed by the hash too, so a message maps to them without a reverse table.
  const watchers = createLocalWatchers()

  let closing = false
  const outages = watchOutages([publisher, subscriber], {
    log: options.log,
    message: 'session events: redis unavailable; reconnecting',
    back: 'session events: redis is back',
    closing: () => closing,
    timeoutMs: commandTimeoutMs,
  })
  let lostSubscription = false
  subscriber.on('close', () => {
    lostSubscription = true
  })
  let subscribed: Promise<unknown> = (
    cluster
      ? Promise.all(channels.map((name) => subscriber.ssubscribe(name)))
      : subscriber.subscribe(channel)
  ).catch(() => undefined)
  // ioredis moves sharded subscriptions to the new primaries itself after a failover.
  subscriber.on('subscribersReady', () => watchers.notifyAll())
  subscriber.on('ready', () => {
    if (!lostSubscription || cluster) return
    lostSubscription = false
    // ioredis has re-sent SUBSCRIBE before this event; a PING queued behind it answers once the
    // subscription holds. Then every waiter re-reads what it may have missed meanwhile.
    const resubscribed = subscriber.ping().catch(() => undefined)
    subscribed = resubscribed
    void resubscribed.then(() => watchers.notifyAll())
  })
  const ours = new Set(channels)
  const onMessage = (from: string, payload: string) => {
    if (!ours.has(from)) return
    const space = payload.indexOf(' ')
    if (space < 0 || payload.slice(0, space) === instanceId) return
    watchers.notify(payload.slice(space + 1))
  }
  subscriber.on(cluster ? 'smessage' : 'message', onMessage)

  return {
    kind: 'redis',

    async ready() {
      await Promise.all([waitUntilReady([publisher], connectTimeoutMs), subscribed])
      await waitUntilReady([subscriber], connectTimeoutMs)
    },

    async publish(sessionId) {
      const key = sessionEventKey(sessionId)
      watchers.notify(key)
      try {
        const message = `${instanceId} ${key}`
        await (cluster
          ? publisher.spublish(channelOf(key), message)
          : publisher.publish(channel, message))
      } catch (err) {
        outages.report(err)
      }
    },

    watch: (sessionId, listener) => watchers.add(sessionEventKey(sessionId), listener),

    watching: () => watchers.count(),

    outages: () => outages.stats(),

    async close() {
      closing = true
      outages.close()
      publisher.disconnect(false)
      subscriber.disconnect(false)
    },
  }
}

/** What the channel carries for a session: 16 hex digits of its SHA-256, never the id. */
export const sessionEventKey = (sessionId: string): string =>
  createHash('sha256').update(sessionId).digest('hex').slice(0, 16)
