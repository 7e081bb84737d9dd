/** Where an outage's two lines go (pino's `warn` and `info`, or anything with their shape). */
export interface OutageLog {
  warn(obj: object, msg: string): void
  /** The end line; an owner whose log has no `info` logs the start only. */
  info?(obj: object, msg: string): void
}

export interface OutageTrackerOptions {
  log?: OutageLog | undefined
  /** The start line (warn), e.g. `relay mailbox: redis unavailable; reconnecting`. */
  message: string
  /** The end line (info), e.g. `relay mailbox: redis is back`. */
  back: string
  /**
   * How long the dependency must look healthy before the outage is over. A failover flaps
   * (connections drop and come back, a probe answers, the next command fails) for a second or
   * two; signs of trouble within this delay belong to the same outage. Default 2 s.
   */
  settleMs?: number
  /** True once the owner shuts down: its own disconnects are no outage. */
  closing?: () => boolean
  now?: () => number
  /** More fields of both lines (e.g. the requests refused meanwhile). */
  details?: () => object
}

export interface OutageStats {
  /** From the first sign of an outage until it has looked healthy for `settleMs`. */
  down: boolean
  /** Outages since start, each counted once however much it flapped. */
  outages: number
}

export interface OutageTracker {
  /** A sign of trouble (a failed command, a closed connection, an unserved slot range). */
  down(reason: unknown): void
  /** A sign of health (a probe answered, every connection ready). */
  up(): void
  stats(): OutageStats
  /** Stops the settle timer (owner closing). */
  close(): void
}

export const DEFAULT_OUTAGE_SETTLE_MS = 2_000

/**
 * One outage of one Redis client (the session store, the session events, the relay mailbox, the
 * transaction feed): counted once, logged once when it starts (warn, with its first reason and
 * the count) and once when it ends (info, with how long it lasted), however many connections
 * dropped, commands failed or probes answered in between. It ends once the dependency has looked
 * healthy for `settleMs` with no sign of trouble meanwhile; trouble during that delay is the same
 * outage going on. The one module every Redis owner reports its outages through.
 */
export function createOutageTracker(options: OutageTrackerOptions): OutageTracker {
  const settleMs = options.settleMs ?? DEFAULT_OUTAGE_SETTLE_MS
  const now = options.now ?? Date.now
  const closing = options.closing ?? (() => false)
  let down = false
  let outages = 0
  let since = 0
  let settle: ReturnType<typeof setTimeout> | undefined

  const stopSettle = () => {
    if (settle) clearTimeout(settle)
    settle = undefined
  }
  const end = () => {
    settle = undefined
    if (!down || closing()) return
    down = false
    options.log?.info?.({ ...options.details?.(), outages, downMs: now() - since }, options.back)
  }

  return {
    down(reason) {
      if (closing()) return
      stopSettle()
      if (down) return
      down = true
      outages++
      since = now()
      // The reason's message only: a stack is the same every time and says nothing of the outage.
      const err = reason instanceof Error ? reason.message : String(reason)
      options.log?.warn({ ...options.details?.(), err, outages }, options.message)
    },
    up() {
      if (!down || settle) return
      if (settleMs <= 0) return end()
      settle = setTimeout(end, settleMs)
      // A pending end must never keep a process alive on its own.
      settle.unref?.()
    },
    stats: () => ({ down, outages }),
    close: stopSettle,
  }
}
