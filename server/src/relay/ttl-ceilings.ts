import { RELAY_TTL_SECONDS } from 'scope-connect/wire'

/**
 * The longest ttl the relay keeps a message of each known tag (the library's tags,
 * `src/relay/peer/message-tags.ts`; an answer's tag is its request's + 1). The ceilings are the
 * TTLs of SPEC section 5 for the kinds the library publishes: proposal and settle 5 min,
 * requests and their answers 5 min; a session delete 1 day (so a peer that comes back within
 * a day still learns the session ended). Pings live 30 s in the library; their ceiling is the
 * unknown tags' one, since a lower one would only push a client to another tag.
 */
const TTL_CEILINGS_BY_TAG: ReadonlyMap<number, number> = new Map([
  [1100, RELAY_TTL_SECONDS.proposal], // scr_sessionPropose
  [1101, RELAY_TTL_SECONDS.settle], // its answer: the approval that settles the session
  [1108, RELAY_TTL_SECONDS.request], // scr_sessionRequest
  [1109, RELAY_TTL_SECONDS.request],
  [1112, 86_400], // scr_sessionDelete
  [1113, 86_400],
])

/** Any other tag (the library's fallback 1000, pings, other clients' kinds). */
export const UNKNOWN_TAG_TTL_CEILING_SECONDS = 300

/**
 * The ttl the relay keeps a message for: the one asked, clamped to its tag's ceiling. Clamped
 * rather than refused: a client asking too much still gets its message through, only shorter.
 */
export function clampTtl(ttlSeconds: number, tag: number): number {
  return Math.min(ttlSeconds, TTL_CEILINGS_BY_TAG.get(tag) ?? UNKNOWN_TAG_TTL_CEILING_SECONDS)
}
