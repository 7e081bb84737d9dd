import type { CeilingHitRequest } from './types'

/**
 * The store's key names. On one Redis they are as they have always been. On a Cluster a script's
 * keys must share a hash slot, so each carries a hash tag (the part in braces, which alone picks
 * the slot): a session's hash and its poll window share `{<session id>}`; a caller's window, its
 * project's ceiling and the ceiling's callers share `{<ceiling key>}` (every request of a project
 * counts on its ceiling, so they live in the ceiling's slot). The prefix holds no brace, so the
 * tag is the first one in every name.
 */
export interface StoreKeys {
  session(sessionId: string): string
  /** The session's poll window (`counterKey` is the limiter's, `session:<id>`). */
  pollWindow(sessionId: string, counterKey: string): string
  /** A window counted alone. */
  window(counterKey: string): string
  ceiling(request: CeilingHitRequest): { caller: string; ceiling: string; callers: string }
}

export function storeKeys(prefix: string, cluster: boolean): StoreKeys {
  const counter = (key: string) => `${prefix}rl:${key}`
  if (!cluster) {
    return {
      session: (sessionId) => `${prefix}session:${sessionId}`,
      pollWindow: (_sessionId, counterKey) => counter(counterKey),
      window: counter,
      ceiling: ({ callerKey, ceilingKey }) => ({
        caller: counter(callerKey),
        ceiling: counter(ceilingKey),
        callers: `${counter(ceilingKey)}:callers`,
      }),
    }
  }
  assertClusterPrefix(prefix)
  return {
    session: (sessionId) => `${prefix}session:{${sessionId}}`,
    pollWindow: (sessionId, counterKey) =>
      counter(
        counterKey.includes(sessionId)
          ? counterKey.replace(sessionId, `{${sessionId}}`)
          : `{${sessionId}}:${counterKey}`,
      ),
    window: counter,
    ceiling: ({ callerKey, ceilingKey }) => ({
      caller: counter(`{${ceilingKey}}:${callerKey}`),
      ceiling: counter(`{${ceilingKey}}`),
      callers: counter(`{${ceilingKey}}:callers`),
    }),
  }
}

/** A brace in the prefix would be the hash tag of every key: all of them on one shard. */
export function assertClusterPrefix(prefix: string): void {
  if (/[{}]/.test(prefix)) throw new Error(`a Redis Cluster key prefix has no braces: ${prefix}`)
}
