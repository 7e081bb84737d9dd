import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/** Dedupe memory: message ids are kept at most this long (the longest relay TTL, 7 days)… */
const SEEN_MAX_AGE_MS = 604_800_000
/** …and at most this many (oldest forgotten first). */
const SEEN_MAX_ENTRIES = 10_000

/** `messageId` = hex SHA-256 of the message text (the base64 envelope). */
export function relayMessageId(message: string): string {
  return bytesToHex(sha256(utf8ToBytes(message)))
}

/** The message ids a client has seen (delivered or published), bounded in age and number. */
export interface MessageDedupe {
  /** `true` the first time `messageId` is seen, `false` after. */
  remember(messageId: string): boolean
}

export function createMessageDedupe(now: () => number): MessageDedupe {
  const seen = new Map<string, number>() // messageId → when first seen
  return {
    remember(messageId) {
      if (seen.has(messageId)) return false
      seen.set(messageId, now())
      if (seen.size > SEEN_MAX_ENTRIES) {
        const cutoff = now() - SEEN_MAX_AGE_MS
        for (const [id, at] of seen) {
          if (seen.size <= SEEN_MAX_ENTRIES && at >= cutoff) break
          seen.delete(id)
        }
      }
      return true
    },
  }
}
