import { randomBytes } from 'node:crypto'
import { connectPubSub, waitUntilReady, watchOutages } from '../store/redis-connection'
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
 */
export function createRedisTransactionFeed(
  url: string,
  options: RedisTransactionFeedOptions = {},
): RedisTransactionFeed {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const instanceId = randomBytes(8).toString('hex')
  const { commands, subscriber } = connectPubSub(url, { connectTimeoutMs, commandTimeoutMs })
  let closing = false
  const outages = watchOutages([commands, subscriber], {
    log: options.log,
    message: 'transaction feed: redis unavailable; reconnecting',
    closing: () => closing,
  })
  const channelOf = (chainId: string) => `${keyPrefix}blocks:${chainId}`
  const listeners = new Map<string, Set<(head: bigint) => void>>()
  subscriber.on('message', (channel: string, payload: string) => {
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
          `${keyPrefix}blocks:lease:${chainId}`,
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
        await commands.publish(channelOf(chainId), `${instanceId} ${head}`)
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
        subscriber.subscribe(channel).catch(() => undefined)
      }
      const entry = (head: bigint) => onHead(head)
      set.add(entry)
      return () => {
        const current = listeners.get(channel)
        current?.delete(entry)
        if (current?.size === 0) {
          listeners.delete(channel)
          subscriber.unsubscribe(channel).catch(() => undefined)
        }
      }
    },
    async remember(chainId, hash, seen) {
      try {
        await commands.set(
          `${keyPrefix}tx:${chainId}:${hash}`,
          JSON.stringify(seen),
          'PX',
          SEEN_TTL_MS,
        )
      } catch (err) {
        outages.report(err)
      }
    },
    async recall(chainId, hash) {
      try {
        const text = await commands.get(`${keyPrefix}tx:${chainId}:${hash}`)
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
    return value as SeenTransaction
  } catch {
    return undefined
  }
}
