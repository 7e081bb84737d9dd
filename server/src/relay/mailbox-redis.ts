import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { coalesceWrites } from '../store/redis-coalesce'
import {
  type PublishOutcome,
  type RelayMailbox,
  RelayStoreUnavailableError,
  type StoredMessage,
} from './mailbox'

export interface RedisMailboxOptions {
  /** Prefix of every key and channel, so several deployments can share one Redis. */
  keyPrefix?: string
  connectTimeoutMs?: number
  /** Reject a command that has had no reply after this long (a half-open socket). */
  commandTimeoutMs?: number
  now?: () => number
  /** Told once per outage that Redis went away. */
  log?: { warn(obj: object, msg: string): void }
}

export interface RedisMailbox extends RelayMailbox {
  readonly kind: 'redis'
  /** Resolves once both connections are up; rejects after connectTimeoutMs. */
  ready(): Promise<void>
}

/**
 * Publish: KEYS[1] the topic's hash; ARGV[1] messageId, ARGV[2] the stored value (JSON whose
 * first member is `expiresAt`), ARGV[3] expiresAt, ARGV[4] now (ms), ARGV[5] the per-topic limit,
 * ARGV[6] the topic's channel, ARGV[7] this instance's id. A live copy of the same id is a
 * duplicate: published again, not stored again. When the hash holds `limit` fields, the expired
 * ones are dropped first; if it is still full, nothing happens. The hash's TTL is stretched to
 * the longest message's, so an idle topic vanishes. Returns {1} stored, {2, value} duplicate, {0}
 * full. Store and publish are one atomic step: no instance can see one without the other.
 */
const PUBLISH_LUA = `
local function expiry(value)
  return tonumber(string.match(value, '^{"expiresAt":(%d+)'))
end
local now = tonumber(ARGV[4])
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then
  local at = expiry(existing)
  if at and at > now then
    redis.call('PUBLISH', ARGV[6], ARGV[7] .. ' ' .. existing)
    return { 2, existing }
  end
  redis.call('HDEL', KEYS[1], ARGV[1])
end
local limit = tonumber(ARGV[5])
if redis.call('HLEN', KEYS[1]) >= limit then
  local fields = redis.call('HGETALL', KEYS[1])
  for i = 1, #fields, 2 do
    local at = expiry(fields[i + 1])
    if not at or at <= now then
      redis.call('HDEL', KEYS[1], fields[i])
    end
  end
  if redis.call('HLEN', KEYS[1]) >= limit then
    return { 0 }
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local ttl = tonumber(ARGV[3]) - now
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
redis.call('PUBLISH', ARGV[6], ARGV[7] .. ' ' .. ARGV[2])
return { 1 }
`

interface ScriptCommands {
  scRelayPublish(key: string, ...args: string[]): Promise<[number, string?]>
}

/**
 * The stored JSON: `expiresAt` first (the script reads it), and `seq`, this instance's publish
 * counter, which orders messages of one instance published in the same millisecond (a hash keeps
 * no insertion order).
 */
type StoredValue = Omit<StoredMessage, 'topic'> & { seq: number }

const decodeValue = (topic: string, value: string): StoredMessage & { seq: number } => ({
  topic,
  ...(JSON.parse(value) as StoredValue),
})

const DEFAULTS = { keyPrefix: 'scope:', connectTimeoutMs: 1_000, commandTimeoutMs: 1_000 }

/**
 * The mailbox in Redis, shared by every instance: a hash per topic (`<prefix>relay:mb:<topic>`,
 * messageId → message), and a channel per topic (`<prefix>relay:ch:<topic>`) that an instance
 * subscribes to while it has a local subscriber. Two connections: commands, and pub/sub. Same
 * settings as the session store: no offline queue, no retries, a short command timeout, so a
 * request answers STORE_UNAVAILABLE at once while Redis is away; both reconnect in the background,
 * and the subscriber re-subscribes its channels and asks the hub to re-read the mailboxes.
 */
export function createRedisMailbox(url: string, options: RedisMailboxOptions = {}): RedisMailbox {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const now = options.now ?? Date.now
  const instanceId = randomBytes(8).toString('hex')
  const connect = () =>
    new Redis(url, {
      connectTimeout: connectTimeoutMs,
      commandTimeout: commandTimeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      autoResubscribe: false,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2_000),
    })
  const commands = connect() as Redis & ScriptCommands
  const subscriber = connect()
  commands.defineCommand('scRelayPublish', { numberOfKeys: 1, lua: PUBLISH_LUA })

  let seq = 0
  const encodeValue = (message: StoredMessage): string =>
    JSON.stringify({
      expiresAt: message.expiresAt,
      publishedAt: message.publishedAt,
      seq: seq++,
      tag: message.tag,
      messageId: message.messageId,
      message: message.message,
    } satisfies StoredValue)

  const mailboxKey = (topic: string) => `${keyPrefix}relay:mb:${topic}`
  const channelPrefix = `${keyPrefix}relay:ch:`

  let handlers: Parameters<RelayMailbox['setHandlers']>[0] | undefined
  let closing = false
  let outageLogged = false
  const outage = (reason: string) => {
    if (outageLogged || closing) return
    outageLogged = true
    options.log?.warn({ err: reason }, 'relay mailbox: redis unavailable; reconnecting')
  }
  for (const connection of [commands, subscriber]) {
    connection.on('error', (err: Error) => outage(err.message))
    connection.on('close', () => outage('connection closed'))
    connection.on('ready', () => {
      outageLogged = false
    })
  }

  // Channels the hub wants, and those the subscriber connection holds; `sync` moves one channel
  // from the second state to the first, one step at a time per channel, so a quick
  // listen → unlisten → listen never ends unsubscribed.
  const wanted = new Set<string>()
  const held = new Set<string>()
  const chains = new Map<string, Promise<void>>()
  const sync = (channel: string): Promise<void> => {
    const next = (chains.get(channel) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => {
        if (wanted.has(channel) && !held.has(channel)) {
          beforeSubscribe()
          await subscriber.subscribe(channel)
          held.add(channel)
        } else if (!wanted.has(channel) && held.has(channel)) {
          held.delete(channel)
          await subscriber.unsubscribe(channel)
        }
      })
    chains.set(channel, next)
    next
      .finally(() => {
        if (chains.get(channel) === next) chains.delete(channel)
      })
      .catch(() => {})
    return next
  }

  let lostSubscriptions = false
  subscriber.on('close', () => {
    held.clear()
    lostSubscriptions = true
  })
  subscriber.on('ready', () => {
    if (!lostSubscriptions) return
    lostSubscriptions = false
    void Promise.allSettled([...wanted].map(sync)).then(() => handlers?.onResync())
  })
  subscriber.on('message', (channel: string, payload: string) => {
    const space = payload.indexOf(' ')
    if (payload.slice(0, space) === instanceId || !channel.startsWith(channelPrefix)) return
    handlers?.onRemote(decodeValue(channel.slice(channelPrefix.length), payload.slice(space + 1)))
  })

  // Requests made while the first connection is being dialled wait for it (bounded), so a fresh
  // instance does not refuse its first clients; afterwards every call fails fast.
  let firstAttempt: Promise<void> | undefined = waitReady(
    [commands, subscriber],
    connectTimeoutMs,
  ).then(
    () => {
      firstAttempt = undefined
    },
    () => {
      firstAttempt = undefined
    },
  )

  // The commands of one event-loop turn leave in one socket write (as in the session store).
  const beforeCommand = coalesceWrites(commands)
  const beforeSubscribe = coalesceWrites(subscriber)

  const run = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      if (firstAttempt) await firstAttempt
      return await operation()
    } catch (err) {
      throw new RelayStoreUnavailableError(
        `redis: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      )
    }
  }

  return {
    kind: 'redis',
    ready: () =>
      waitReady([commands, subscriber], connectTimeoutMs).catch((err: unknown) => {
        throw new RelayStoreUnavailableError(String(err))
      }),

    publish(message, limit) {
      return run(async (): Promise<PublishOutcome> => {
        beforeCommand()
        const [status, existing] = await commands.scRelayPublish(
          mailboxKey(message.topic),
          message.messageId,
          encodeValue(message),
          String(message.expiresAt),
          String(now()),
          String(limit),
          channelPrefix + message.topic,
          instanceId,
        )
        if (status === 0) return { status: 'full' }
        if (status === 2 && existing) {
          return { status: 'duplicate', message: decodeValue(message.topic, existing) }
        }
        return { status: 'stored', message }
      })
    },

    read(topic) {
      return run(async () => {
        beforeCommand()
        const values = await commands.hvals(mailboxKey(topic))
        const at = now()
        return values
          .map((value) => decodeValue(topic, value))
          .filter((message) => message.expiresAt > at)
          .sort((a, b) => a.publishedAt - b.publishedAt || a.seq - b.seq)
      })
    },

    async listen(topic) {
      const channel = channelPrefix + topic
      wanted.add(channel)
      try {
        await run(() => sync(channel))
      } catch (err) {
        wanted.delete(channel)
        throw err
      }
    },

    async unlisten(topic) {
      const channel = channelPrefix + topic
      wanted.delete(channel)
      // A failed UNSUBSCRIBE leaves a channel whose messages the hub ignores; the next reconnect
      // subscribes only the wanted ones.
      await sync(channel).catch(() => {})
    },

    setHandlers(next) {
      handlers = next
    },

    async close() {
      closing = true
      commands.disconnect(false)
      subscriber.disconnect(false)
    },
  }
}

function waitReady(connections: Redis[], timeoutMs: number): Promise<void> {
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
