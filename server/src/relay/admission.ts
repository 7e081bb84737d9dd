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
 * has its own quota, and the app key's is a ceiling far above it.
 */

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
 * What the publisher's source (its app key from its address), the app key and the whole mailbox
 * hold, before the new message of `bytes`.
 */
export interface StorageLoad {
  sourceBytes: number
  sourceMessages: number
  appBytes: number
  appMessages: number
  mailboxBytes: number
}

export function quotaRefusal(
  load: StorageLoad,
  bytes: number,
  limits: AdmissionLimits,
): RefusalReason | undefined {
  if (load.sourceMessages + 1 > limits.sourceQuotaMessages) return 'sourceMessages'
  if (load.sourceBytes + bytes > limits.sourceQuotaBytes) return 'sourceBytes'
  if (load.appMessages + 1 > limits.appQuotaMessages) return 'appMessages'
  if (load.appBytes + bytes > limits.appQuotaBytes) return 'appBytes'
  if (load.mailboxBytes + bytes > limits.mailboxQuotaBytes) return 'mailboxBytes'
  return undefined
}
