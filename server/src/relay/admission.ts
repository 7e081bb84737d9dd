import { fairShare } from '../rate-limit/fair-ceiling'

/**
 * Whether a new message may enter the mailbox: the topic's fair shares, then the storage quotas
 * (the caller's share of its app key's, the app key's, the whole mailbox's).
 * The in-process mailbox calls these; the Redis publish script applies the same rule in Lua (a
 * test runs both mailboxes through the same cases).
 *
 * Fair shares: a topic's first two publishers (by token `sub`, remembered while the topic holds
 * messages) are its parties: a pairing's dApp and wallet, a session's two peers. Each party may
 * hold 40 % of the topic's capacity, so 80 % is theirs whatever anyone else does; every other
 * publisher may hold 10 %, and all of them together the remaining 20 %. Subjects cost nothing
 * (a token per request), so a cap per publisher alone would not do: the reserve is what keeps
 * the parties' room.
 *
 * Quotas: the app key is public, so a quota per app key alone would let one caller fill it for
 * everyone. As with the rate limits, each source (the app key from one address, IPv6 per /64)
 * has its own quota, and the app key's is a ceiling far above it. Once a ceiling is full it no
 * longer refuses everyone: the limiter's "fair share once full" rule (`fairShare`,
 * `rate-limit/fair-ceiling.ts`) lets a source in while it holds no more than the app key's
 * quota divided among the app key's sources holding messages (itself counted), and an app key
 * while it holds no more than the mailbox's quota divided among the app keys holding messages.
 * So those who filled a ceiling are refused, and a newcomer (a fresh pairing's dApp) always gets
 * a share. Past a full ceiling the shares of callers arriving one after another add up to the
 * ceiling × H(n) (1 + 1/2 + … + 1/n): the mailbox holds at most about H(app keys) ×
 * `mailboxQuotaBytes` (docs/relay.md).
 *
 * Charge: a message costs its text's length, at least `MIN_CHARGE_BYTES` (the bookkeeping of a
 * message costs a few hundred bytes whatever its size, so tiny messages are not free).
 *
 * Long ttls: a ttl over `unpairedTtlMs` (5 min) is kept only when the publisher is one of the
 * topic's two parties and both have published (the second party's first publish counts); any
 * other publish is clamped to it (`pairedExpiry`). A session's delete lives a day; a flood on
 * topics nobody answers lives 5 minutes.
 */

/** A stored message is charged at least this many bytes. */
export const MIN_CHARGE_BYTES = 1024

/** What a message of `length` bytes of text costs the quotas. */
export const chargedBytes = (length: number) => Math.max(MIN_CHARGE_BYTES, length)

/** The longest ttl of a message on a topic where both parties have not published: 5 min. */
export const UNPAIRED_TTL_MS = 300_000

/** Why a publish was refused; the keys of `stats().quotaRefusals`. */
export type RefusalReason =
  | 'topicFull'
  | 'publisherShare'
  | 'sourceMessages'
  | 'sourceBytes'
  | 'appMessages'
  | 'appBytes'
  | 'mailboxBytes'

/** The capacities that apply to one publish (from `RelayLimits`). */
export interface AdmissionLimits {
  /** Live messages per topic. */
  perTopic: number
  sourceQuotaBytes: number
  sourceQuotaMessages: number
  appQuotaBytes: number
  appQuotaMessages: number
  mailboxQuotaBytes: number
  /** The longest life of a message unless both parties of its topic have published (ms). */
  unpairedTtlMs: number
}

export const partyShare = (perTopic: number) => Math.ceil((perTopic * 2) / 5)
export const otherShare = (perTopic: number) => Math.ceil(perTopic / 10)
export const othersPool = (perTopic: number) => Math.max(0, perTopic - 2 * partyShare(perTopic))

/** One topic as the rule sees it, before the new message. */
export interface TopicLoad {
  /** Live messages on the topic. */
  total: number
  /** Of them, the publisher's own. */
  held: number
  /** Of them, those of publishers that are not parties. */
  others: number
  /** The publisher is a party, or becomes one (fewer than two parties so far). */
  party: boolean
}

export function topicRefusal(load: TopicLoad, perTopic: number): RefusalReason | undefined {
  if (load.total >= perTopic) return 'topicFull'
  if (load.held >= (load.party ? partyShare(perTopic) : otherShare(perTopic))) {
    return 'publisherShare'
  }
  if (!load.party && load.others >= othersPool(perTopic)) return 'topicFull'
  return undefined
}

/**
 * Whether the publisher, once this message is stored, is one of the topic's two parties and both
 * have published. `parties`: the topic's parties before the message.
 */
export function isPaired(parties: readonly string[], sub: string): boolean {
  if (parties.includes(sub)) return parties.length === 2
  return parties.length === 1
}

/** The message's expiry: as asked when paired, else at most `unpairedTtlMs` after publishing. */
export function pairedExpiry(
  message: { publishedAt: number; expiresAt: number },
  paired: boolean,
  limits: Pick<AdmissionLimits, 'unpairedTtlMs'>,
): number {
  return paired
    ? message.expiresAt
    : Math.min(message.expiresAt, message.publishedAt + limits.unpairedTtlMs)
}

/**
 * What the publisher's source (its app key from its address), the app key and the whole mailbox
 * hold, before the new message of `bytes` (charged: `chargedBytes`), and how many share them.
 */
export interface StorageLoad {
  sourceBytes: number
  sourceMessages: number
  appBytes: number
  appMessages: number
  mailboxBytes: number
  /** The app key's sources holding messages, this one counted even when it holds none. */
  appSources: number
  /** App keys holding messages, this one counted even when it holds none. */
  apps: number
}

export function quotaRefusal(
  load: StorageLoad,
  bytes: number,
  limits: AdmissionLimits,
): RefusalReason | undefined {
  if (load.sourceMessages + 1 > limits.sourceQuotaMessages) return 'sourceMessages'
  if (load.sourceBytes + bytes > limits.sourceQuotaBytes) return 'sourceBytes'
  // A full ceiling still admits whoever is within its fair share of it.
  if (
    load.appMessages + 1 > limits.appQuotaMessages &&
    load.sourceMessages + 1 > fairShare(limits.appQuotaMessages, load.appSources)
  ) {
    return 'appMessages'
  }
  if (
    load.appBytes + bytes > limits.appQuotaBytes &&
    load.sourceBytes + bytes > fairShare(limits.appQuotaBytes, load.appSources)
  ) {
    return 'appBytes'
  }
  if (
    load.mailboxBytes + bytes > limits.mailboxQuotaBytes &&
    load.appBytes + bytes > fairShare(limits.mailboxQuotaBytes, load.apps)
  ) {
    return 'mailboxBytes'
  }
  return undefined
}
