import { relayTokenExpired } from '../relay-token'
import type { RelayTokenGrant } from '../types'

/** The relay token grant in use: fetched once for concurrent callers, again when stale. */
export interface RelayTokenCache {
  /** The cached grant unless it expired or `stale`; else a new one from the token source. */
  ensure(stale?: boolean): Promise<RelayTokenGrant>
  /** The grant the next socket opens with, if any. */
  current(): RelayTokenGrant | null
}

export function createRelayTokenCache(
  getToken: () => Promise<RelayTokenGrant>,
  now: () => number,
): RelayTokenCache {
  let grant: RelayTokenGrant | null = null
  let request: Promise<RelayTokenGrant> | null = null
  return {
    async ensure(stale = false) {
      if (stale) grant = null
      if (grant !== null && !relayTokenExpired(grant, now())) return grant
      request ??= getToken().finally(() => {
        request = null
      })
      grant = await request
      return grant
    },
    current: () => grant,
  }
}
