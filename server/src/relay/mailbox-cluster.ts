import type { Cluster } from 'ioredis'
import { type AdmissionLimits, chargedBytes, pairedExpiry, type RefusalReason } from './admission'
import type { MailboxTotals, Publisher, StoredMessage } from './mailbox'
import { capUnpairedTtlAndRecordParty } from './topic-parties.lua'
import { UsageLedger, type UsageSnapshot } from './usage-ledger'

/**
 * The relay mailbox's publish on a Redis Cluster: one script in the topic's slot (`{<topic>}`),
 * which applies the topic's fair shares, stores and fans out with SPUBLISH on the topic's sharded
 * channel. No publish touches a slot of the deployment's, so one shard failing over stops only the
 * topics it serves.
 *
 * The storage quotas (admission.ts) are counted per instance and reconciled: each instance counts
 * what it stored in a `UsageLedger` (released at each message's expiry), and every
 * `reconcileIntervalMs` writes that count to its field of `relay:{usage}` and reads the others',
 * which its admission adds to its own. The quotas are exact on one instance; across instances a
 * caller may pass one by what the others admitted since their last reconciliation (about
 * instances × interval × rate). While the `{usage}` shard is away, the instances go on with the
 * others' last counts. A message is charged before its topic step and given back if the topic
 * refuses or holds it already; a charge whose topic step failed on the way (a timeout) is kept
 * until the message's ttl: the quotas may count a message that was not stored, never the reverse.
 * The snapshot of an instance that stopped counts until its last message's expiry.
 *
 * Keys: `<prefix>relay:mb:{<topic>}`, `relay:mp:{<topic>}` as on one Redis; `relay:mx:{<topic>}`
 * the topic's messages by expiry (`<messageId> <expiresAt> <sub>`), which the topic step trims;
 * `relay:{usage}` (instance id → its `UsageSnapshot` JSON), touched only by the reconciliation.
 */
export interface ClusterKeys {
  mailbox(topic: string): string
  shares(topic: string): string
  expiries(topic: string): string
  channel(topic: string): string
  /** The topic of a channel name, or undefined for another channel. */
  topicOf(channel: string): string | undefined
  usage: string
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
  }
}

const DROP_LUA = `
local function drop(hash, field, by)
  if redis.call('HINCRBY', hash, field, by) <= 0 then redis.call('HDEL', hash, field) end
end`

/**
 * KEYS usage; ARGV instance id, its snapshot, key ttl ms, then the ids of stale snapshots to
 * delete. Returns every snapshot (HGETALL).
 */
const RECONCILE_LUA = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 4, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('HGETALL', KEYS[1])
`

/**
 * The topic's step, as the single-Redis script without the quotas. KEYS mailbox, shares, topic
 * expiries; ARGV now, messageId, stored value, expiresAt, channel, instance id, sub, perTopic,
 * backstop ms, the unpaired expiresAt. Returns {1, expiresAt} stored, {2, value} duplicate,
 * {0, reason} refused.
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
${capUnpairedTtlAndRecordParty(4, 10)}redis.call('ZADD', KEYS[3], expiresAt, id .. ' ' .. expiresAtText .. ' ' .. sub)
local ttl = expiresAt - now + tonumber(ARGV[9])
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
redis.call('SPUBLISH', channel, ARGV[6] .. ' ' .. value)
return { 1, expiresAtText }
`

interface ClusterScripts {
  scRelayReconcile(...keysAndArgs: string[]): Promise<string[]>
  scRelayTopicPublish(...keysAndArgs: string[]): Promise<[number, string?]>
}

export type ClusterPublishResult =
  | { status: 'stored'; totals: MailboxTotals; expiresAt: number }
  | { status: 'duplicate'; value: string }
  | { status: 'refused'; reason: RefusalReason }

export interface ClusterPublishing {
  publish(
    message: StoredMessage,
    value: string,
    from: Publisher,
    limits: AdmissionLimits,
  ): Promise<ClusterPublishResult>
  /** Reconciles the usage with the other instances now; resolves with the totals. */
  trim(): Promise<MailboxTotals>
  /** The totals as of now (this instance's own, the others' as of the last reconciliation). */
  totals(): MailboxTotals
  close(): void
}

/** How often an instance tells the others its usage, and reads theirs. */
export const RECONCILE_INTERVAL_MS = 1_000
/** The usage hash outlives the last reconciliation by this much (the longest ttl and an hour). */
const USAGE_KEY_TTL_MS = 25 * 3_600_000

export function clusterPublishing(
  cluster: Cluster,
  keys: ClusterKeys,
  options: {
    instanceId: string
    now: () => number
    backstopMs: number
    /** Called before each script (`coalesceWrites`). */
    beforeCommand: () => void
    reconcileIntervalMs?: number
  },
): ClusterPublishing {
  const scripts = cluster as Cluster & ClusterScripts
  cluster.defineCommand('scRelayReconcile', { numberOfKeys: 1, lua: RECONCILE_LUA })
  cluster.defineCommand('scRelayTopicPublish', { numberOfKeys: 3, lua: TOPIC_PUBLISH_LUA })
  const ledger = new UsageLedger(options.now)
  let stale: string[] = []
  let reconciling: Promise<MailboxTotals> | undefined

  const reconcile = (): Promise<MailboxTotals> => {
    reconciling ??= (async () => {
      options.beforeCommand()
      const flat = await scripts.scRelayReconcile(
        keys.usage,
        options.instanceId,
        JSON.stringify(ledger.snapshot()),
        String(USAGE_KEY_TTL_MS),
        ...stale,
      )
      const at = options.now()
      const others: UsageSnapshot[] = []
      const next: string[] = []
      for (let i = 0; i + 1 < flat.length; i += 2) {
        if (flat[i] === options.instanceId) continue
        try {
          const snapshot = JSON.parse(flat[i + 1]!) as UsageSnapshot
          if (snapshot.until > at) others.push(snapshot)
          else next.push(flat[i]!)
        } catch {
          next.push(flat[i]!)
        }
      }
      stale = next
      ledger.setRemote(others)
      return ledger.totals()
    })().finally(() => {
      reconciling = undefined
    })
    return reconciling
  }
  const timer = setInterval(() => {
    if (cluster.status === 'ready') reconcile().catch(() => {})
  }, options.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS)
  timer.unref()

  return {
    async publish(message, value, from, limits) {
      const bytes = chargedBytes(message.message.length)
      const refusal = ledger.refusal(from, bytes, limits)
      if (refusal) return { status: 'refused', reason: refusal }
      // Charged before the topic step, so two publishes of this instance cannot both take the
      // last of a quota; given back below unless stored.
      const charge = ledger.charge(from, bytes, message.expiresAt)
      options.beforeCommand()
      const [status, detail] = await scripts.scRelayTopicPublish(
        keys.mailbox(message.topic),
        keys.shares(message.topic),
        keys.expiries(message.topic),
        String(options.now()),
        message.messageId,
        value,
        String(message.expiresAt),
        keys.channel(message.topic),
        options.instanceId,
        from.sub,
        String(limits.perTopic),
        String(options.backstopMs),
        String(pairedExpiry(message, false, limits)),
      )
      if (status === 1) {
        const expiresAt = Number(detail)
        if (expiresAt !== message.expiresAt) {
          ledger.cancel(charge)
          ledger.charge(from, bytes, expiresAt)
        }
        return { status: 'stored', totals: ledger.totals(), expiresAt }
      }
      ledger.cancel(charge)
      return status === 2
        ? { status: 'duplicate', value: detail! }
        : { status: 'refused', reason: detail as RefusalReason }
    },

    trim: reconcile,
    totals: () => ledger.totals(),
    close: () => clearInterval(timer),
  }
}
