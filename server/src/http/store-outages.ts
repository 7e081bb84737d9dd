import { createOutageTracker } from '../store/outage-tracker'
import type { Store } from '../store/types'

export interface StoreOutageStats {
  /** True from the first sign of an outage until the store has answered probes for `settleMs`. */
  down: boolean
  /** Outages seen since start, each once however much it flapped. */
  outages: number
  /** Requests answered 503 STORE_UNAVAILABLE since start. */
  refusals: number
}

export interface StoreOutages {
  /** A request was answered 503 STORE_UNAVAILABLE because of `error`. */
  refused(error: unknown): void
  stats(): StoreOutageStats
  /** Stops the probe (app close). */
  close(): void
}

export interface StoreOutagesOptions {
  store: Pick<Store, 'isReady' | 'onUnavailable'>
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
  /** While down, how often the store is asked whether it answers again. */
  probeMs?: number
  /** How long the store must answer every probe before the outage is over (default 2 s). */
  settleMs?: number
  now?: () => number
}

const DEFAULT_PROBE_MS = 500

/**
 * The session store's outages: logged once when the first request is refused (or the store
 * itself reports one, `Store.onUnavailable`) and once when the store is back, counted in between,
 * never logged per request. A Redis outage under load otherwise wrote one warning with a full
 * stack (~1.6 KB) per 503, hundreds a second, and buried the one line that mattered. The end is
 * found by probing `isReady` (on a Cluster: every slot range served), not by the next request, so
 * the "back" line comes even while clients have given up; it is logged once the store has
 * answered for `settleMs` in a row (`createOutageTracker`), so a failover that flaps counts once.
 */
export function createStoreOutages(options: StoreOutagesOptions): StoreOutages {
  const { store, log } = options
  const probeMs = options.probeMs ?? DEFAULT_PROBE_MS
  let refusals = 0
  let refusalsAtStart = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let probing = false
  let closed = false
  const tracker = createOutageTracker({
    log: {
      warn: (fields, msg) => log.warn({ code: 'STORE_UNAVAILABLE', ...fields }, msg),
      // The end line counts the outage's refusals.
      info: (fields, msg) => log.info({ refusals: refusals - refusalsAtStart, ...fields }, msg),
    },
    message:
      'session store unavailable: answering 503 STORE_UNAVAILABLE until it is back (logged once per outage)',
    back: 'session store back: requests served again',
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    ...(options.now ? { now: options.now } : {}),
    closing: () => closed,
  })

  const stopProbe = () => {
    if (timer) clearInterval(timer)
    timer = undefined
  }
  const probe = () => {
    if (probing) return
    probing = true
    store
      .isReady()
      .catch(() => false)
      .then((ready) => {
        probing = false
        if (closed) return
        if (!ready) return tracker.down('the store does not answer a probe')
        tracker.up()
        if (!tracker.stats().down) {
          stopProbe()
        }
      })
  }
  const down = (reason: unknown) => {
    if (closed) return
    if (!tracker.stats().down) refusalsAtStart = refusals
    tracker.down(reason)
    // unref: a probe must never keep a process alive on its own.
    timer ??= setInterval(probe, probeMs)
    timer.unref?.()
  }
  const stopListening = store.onUnavailable?.(down)

  return {
    refused(error) {
      // Counted before `down`, which marks where this outage's refusals start.
      down(error)
      refusals++
    },
    stats: () => ({ ...tracker.stats(), refusals }),
    close() {
      closed = true
      stopProbe()
      tracker.close()
      stopListening?.()
    },
  }
}
