import { Cluster } from 'ioredis'
import { coalesceWrites } from './redis-coalesce'
import {
  connectRedis,
  describeUnserved,
  isClusterTarget,
  type RedisTarget,
  reconnectBackoff,
  unservedSlots,
  watchOutages,
} from './redis-connection'
import { storeKeys } from './redis-keys'
import {
  COMPARE_AND_SET_LUA,
  CREATE_SESSION_LUA,
  GET_SESSION_AND_HIT_LUA,
  HIT_WINDOW_LUA,
  HIT_WITH_CEILING_LUA,
} from './redis-scripts'
import { cleanPatch, SESSION_GRACE_MS, sessionRetentionMs } from './session-patch'
import {
  type CeilingHit,
  type PollGate,
  SessionExistsError,
  type SessionRecord,
  type Store,
  type StoreReadiness,
  StoreUnavailableError,
  type WindowHit,
} from './types'

export interface RedisStoreOptions {
  /** Prefix of every key, so several deployments can share one Redis (no braces on a Cluster). */
  keyPrefix?: string
  /** Give up on a connection attempt after this long. */
  connectTimeoutMs?: number
  /** Reject a command that has had no reply after this long (a half-open socket). */
  commandTimeoutMs?: number
  /** How long a record stays readable after `expiresAt`. */
  sessionGraceMs?: number
  /**
   * Told once per outage (not once per retry) that Redis went away, and when it is back. The CLI
   * leaves it out: the app logs the session store's outages itself (`createStoreOutages`, told by
   * `onUnavailable`), and two pairs of lines for one outage would be one too many.
   */
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
  /**
   * Send the commands of one event-loop turn as one pipeline, in one socket write (default on:
   * concurrent requests share round trips, see docs/benchmarks.md and `coalesceWrites`).
   */
  autoPipelining?: boolean
}

export interface RedisStore extends Store {
  readonly kind: 'redis'
  /** Resolves once connected; rejects with StoreUnavailableError after connectTimeoutMs. */
  ready(): Promise<void>
}

// defineCommand adds these at run time; this is their typed shape.
interface ScriptCommands {
  scHitWindow(key: string, windowMs: number): Promise<[number, number]>
  scHitWithCeiling(...keysAndArgs: (string | number)[]): Promise<number[]>
  scCompareAndSet(key: string, ...args: string[]): Promise<string[] | null>
  scCreateSession(key: string, ...args: string[]): Promise<number>
  scGetSessionAndHit(
    sessionKey: string,
    counterKey: string,
    tokenHash: string,
    windowsMs: string,
  ): Promise<string | null>
}

const DEFAULTS = { keyPrefix: 'scope:', connectTimeoutMs: 1_000, commandTimeoutMs: 1_000 }
/** While stalled, how often a PING asks whether Redis answers again. */
const STALL_PROBE_MS = 200

/**
 * Shared store for many stateless instances. Commands are never queued while Redis is away
 * (offline queue off, no retries, no resend on reconnect): a counter hit replayed later would
 * land in the wrong window, and a route waiting on a queue is worse than an immediate 503. Every
 * failure surfaces as StoreUnavailableError; the client reconnects in the background with backoff.
 * `target` is one server's URL or a Redis Cluster's nodes (`storeKeys` names the keys for it).
 */
export function createRedisStore(target: RedisTarget, options: RedisStoreOptions = {}): RedisStore {
  const { keyPrefix, connectTimeoutMs, commandTimeoutMs } = { ...DEFAULTS, ...options }
  const graceMs = options.sessionGraceMs ?? SESSION_GRACE_MS
  const keys = storeKeys(keyPrefix, isClusterTarget(target))

  const redis = connectRedis(target, {
    connectTimeout: connectTimeoutMs,
    commandTimeout: commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Pipelining is done by coalesceWrites, which costs less CPU than ioredis's own.
    enableAutoPipelining: false,
    // Never gives up, so a restarted Redis is picked up again.
    retryStrategy: reconnectBackoff,
  })
  const scripts = redis as typeof redis & ScriptCommands
  redis.defineCommand('scHitWindow', { numberOfKeys: 1, lua: HIT_WINDOW_LUA })
  redis.defineCommand('scHitWithCeiling', { numberOfKeys: 3, lua: HIT_WITH_CEILING_LUA })
  redis.defineCommand('scCompareAndSet', { numberOfKeys: 1, lua: COMPARE_AND_SET_LUA })
  redis.defineCommand('scCreateSession', { numberOfKeys: 1, lua: CREATE_SESSION_LUA })
  redis.defineCommand('scGetSessionAndHit', { numberOfKeys: 2, lua: GET_SESSION_AND_HIT_LUA })

  let closing = false
  const unavailableListeners = new Set<(reason: string) => void>()
  const outages = watchOutages([redis], {
    log: options.log,
    message: 'redis store unavailable; reconnecting in background',
    back: 'redis store is back',
    closing: () => closing,
    timeoutMs: commandTimeoutMs,
    onTrouble: (reason) => {
      for (const listener of unavailableListeners) listener(reason)
    },
  })

  // Commands issued while the very first connection attempt is under way wait for it (bounded),
  // so a fresh instance does not answer 503 while it dials. Afterwards every call fails fast.
  let firstAttempt: Promise<void> | undefined = new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer)
      redis.off('ready', settle)
      redis.off('close', settle)
      firstAttempt = undefined
      resolve()
    }
    const timer = setTimeout(settle, connectTimeoutMs)
    timer.unref()
    redis.once('ready', settle)
    redis.once('close', settle)
  })

  let pendingReady: Promise<void> | undefined
  const ready = (): Promise<void> => {
    if (redis.status === 'ready') return Promise.resolve()
    // One shared waiter, however many callers ask at once.
    pendingReady ??= new Promise<void>((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        redis.off('ready', onReady)
        reject(new StoreUnavailableError(`redis not ready after ${connectTimeoutMs} ms`))
      }, connectTimeoutMs)
      redis.once('ready', onReady)
    }).finally(() => {
      pendingReady = undefined
    })
    return pendingReady
  }

  const beforeCommand = (options.autoPipelining ?? true) ? coalesceWrites(redis) : () => {}

  // A command that timed out means Redis is connected but not answering (stopped, swapped out,
  // a long script). Until a PING answers again every command fails at once: a request that
  // makes several calls in a row (limiter, then session) must not wait commandTimeoutMs for
  // each, so one request never waits on Redis much longer than commandTimeoutMs in all.
  let stalled = false
  let probeTimer: ReturnType<typeof setTimeout> | undefined
  const probe = () => {
    probeTimer = undefined
    if (closing) return
    redis.ping().then(
      () => {
        stalled = false
        outages.recovered()
      },
      () => {
        probeTimer = setTimeout(probe, STALL_PROBE_MS)
        probeTimer.unref()
      },
    )
  }
  const stall = () => {
    if (stalled || closing) return
    stalled = true
    outages.report('commands time out')
    probe()
  }

  const run = async <T>(operation: () => Promise<T>): Promise<T> => {
    if (stalled) throw new StoreUnavailableError('redis: not answering (a command timed out)')
    try {
      beforeCommand()
      if (firstAttempt) {
        // The first connection and the command share one budget of commandTimeoutMs.
        const deadline = Date.now() + commandTimeoutMs
        await firstAttempt
        if (Date.now() >= deadline) {
          throw new StoreUnavailableError(`redis: not ready within ${commandTimeoutMs} ms`)
        }
      }
      return await operation()
    } catch (err) {
      if (err instanceof StoreUnavailableError || err instanceof SessionExistsError) throw err
      const message = err instanceof Error ? err.message : String(err)
      if (/timed? ?out/i.test(message)) stall()
      throw new StoreUnavailableError(`redis: ${message}`, { cause: err })
    }
  }

  const readiness = async (): Promise<StoreReadiness> => {
    if (redis instanceof Cluster) {
      // One node answering says nothing of the others (and a PING may meet the one away): every
      // slot range must have its primary answering.
      if (firstAttempt) await firstAttempt
      const unserved = await unservedSlots(redis, commandTimeoutMs)
      if (unserved.length > 0) {
        return { ready: false, reason: describeUnserved(unserved), unservedSlots: unserved }
      }
      // Every primary answered a PING: a stall (a command timed out) is over once one does here.
      if (stalled) return { ready: false, reason: 'redis: not answering (a command timed out)' }
      return { ready: true }
    }
    try {
      // Same bounded first-connection wait as commands; commandTimeout bounds a half-open socket.
      if ((await run(() => redis.ping())) !== 'PONG') return { ready: false, reason: 'no PONG' }
    } catch (err) {
      return { ready: false, reason: err instanceof Error ? err.message : String(err) }
    }
    return { ready: true }
  }

  return {
    kind: 'redis',

    ready,

    createSession(record) {
      return run(async () => {
        const created = await scripts.scCreateSession(
          keys.session(record.sessionId),
          String(sessionRetentionMs(record, graceMs)),
          ...encodeFields(record),
        )
        if (created !== 1)
          throw new SessionExistsError(`session ${record.sessionId} already exists`)
      })
    },

    getSession(sessionId) {
      return run(async () => {
        const fields = await redis.hgetall(keys.session(sessionId))
        return decodeRecord(Object.entries(fields))
      })
    },

    compareAndSetSession(sessionId, expectedVersion, patch) {
      const clean = cleanPatch(patch)
      return run(async () => {
        const reply = await scripts.scCompareAndSet(
          keys.session(sessionId),
          String(expectedVersion),
          clean.expiresAt === undefined ? '' : String(clean.expiresAt),
          ...encodeFields(clean),
        )
        if (!reply) return null
        const pairs: [string, string][] = []
        for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([reply[i]!, reply[i + 1]!])
        return decodeRecord(pairs)
      })
    },

    getSessionAndHit(sessionId, key, gate) {
      return run(async () => {
        const reply = await scripts.scGetSessionAndHit(
          keys.session(sessionId),
          keys.pollWindow(sessionId, key),
          JSON.stringify(gate.tokenHash),
          windowsArgument(gate),
        )
        if (reply === null) return null
        const [record, count, resetInMs] = JSON.parse(reply) as [SessionRecord, number?, number?]
        return {
          record,
          hit: count === undefined || resetInMs === undefined ? null : { count, resetInMs },
        }
      })
    },

    putNonce(key, expiresAt) {
      return run(async () => {
        const ttlMs = Math.max(1, Math.ceil(expiresAt - Date.now()))
        await redis.set(`${keyPrefix}signin-nonce:${key}`, '1', 'PX', ttlMs)
      })
    },

    takeNonce(key) {
      // DEL answers 1 to one caller only: the nonce is spent atomically, on every instance.
      return run(async () => (await redis.del(`${keyPrefix}signin-nonce:${key}`)) === 1)
    },

    hitWindow(key, windowMs): Promise<WindowHit> {
      return run(async () => {
        const [count, resetInMs] = await scripts.scHitWindow(
          keys.window(key),
          Math.max(1, Math.ceil(windowMs)),
        )
        return { count: Number(count), resetInMs: Number(resetInMs) }
      })
    },

    hitWithCeiling(request): Promise<CeilingHit> {
      return run(async () => {
        const names = keys.ceiling(request)
        const reply = await scripts.scHitWithCeiling(
          names.caller,
          names.ceiling,
          names.callers,
          Math.max(1, Math.ceil(request.callerWindowMs)),
          request.callerLimit,
          Math.max(1, Math.ceil(request.ceilingWindowMs)),
          request.ceiling,
          request.cost ?? 1,
        )
        const [count, resetInMs, ceilingCount, ceilingResetInMs, callers] = reply.map(Number)
        const caller = { count: count!, resetInMs: resetInMs! }
        if (ceilingCount === undefined) return { caller }
        const ceiling = { count: ceilingCount, resetInMs: ceilingResetInMs! }
        return callers === undefined ? { caller, ceiling } : { caller, ceiling, callers }
      })
    },

    async isReady() {
      return (await readiness()).ready
    },

    readiness,

    onUnavailable(listener) {
      unavailableListeners.add(listener)
      return () => unavailableListeners.delete(listener)
    },

    async close() {
      closing = true
      outages.close()
      if (probeTimer) clearTimeout(probeTimer)
      redis.disconnect(false)
    },
  }
}

// A gate's windows are one map per origin, built once: encode each once, not once per poll.
const encodedWindows = new WeakMap<PollGate['windowsMs'], string>()
function windowsArgument(gate: PollGate): string {
  let encoded = encodedWindows.get(gate.windowsMs)
  if (encoded === undefined) {
    encoded = JSON.stringify(Object.fromEntries(gate.windowsMs))
    encodedWindows.set(gate.windowsMs, encoded)
  }
  return encoded
}

// Hash fields hold JSON values, so null, booleans and numbers round-trip. `version` is a bare
// integer in JSON, which is also what HINCRBY expects.
function encodeFields(fields: object): string[] {
  const args: string[] = []
  for (const [field, value] of Object.entries(fields)) {
    if (value !== undefined) args.push(field, JSON.stringify(value))
  }
  return args
}

function decodeRecord(pairs: [string, string][]): SessionRecord | null {
  if (pairs.length === 0) return null
  const record: Record<string, unknown> = {}
  for (const [field, value] of pairs) record[field] = JSON.parse(value)
  return record as unknown as SessionRecord
}
