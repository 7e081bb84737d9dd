import type { BlockWatchers } from './block-watcher'

/** New heads of one chain seen since the flag was set up, for one waiting request. */
export interface HeadFlag {
  /** Resolves true at the next new head (at once when one came since the last call), false when `signal` ends the wait. */
  next(signal: AbortSignal): Promise<boolean>
  stop(): void
}

export function watchHeads(watchers: BlockWatchers, chainId: string): HeadFlag {
  return headFlag((wake) => watchers.watch(chainId, wake))
}

/**
 * A flag raised by each call of the `wake` that `subscribe` receives; `stop` calls what
 * `subscribe` returned.
 */
export function headFlag(subscribe: (wake: () => void) => () => void): HeadFlag {
  let seen = false
  let wake: (() => void) | undefined
  const stop = subscribe(() => {
    seen = true
    wake?.()
  })
  return {
    next(signal) {
      if (signal.aborted) return Promise.resolve(false)
      if (seen) {
        seen = false
        return Promise.resolve(true)
      }
      return new Promise<boolean>((resolve) => {
        const aborted = () => {
          wake = undefined
          resolve(false)
        }
        signal.addEventListener('abort', aborted, { once: true })
        wake = () => {
          wake = undefined
          seen = false
          signal.removeEventListener('abort', aborted)
          resolve(true)
        }
      })
    },
    stop,
  }
}
