import { payloadTime } from './json-rpc'

/** Requests whose id says they were sent more than this long ago (or ahead) are refused. */
export const REPLAY_WINDOW_MS = 600_000 // 10 min

export type ReplayVerdict = 'fresh' | 'replayed' | 'stale'

export interface ReplayGuard {
  /** Checks a request id seen on `topic`, and remembers it when fresh. */
  check(topic: string, id: number, now: number): ReplayVerdict
}

/**
 * Replay protection for incoming requests: an id older (or newer) than `windowMs` against the local
 * clock is `stale`; an id already seen on the topic is `replayed`. Ids are remembered only while
 * they are inside the window (anything older is stale anyway), so memory stays bounded.
 */
export function createReplayGuard(windowMs: number = REPLAY_WINDOW_MS): ReplayGuard {
  const seen = new Map<string, number>() // `${topic}:${id}` → time of the id
  let lastSweep = 0
  return {
    check(topic, id, now) {
      const sentAt = payloadTime(id)
      if (Math.abs(now - sentAt) > windowMs) return 'stale'
      if (now - lastSweep > windowMs) {
        for (const [key, at] of seen) if (now - at > windowMs) seen.delete(key)
        lastSweep = now
      }
      const key = `${topic}:${id}`
      if (seen.has(key)) return 'replayed'
      seen.set(key, sentAt)
      return 'fresh'
    },
  }
}
