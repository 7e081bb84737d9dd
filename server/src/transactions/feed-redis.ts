import { randomBytes } from 'node:crypto'
import {
  connectPubSub,
  isClusterTarget,
  type RedisTarget,
  waitUntilReady,
  watchOutages,
} from '../store/redis-connection'
import { assertClusterPrefix } from '../store/redis-keys'
import { SEEN_TTL_MS, type SeenTransaction, type TransactionFeed } from './feed'

export interface RedisTransactionFeedOptions {
  /** Prefix of keys and channels, as the store's (default `scope:`). */
  keyPrefix?: string
  connectTimeoutMs?: number
  commandTimeoutMs?: number
  log?: { warn(obj: object, msg: string): void }
}

export interface RedisTransactionFeed extends TransactionFeed {
  readonly kind: 'redis'
  /** Resolves once both connections are up. */
  ready(): Promise<void>
}

const DEFAULTS = { keyPrefix: 'scope:', connectTimeoutMs: 1_000, commandTimeoutMs: 1_000 }

// Extends the lease when this instance holds it, takes it when nobody does: 1 = lead.
const LEAD_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`

/**
 * The feed across instances on Redis. Keys: `<prefix>blocks:lease:<chainId>` (the id of the
 * instance that reads the chain's head, with a lease of a few poll intervals: when it stops, another
 * takes over), `<prefix>tx:<chainId>:<hash>` (a seen pending transaction, JSON, one hour).
 * Channel `<prefix>blocks:<chainId>`: `<instance id> <head>` each time the leader reads a new head.
 * Two connections, as the session events: commands (no offline queue, short timeout) and
 * SUBSCRIBE (re-subscribes by itself after a reconnect).
 *
 * On a Redis Cluster (`{ cluster: nodes }`, the CLI's `--redis-cluster`) the same, each chain in
 * its own hash slot: keys `<prefix>blocks:lease:{<chainId>}`, `<prefix>tx:{<chainId>}:<hash>`, and
 * the heads over sharded pub/sub (SPUBLISH / SSUBSCRIBE) on `<prefix>blocks:{<chainId>}`, so a
 * chain's feed lives on one shard and a shard's failover touches only its own chains.
 */
export function createRedisTransactionFeed(
  target: RedisTarget,
  options: RedisTransactionFeedOptions = {},
): RedisTransactionFeed {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const cluster = isClusterTarget(target)
  if (cluster) assertClusterPrefix(keyPrefix)
  const slot = (chainId: string) => (cluster ? `{${chainId}}` : chainId)
  const instanceId = randomBytes(8).toString('hex')
  const { commands, subscriber } = connectPubSub(
    target,
    { connectTimeoutMs, commandTimeoutMs },
    { sharded: true },
  )
  let closing = false
  const outages = watchOutages([commands, subscriber], {
    log: options.log,
    message: 'transaction feed: redis unavailable; reconnecting',
    closing: () => closing,
  })
  const channelOf = (chainId: string) => `${keyPrefix}blocks:${slot(chainId)}`
  const txKey = (chainId: string, hash: string) => `${keyPrefix}tx:${slot(chainId)}:${hash}`
  const listeners = new Map<string, Set<(head: bigint) => void>>()
  subscriber.on(cluster ? 'smessage' : 'message', (channel: string, payload: string) => {
    const [from, head] = payload.split(' ')
    if (from === instanceId || head === undefined || !/^\d{1,78}$/.test(head)) return
    for (const listener of [...(listeners.get(channel) ?? [])]) listener(BigInt(head))
  })

  return {
    kind: 'redis',
    async ready() {
      await waitUntilReady([commands, subscriber], connectTimeoutMs)
    },
    async lead(chainId, leaseMs) {
      try {
        const won = await commands.eval(
          LEAD_SCRIPT,
          1,
          `${keyPrefix}blocks:lease:${slot(chainId)}`,
          instanceId,
          String(leaseMs),
        )
        return won === 1
      } catch (err) {
        outages.report(err)
        return true
      }
    },
    async publish(chainId, head) {
      try {
        const message = `${instanceId} ${head}`
        await (cluster
          ? commands.spublish(channelOf(chainId), message)
          : commands.publish(channelOf(chainId), message))
      } catch (err) {
        outages.report(err)
      }
    },
    subscribe(chainId, onHead) {
      const channel = channelOf(chainId)
      let set = listeners.get(channel)
      if (!set) {
        set = new Set()
        listeners.set(channel, set)
        ;(cluster ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel)).catch(
          () => undefined,
        )
      }
      const entry = (head: bigint) => onHead(head)
      set.add(entry)
      return () => {
        const current = listeners.get(channel)
        current?.delete(entry)
        if (current?.size === 0) {
          listeners.delete(channel)
          ;(cluster ? subscriber.sunsubscribe(channel) : subscriber.unsubscribe(channel)).catch(
            () => undefined,
          )
        }
      }
    },
    async remember(chainId, hash, seen) {
      try {
        await commands.set(txKey(chainId, hash), JSON.stringify(seen), 'PX', SEEN_TTL_MS)
      } catch (err) {
        outages.report(err)
      }
    },
    async recall(chainId, hash) {
      try {
        const text = await commands.get(txKey(chainId, hash))
        return text ? parseSeen(text) : undefined
      } catch (err) {
        outages.report(err)
        return undefined
      }
    },
    async close() {
      closing = true
      commands.disconnect(false)
      subscriber.disconnect(false)
    },
  }
}

function parseSeen(text: string): SeenTransaction | undefined {
  try {
    const value = JSON.parse(text) as Partial<SeenTransaction>
    if (typeof value.from !== 'string' || typeof value.nonce !== 'number') return undefined
    if (typeof value.seenAtBlock !== 'string') return undefined
    if (value.searchedTo !== undefined && !/^\d{1,78}$/.test(String(value.searchedTo))) {
      delete value.searchedTo
    }
    return value as SeenTransaction
  } catch {
    return undefined
  }
}
