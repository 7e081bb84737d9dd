import { randomBytes } from 'node:crypto'
import type { Cluster } from 'ioredis'
import { coalesceWrites } from '../store/redis-coalesce'
import {
  connectRedis,
  isClusterTarget,
  type RedisConnection,
  type RedisTarget,
  reconnectBackoff,
  waitUntilReady,
  watchOutages,
} from '../store/redis-connection'
import { assertClusterPrefix } from '../store/redis-keys'
import { chargedBytes, pairedExpiry, type RefusalReason } from './admission'
import {
  type MailboxTotals,
  type PublishOutcome,
  type RelayMailbox,
  RelayStoreUnavailableError,
  type StoredMessage,
} from './mailbox'
import { clusterKeys, clusterPublishing } from './mailbox-cluster'
import { capUnpairedTtlAndRecordParty } from './topic-parties.lua'

export interface RedisMailboxOptions {
  /** Prefix of every key and channel, so several deployments can share one Redis. */
  keyPrefix?: string
  connectTimeoutMs?: number
  /** Reject a command that has had no reply after this long (a half-open socket). */
  commandTimeoutMs?: number
  now?: () => number
  /**
   * Redis Cluster: how often the instance reconciles its storage usage with the others'
   * (`mailbox-cluster.ts`); 1 s by default.
   */
  reconcileIntervalMs?: number
  /** Told once per outage that Redis went away. */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
}

export interface RedisMailbox extends RelayMailbox {
  readonly kind: 'redis'
  /** Resolves once both connections are up; rejects after connectTimeoutMs. */
  ready(): Promise<void>
}

// Keys of one topic: its mailbox (messageId → stored JSON) and its shares (sub → live
// messages; `~1`, `~2` the parties, `~others` the other publishers' messages; admission.ts).
// Keys of the deployment: `relay:expiries` (a sorted set of every message by expiresAt) and
// `relay:usage` (`bytes`, `messages`, `apps` the app keys holding messages, per app key `b:<app>`,
// `n:<app>`, `ns:<app>` its sources holding messages, per source `sb:<app>|<source>`,
// `sn:<app>|<source>`; bytes as charged, `admission.ts`). An expiry member is
// `<topic> <messageId> <expiresAt> <bytes> <app> <sub> <source>`: all its release needs.
//
// `trim` is the one place messages leave: the due members of `relay:expiries` (at most 1,000 a
// call; every script and a 10 s timer call it) take their message out of its mailbox and their
// counts out of the shares and the usage. A topic's keys live an hour past its last message, as
// a backstop should no instance trim them; the two deployment keys hold only live messages.
const TRIM_LUA = `
local prefix = ARGV[1]
local function expiry(value)
  return tonumber(string.match(value, '^{"expiresAt":(%d+)'))
end
local function drop(hash, field, by)
  if redis.call('HINCRBY', hash, field, by) <= 0 then
    redis.call('HDEL', hash, field)
    return true
  end
  return false
end
local function trim(now)
  local due = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1000)
  for _, member in ipairs(due) do
    redis.call('ZREM', KEYS[3], member)
    local topic, id, at, size, app, sub, source =
      string.match(member, '^(%x+) (%x+) (%d+) (%d+) (%S+) (%S+) (%S+)$')
    -- Every member is written by the publish below; one that is not is skipped, not fatal.
    if topic then
      local mb = prefix .. 'relay:mb:' .. topic
      local mp = prefix .. 'relay:mp:' .. topic
      local value = redis.call('HGET', mb, id)
      if value and expiry(value) == tonumber(at) then redis.call('HDEL', mb, id) end
      drop(mp, sub, -1)
      local parties = redis.call('HMGET', mp, '~1', '~2')
      if sub ~= parties[1] and sub ~= parties[2] then drop(mp, '~others', -1) end
      if redis.call('HLEN', mb) == 0 then redis.call('DEL', mp) end
      size = tonumber(size)
      redis.call('HINCRBY', KEYS[4], 'bytes', -size)
      redis.call('HINCRBY', KEYS[4], 'messages', -1)
      drop(KEYS[4], 'b:' .. app, -size)
      if drop(KEYS[4], 'n:' .. app, -1) then drop(KEYS[4], 'apps', -1) end
      drop(KEYS[4], 'sb:' .. app .. '|' .. source, -size)
      if drop(KEYS[4], 'sn:' .. app .. '|' .. source, -1) then drop(KEYS[4], 'ns:' .. app, -1) end
    end
  end
end
`

/** KEYS as above; ARGV[1] the prefix, ARGV[2] now. Returns the usage: {bytes, messages}. */
const TRIM_ONLY_LUA = `${TRIM_LUA}
trim(tonumber(ARGV[2]))
local usage = redis.call('HMGET', KEYS[4], 'bytes', 'messages')
return { tonumber(usage[1]) or 0, tonumber(usage[2]) or 0 }
`

/**
 * Publish, one atomic step: trim; a live copy of the same id is a duplicate (published again,
 * not stored again); the fair shares and the quotas of admission.ts, in the same order; then
 * store, count, stretch the keys' TTLs, PUBLISH. No instance can see a stored message that was
 * not sent, or the reverse, and two instances cannot both take the last slot of a share or quota.
 * KEYS: mailbox, shares, expiries, usage. ARGV: prefix, now, messageId, stored value,
 * expiresAt, channel, instance id, sub, app, bytes, perTopic, appQuotaBytes, appQuotaMessages,
 * mailboxQuotaBytes, topic, backstop ms, source, sourceQuotaBytes, sourceQuotaMessages, the
 * unpaired expiresAt (admission.ts). Returns {1, bytes, messages, expiresAt} stored (the usage
 * after), {2, value} duplicate, {0, reason} refused.
 */
const PUBLISH_LUA = `${TRIM_LUA}
local now = tonumber(ARGV[2])
trim(now)
local id, value, expiresAt, channel = ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]
local existing = redis.call('HGET', KEYS[1], id)
if existing then
  local at = expiry(existing)
  if at and at > now then
    redis.call('PUBLISH', channel, ARGV[7] .. ' ' .. existing)
    return { 2, existing }
  end
end
local sub, app, size, perTopic = ARGV[8], ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11])
local shares = redis.call('HMGET', KEYS[2], '~1', '~2', sub, '~others')
local p1, p2 = shares[1], shares[2]
local party = sub == p1 or sub == p2 or not p1 or not p2
local held = tonumber(shares[3]) or 0
local others = tonumber(shares[4]) or 0
local partyShare = math.ceil(perTopic * 2 / 5)
if redis.call('HLEN', KEYS[1]) >= perTopic then return { 0, 'topicFull' } end
if held >= (party and partyShare or math.ceil(perTopic / 10)) then
  return { 0, 'publisherShare' }
end
if not party and others >= math.max(0, perTopic - 2 * partyShare) then
  return { 0, 'topicFull' }
end
local source = app .. '|' .. ARGV[17]
local usage = redis.call('HMGET', KEYS[4], 'n:' .. app, 'b:' .. app, 'bytes', 'sn:' .. source,
  'sb:' .. source, 'ns:' .. app, 'apps')
local appMessages, appBytes = tonumber(usage[1]) or 0, tonumber(usage[2]) or 0
local sourceMessages, sourceBytes = tonumber(usage[4]) or 0, tonumber(usage[5]) or 0
-- The callers sharing a full ceiling, this one counted (fair-ceiling.ts's fairShare).
local appSources = (tonumber(usage[6]) or 0) + (sourceMessages == 0 and 1 or 0)
local apps = (tonumber(usage[7]) or 0) + (appMessages == 0 and 1 or 0)
local function share(ceiling, callers)
  return math.max(1, math.floor(ceiling / math.max(1, callers)))
end
if sourceMessages + 1 > tonumber(ARGV[19]) then return { 0, 'sourceMessages' } end
if sourceBytes + size > tonumber(ARGV[18]) then return { 0, 'sourceBytes' } end
if appMessages + 1 > tonumber(ARGV[13])
  and sourceMessages + 1 > share(tonumber(ARGV[13]), appSources) then
  return { 0, 'appMessages' }
end
if appBytes + size > tonumber(ARGV[12])
  and sourceBytes + size > share(tonumber(ARGV[12]), appSources) then
  return { 0, 'appBytes' }
end
if (tonumber(usage[3]) or 0) + size > tonumber(ARGV[14])
  and appBytes + size > share(tonumber(ARGV[14]), apps) then
  return { 0, 'mailboxBytes' }
end

${capUnpairedTtlAndRecordParty(5, 20)}redis.call('ZADD', KEYS[3], expiresAt,
  ARGV[15] .. ' ' .. id .. ' ' .. expiresAtText .. ' ' .. size .. ' ' .. app .. ' ' .. sub .. ' ' .. ARGV[17])
local bytes = redis.call('HINCRBY', KEYS[4], 'bytes', size)
local messages = redis.call('HINCRBY', KEYS[4], 'messages', 1)
redis.call('HINCRBY', KEYS[4], 'b:' .. app, size)
if redis.call('HINCRBY', KEYS[4], 'n:' .. app, 1) == 1 then
  redis.call('HINCRBY', KEYS[4], 'apps', 1)
end
redis.call('HINCRBY', KEYS[4], 'sb:' .. source, size)
if redis.call('HINCRBY', KEYS[4], 'sn:' .. source, 1) == 1 then
  redis.call('HINCRBY', KEYS[4], 'ns:' .. app, 1)
end
local ttl = expiresAt - now + tonumber(ARGV[16])
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
redis.call('PUBLISH', channel, ARGV[7] .. ' ' .. value)
return { 1, bytes, messages, expiresAtText }
`

/** A mailbox key outlives its last message by this much, should no instance trim it. */
const BACKSTOP_MS = 3_600_000
const TRIM_INTERVAL_MS = 10_000

interface ScriptCommands {
  scRelayPublish(...keysAndArgs: string[]): Promise<[number, string | number, number?, string?]>
  scRelayTrim(...keysAndArgs: string[]): Promise<[number, number]>
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
 * On a Redis Cluster the keys and channels carry the topic as hash tag, the fan-out is sharded
 * pub/sub, a publish is one script in its topic's slot, and the quotas are counted per instance
 * and reconciled (`mailbox-cluster.ts`).
 */
export function createRedisMailbox(
  target: RedisTarget,
  options: RedisMailboxOptions = {},
): RedisMailbox {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const now = options.now ?? Date.now
  const instanceId = randomBytes(8).toString('hex')
  const cluster = isClusterTarget(target)
  if (cluster) assertClusterPrefix(keyPrefix)
  const connect = (sharded: boolean) =>
    connectRedis(
      target,
      {
        connectTimeout: connectTimeoutMs,
        commandTimeout: commandTimeoutMs,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        autoResubscribe: false,
        retryStrategy: reconnectBackoff,
      },
      { sharded },
    )
  const commands = connect(false) as RedisConnection & ScriptCommands
  const subscriber = connect(true)
  // The commands of one event-loop turn leave in one socket write (as in the session store).
  const beforeCommand = coalesceWrites(commands)
  const beforeSubscribe = coalesceWrites(subscriber)
  const onCluster = cluster
    ? clusterPublishing(commands as Cluster, clusterKeys(keyPrefix), {
        instanceId,
        now,
        backstopMs: BACKSTOP_MS,
        beforeCommand,
        ...(options.reconcileIntervalMs
          ? { reconcileIntervalMs: options.reconcileIntervalMs }
          : {}),
      })
    : undefined
  if (!onCluster) {
    commands.defineCommand('scRelayPublish', { numberOfKeys: 4, lua: PUBLISH_LUA })
    commands.defineCommand('scRelayTrim', { numberOfKeys: 4, lua: TRIM_ONLY_LUA })
  }

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

  const names = cluster ? clusterKeys(keyPrefix) : undefined
  const mailboxKey = (topic: string) => names?.mailbox(topic) ?? `${keyPrefix}relay:mb:${topic}`
  const sharesKey = (topic: string) => `${keyPrefix}relay:mp:${topic}`
  const expiriesKey = `${keyPrefix}relay:expiries`
  const usageKey = `${keyPrefix}relay:usage`
  let totals: MailboxTotals = { bytes: 0, messages: 0 }
  const channelPrefix = `${keyPrefix}relay:ch:`
  const channelOf = (topic: string) => names?.channel(topic) ?? channelPrefix + topic
  const topicOf = (channel: string) =>
    names
      ? names.topicOf(channel)
      : channel.startsWith(channelPrefix)
        ? channel.slice(channelPrefix.length)
        : undefined

  let handlers: Parameters<RelayMailbox['setHandlers']>[0] | undefined
  let closing = false
  // An outage is logged twice in all: when it starts, and when it ends (on a Cluster too).
  const outages = watchOutages([commands, subscriber], {
    log: options.log,
    message: 'relay mailbox: redis unavailable; reconnecting',
    back: 'relay mailbox: redis is back',
    closing: () => closing,
    timeoutMs: commandTimeoutMs,
  })

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
          await (cluster ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel))
          held.add(channel)
        } else if (!wanted.has(channel) && held.has(channel)) {
          held.delete(channel)
          await (cluster ? subscriber.sunsubscribe(channel) : subscriber.unsubscribe(channel))
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
  // On a Cluster, ioredis moves the sharded subscriptions to the new primaries after a failover;
  // what was published meanwhile is only in the mailboxes.
  subscriber.on('subscribersReady', () => handlers?.onResync())
  subscriber.on(cluster ? 'smessage' : 'message', (channel: string, payload: string) => {
    const space = payload.indexOf(' ')
    const topic = topicOf(channel)
    if (payload.slice(0, space) === instanceId || topic === undefined) return
    handlers?.onRemote(decodeValue(topic, payload.slice(space + 1)))
  })

  // Requests made while the first connection is being dialled wait for it (bounded), so a fresh
  // instance does not refuse its first clients; afterwards every call fails fast.
  let firstAttempt: Promise<void> | undefined = waitUntilReady(
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

  const run = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      if (firstAttempt) await firstAttempt
      return await operation()
    } catch (err) {
      outages.report(err)
      throw new RelayStoreUnavailableError(
        `redis: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      )
    }
  }

  // Messages expire whether or not anyone publishes: release them (and refresh the totals).
  const trimTimer = setInterval(() => {
    if (commands.status !== 'ready') return
    beforeCommand()
    const trimmed: Promise<MailboxTotals> =
      onCluster?.trim() ??
      commands
        .scRelayTrim(
          mailboxKey('0'),
          sharesKey('0'),
          expiriesKey,
          usageKey,
          keyPrefix,
          String(now()),
        )
        .then(([bytes, messages]) => ({ bytes, messages }))
    trimmed
      .then((next) => {
        totals = next
      })
      .catch(() => {})
  }, TRIM_INTERVAL_MS)
  trimTimer.unref()

  return {
    kind: 'redis',
    ready: () =>
      waitUntilReady([commands, subscriber], connectTimeoutMs).catch((err: unknown) => {
        throw new RelayStoreUnavailableError(String(err))
      }),

    publish(message, from, limits) {
      return run(async (): Promise<PublishOutcome> => {
        beforeCommand()
        if (onCluster) {
          const outcome = await onCluster.publish(message, encodeValue(message), from, limits)
          if (outcome.status === 'stored') {
            totals = outcome.totals
            const { expiresAt } = outcome
            return {
              status: 'stored',
              message: expiresAt === message.expiresAt ? message : { ...message, expiresAt },
            }
          }
          return outcome.status === 'refused'
            ? outcome
            : { status: 'duplicate', message: decodeValue(message.topic, outcome.value) }
        }
        const charged = chargedBytes(message.message.length)
        const [status, second, third, expiresAt] = await commands.scRelayPublish(
          mailboxKey(message.topic),
          sharesKey(message.topic),
          expiriesKey,
          usageKey,
          keyPrefix,
          String(now()),
          message.messageId,
          encodeValue(message),
          String(message.expiresAt),
          channelOf(message.topic),
          instanceId,
          from.sub,
          from.app,
          String(charged),
          String(limits.perTopic),
          String(limits.appQuotaBytes),
          String(limits.appQuotaMessages),
          String(limits.mailboxQuotaBytes),
          message.topic,
          String(BACKSTOP_MS),
          from.source,
          String(limits.sourceQuotaBytes),
          String(limits.sourceQuotaMessages),
          String(pairedExpiry(message, false, limits)),
        )
        if (status === 0) return { status: 'refused', reason: second as RefusalReason }
        if (status === 2) {
          return { status: 'duplicate', message: decodeValue(message.topic, second as string) }
        }
        totals = { bytes: Number(second), messages: Number(third) }
        const storedUntil = Number(expiresAt)
        return {
          status: 'stored',
          message:
            storedUntil === message.expiresAt ? message : { ...message, expiresAt: storedUntil },
        }
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
      const channel = channelOf(topic)
      wanted.add(channel)
      try {
        await run(() => sync(channel))
      } catch (err) {
        wanted.delete(channel)
        throw err
      }
    },

    async unlisten(topic) {
      const channel = channelOf(topic)
      wanted.delete(channel)
      // A failed UNSUBSCRIBE leaves a channel whose messages the hub ignores; the next reconnect
      // subscribes only the wanted ones.
      await sync(channel).catch(() => {})
    },

    setHandlers(next) {
      handlers = next
    },

    totals: () => onCluster?.totals() ?? totals,

    // A Cluster client stays `ready` while one shard is away: the outage watch sees that too.
    backend: () =>
      commands.status === 'ready' && subscriber.status === 'ready' && !outages.stats().down
        ? 'up'
        : 'down',

    outages: () => outages.stats(),

    async close() {
      closing = true
      outages.close()
      clearInterval(trimTimer)
      onCluster?.close()
      commands.disconnect(false)
      subscriber.disconnect(false)
    },
  }
}
