import type { Store } from '../store/types'

export interface StoreOutageStats {
  /** True from the first 503 STORE_UNAVAILABLE until the store answers a probe again. */
  down: boolean
  /** Outages seen since start. */
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
  store: Pick<Store, 'isReady'>
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
  /** While down, how often the store is asked whether it answers again. */
  probeMs?: number
  now?: () => number
}

const DEFAULT_PROBE_MS = 500

/**
 * The session store's outages as the routes see them: logged once when the first request is
 * refused and once when the store is back, counted in between, never logged per request. A Redis
 * outage under load otherwise wrote one warning with a full stack (~1.6 KB) per 503, hundreds a
 * second, and buried the one line that mattered. The end is found by probing `isReady`, not by
 * the next request, so the "back" line comes even while clients have given up.
 */
export function createStoreOutages(options: StoreOutagesOptions): StoreOutages {
  const { store, log } = options
  const now = options.now ?? Date.now
  const probeMs = options.probeMs ?? DEFAULT_PROBE_MS
  let down = false
  let outages = 0
  let refusals = 0
  let refusalsAtStart = 0
  let since = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let probing = false

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
        if (!ready || !down) return
        down = false
        stopProbe()
        log.info(
          { outages, refusals: refusals - refusalsAtStart, downMs: now() - since },
          'session store back: requests served again',
        )
      })
  }

  return {
    refused(error) {
      refusals++
      if (down) return
      down = true
      outages++
      refusalsAtStart = refusals - 1
      since = now()
      // The message only: the stack is the same every time and says nothing about the outage.
      const reason = error instanceof Error ? error.message : String(error)
      log.warn(
        { code: 'STORE_UNAVAILABLE', reason, outages },
        'session store unavailable: answering 503 STORE_UNAVAILABLE until it is back (logged once per outage)',
      )
      // unref: a probe must never keep a process alive on its own.
      timer = setInterval(probe, probeMs).unref()
    },
    stats: () => ({ down, outages, refusals }),
    close: stopProbe,
  }
}
