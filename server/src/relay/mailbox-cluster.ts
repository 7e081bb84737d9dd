import type { Cluster } from 'ioredis'
import type { AdmissionLimits, RefusalReason } from './admission'
import type { MailboxTotals, Publisher, StoredMessage } from './mailbox'

/**
 * The relay mailbox's publish on a Redis Cluster. On one Redis a publish is one script over the
 * topic's keys and the deployment's (usage, expiries); a Cluster runs a script only over keys of
 * one slot, so here a publish is two: the quotas in the deployment's slot (`{usage}`), then the
 * topic's own step in its slot (`{<topic>}`), which stores and fans out with SPUBLISH on the
 * topic's sharded channel. The quotas are reserved first and given back when the topic refuses
 * (fair share, full) or holds the message already: nothing is ever stored that the quotas did not
 * admit. A reservation whose topic step failed on the way (a timeout) is kept until the message's
 * ttl: the quotas may count a message that was not stored, never the reverse.
 *
 * Keys: `<prefix>relay:mb:{<topic>}`, `relay:mp:{<topic>}` as on one Redis; `relay:mx:{<topic>}`
 * the topic's messages by expiry (`<messageId> <expiresAt> <sub>`), which the topic step trims;
 * `relay:{usage}` and `relay:{usage}:expiries` (`<topic> <messageId> <expiresAt> <bytes> <app>
 * <source> <reservation>`), which the quota step trims.
 */
export interface ClusterKeys {
  mailbox(topic: string): string
  shares(topic: string): string
  expiries(topic: string): string
  channel(topic: string): string
  /** The topic of a channel name, or undefined for another channel. */
  topicOf(channel: string): string | undefined
  usage: string
  usageExpiries: string
}

export function clusterKeys(prefix: string): ClusterKeys {
  const channelPrefix = `${prefix}relay:ch:{`
  return {
    mailbox: (topic) => `${prefix}relay:mb:{${topic}}`,
    shares: (topic) => `${prefix}relay:mp:{${topic}}`,
    expiries: (topic) => `${prefix}relay:mx:{${topic}}`,
    channel: (topic) => `${channelPrefix}${topic}}`,
    topicOf: (channel) =>
      channel.startsWith(channelPrefix) && channel.endsWith('}')
        ? channel.slice(channelPrefix.length, -1)
        : undefined,
    usage: `${prefix}relay:{usage}`,
    usageExpiries: `${prefix}relay:{usage}:expiries`,
  }
}

const DROP_LUA = `
local function drop(hash, field, by)
  if redis.call('HINCRBY', hash, field, by) <= 0 then redis.call('HDEL', hash, field) end
end`

// KEYS[1] usage expiries, KEYS[2] usage. Gives back the counts of `member` (one of KEYS[1]).
const RELEASE_MEMBER_LUA = `${DROP_LUA}
local function release(member)
  local size, app, source = string.match(member, '^%x+ %x+ %d+ (%d+) (%S+) (%S+) %S+$')
  if not size then return end
  size = tonumber(size)
  redis.call('HINCRBY', KEYS[2], 'bytes', -size)
  redis.call('HINCRBY', KEYS[2], 'messages', -1)
  drop(KEYS[2], 'b:' .. app, -size)
  drop(KEYS[2], 'n:' .. app, -1)
  drop(KEYS[2], 'sb:' .. app .. '|' .. source, -size)
  drop(KEYS[2], 'sn:' .. app .. '|' .. source, -1)
end
local function trim(now)
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 1000)
  for _, member in ipairs(due) do
    redis.call('ZREM', KEYS[1], member)
    release(member)
  end
end
local function totals()
  local usage = redis.call('HMGET', KEYS[2], 'bytes', 'messages')
  return { tonumber(usage[1]) or 0, tonumber(usage[2]) or 0 }
end
`

/**
 * The quotas of admission.ts, in the same order. KEYS usage expiries, usage; ARGV now, member,
 * expiresAt, bytes, app, source, sourceQuotaMessages, sourceQuotaBytes, appQuotaMessages,
 * appQuotaBytes, mailboxQuotaBytes. Returns {1, bytes, messages} reserved, {0, reason} refused.
 */
const RESERVE_LUA = `${RELEASE_MEMBER_LUA}
trim(tonumber(ARGV[1]))
local app, size = ARGV[5], tonumber(ARGV[4])
local source = app .. '|' .. ARGV[6]
local usage =
  redis.call('HMGET', KEYS[2], 'n:' .. app, 'b:' .. app, 'bytes', 'sn:' .. source, 'sb:' .. source)
if (tonumber(usage[4]) or 0) + 1 > tonumber(ARGV[7]) then return { 0, 'sourceMessages' } end
if (tonumber(usage[5]) or 0) + size > tonumber(ARGV[8]) then return { 0, 'sourceBytes' } end
if (tonumber(usage[1]) or 0) + 1 > tonumber(ARGV[9]) then return { 0, 'appMessages' } end
if (tonumber(usage[2]) or 0) + size > tonumber(ARGV[10]) then return { 0, 'appBytes' } end
if (tonumber(usage[3]) or 0) + size > tonumber(ARGV[11]) then return { 0, 'mailboxBytes' } end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
local bytes = redis.call('HINCRBY', KEYS[2], 'bytes', size)
local messages = redis.call('HINCRBY', KEYS[2], 'messages', 1)
redis.call('HINCRBY', KEYS[2], 'b:' .. app, size)
redis.call('HINCRBY', KEYS[2], 'n:' .. app, 1)
redis.call('HINCRBY', KEYS[2], 'sb:' .. source, size)
redis.call('HINCRBY', KEYS[2], 'sn:' .. source, 1)
return { 1, bytes, messages }
`

/** KEYS usage expiries, usage; ARGV member. Gives a reservation back. Returns the totals. */
const RELEASE_LUA = `${RELEASE_MEMBER_LUA}
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then release(ARGV[1]) end
return totals()
`

/** KEYS usage expiries, usage; ARGV now. Gives back the counts of expired messages. */
const TRIM_USAGE_LUA = `${RELEASE_MEMBER_LUA}
trim(tonumber(ARGV[1]))
return totals()
`

/**
 * The topic's step, as the single-Redis script without the quotas. KEYS mailbox, shares, topic
 * expiries; ARGV now, messageId, stored value, expiresAt, channel, instance id, sub, perTopic,
 * backstop ms. Returns {1} stored, {2, value} duplicate, {0, reason} refused.
 */
const TOPIC_PUBLISH_LUA = `${DROP_LUA}
local function expiry(value)
  return tonumber(string.match(value, '^{"expiresAt":(%d+)'))
end
local now = tonumber(ARGV[1])
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  redis.call('ZREM', KEYS[3], member)
  local id, at, sub = string.match(member, '^(%x+) (%d+) (%S+)$')
  if id then
    local value = redis.call('HGET', KEYS[1], id)
    if value and expiry(value) == tonumber(at) then redis.call('HDEL', KEYS[1], id) end
    drop(KEYS[2], sub, -1)
    local parties = redis.call('HMGET', KEYS[2], '~1', '~2')
    if sub ~= parties[1] and sub ~= parties[2] then drop(KEYS[2], '~others', -1) end
  end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
local id, value, expiresAt, channel = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local existing = redis.call('HGET', KEYS[1], id)
if existing then
  local at = expiry(existing)
  if at and at > now then
    redis.call('SPUBLISH', channel, ARGV[6] .. ' ' .. existing)
    return { 2, existing }
  end
end
local sub, perTopic = ARGV[7], tonumber(ARGV[8])
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
redis.call('HSET', KEYS[1], id, value)
redis.call('HINCRBY', KEYS[2], sub, 1)
if sub ~= p1 and sub ~= p2 then
  if not p1 then redis.call('HSET', KEYS[2], '~1', sub)
  elseif not p2 then redis.call('HSET', KEYS[2], '~2', sub)
  else redis.call('HINCRBY', KEYS[2], '~others', 1) end
end
redis.call('ZADD', KEYS[3], expiresAt, id .. ' ' .. ARGV[4] .. ' ' .. sub)
local ttl = expiresAt - now + tonumber(ARGV[9])
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
redis.call('SPUBLISH', channel, ARGV[6] .. ' ' .. value)
return { 1 }
`

interface ClusterScripts {
  scRelayReserve(...keysAndArgs: string[]): Promise<[number, string | number, number?]>
  scRelayRelease(...keysAndArgs: string[]): Promise<[number, number]>
  scRelayTrimUsage(...keysAndArgs: string[]): Promise<[number, number]>
  scRelayTopicPublish(...keysAndArgs: string[]): Promise<[number, string?]>
}

export type ClusterPublishResult =
  | { status: 'stored'; totals: MailboxTotals }
  | { status: 'duplicate'; value: string }
  | { status: 'refused'; reason: RefusalReason }

export interface ClusterPublishing {
  publish(
    message: StoredMessage,
    value: string,
    from: Publisher,
    limits: AdmissionLimits,
  ): Promise<ClusterPublishResult>
  trim(): Promise<MailboxTotals>
}

export function clusterPublishing(
  cluster: Cluster,
  keys: ClusterKeys,
  options: {
    instanceId: string
    now: () => number
    backstopMs: number
    /** Called before each script (`coalesceWrites`). */
    beforeCommand: () => void
  },
): ClusterPublishing {
  const scripts = cluster as Cluster & ClusterScripts
  cluster.defineCommand('scRelayReserve', { numberOfKeys: 2, lua: RESERVE_LUA })
  cluster.defineCommand('scRelayRelease', { numberOfKeys: 2, lua: RELEASE_LUA })
  cluster.defineCommand('scRelayTrimUsage', { numberOfKeys: 2, lua: TRIM_USAGE_LUA })
  cluster.defineCommand('scRelayTopicPublish', { numberOfKeys: 3, lua: TOPIC_PUBLISH_LUA })
  let reservations = 0
  const toTotals = ([bytes, messages]: [number, number]) => ({ bytes, messages })

  return {
    async publish(message, value, from, limits) {
      const now = String(options.now())
      const expiresAt = String(message.expiresAt)
      const size = String(message.message.length)
      const member = `${message.topic} ${message.messageId} ${expiresAt} ${size} ${from.app} ${from.source} ${options.instanceId}.${reservations++}`
      const [reserved, second, third] = await scripts.scRelayReserve(
        keys.usageExpiries,
        keys.usage,
        now,
        member,
        expiresAt,
        size,
        from.app,
        from.source,
        String(limits.sourceQuotaMessages),
        String(limits.sourceQuotaBytes),
        String(limits.appQuotaMessages),
        String(limits.appQuotaBytes),
        String(limits.mailboxQuotaBytes),
      )
      if (reserved === 0) return { status: 'refused', reason: second as RefusalReason }
      options.beforeCommand()
      const [status, detail] = await scripts.scRelayTopicPublish(
        keys.mailbox(message.topic),
        keys.shares(message.topic),
        keys.expiries(message.topic),
        now,
        message.messageId,
        value,
        expiresAt,
        keys.channel(message.topic),
        options.instanceId,
        from.sub,
        String(limits.perTopic),
        String(options.backstopMs),
      )
      if (status === 1) {
        return { status: 'stored', totals: { bytes: Number(second), messages: Number(third) } }
      }
      // Not stored: the quotas get their reservation back (a failure here is the trim's to fix).
      options.beforeCommand()
      void scripts.scRelayRelease(keys.usageExpiries, keys.usage, member).catch(() => {})
      return status === 2
        ? { status: 'duplicate', value: detail! }
        : { status: 'refused', reason: detail as RefusalReason }
    },

    trim: () =>
      scripts
        .scRelayTrimUsage(keys.usageExpiries, keys.usage, String(options.now()))
        .then(toTotals),
  }
}
