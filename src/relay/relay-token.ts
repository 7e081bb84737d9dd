import { RELAY_TOKEN_EXPIRY_MARGIN_MS } from './constants'
import type { RelayTokenGrant } from './types'

/**
 * True when the relay token grant has reached its expiry, counting a 5-second margin:
 * `nowMs >= grant.expiresAt - 5000`. Never throws: a grant without a finite `expiresAt`, or a
 * `nowMs` that is not a number, counts as expired, so the caller fetches a fresh grant.
 */
export function relayTokenExpired(grant: RelayTokenGrant, nowMs: number = Date.now()): boolean {
  const expiresAt = (grant as Partial<RelayTokenGrant> | null | undefined)?.expiresAt
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return true
  if (typeof nowMs !== 'number' || Number.isNaN(nowMs)) return true
  return nowMs >= expiresAt - RELAY_TOKEN_EXPIRY_MARGIN_MS
}
