import { chargedBytes, isPaired, pairedExpiry, topicRefusal } from './admission'
import { ExpiryQueue } from './expiry-queue'
import type { Publisher, PublishOutcome, RelayMailbox, StoredMessage } from './mailbox'
import { UsageLedger } from './usage-ledger'

export interface MemoryMailboxOptions {
  now?: () => number
  /** Period of the sweep that drops expired messages when nobody publishes; 0 turns it off. */
  sweepIntervalMs?: number
}

/** One stored message with what its expiry gives back to the counts. */
interface Held {
  message: StoredMessage
  expiresAt: number
  from: Publisher
  bytes: number
}

interface Topic {
  /** messageId → held, in publication order (Map keeps insertion order). */
  messages: Map<string, Held>
  /** sub → live messages. */
  held: Map<string, number>
  /** The first two publishers (admission.ts), remembered while the topic holds messages. */
  parties: string[]
  /** Live messages of publishers that are not parties. */
  others: number
}

const bump = (counts: Map<string, number>, key: string, by: number) => {
  const next = (counts.get(key) ?? 0) + by
  if (next > 0) counts.set(key, next)
  else counts.delete(key)
}

/** The embedded default: one process, so the hub's local delivery is the whole fan-out. */
export function createMemoryMailbox(options: MemoryMailboxOptions = {}): RelayMailbox {
  const now = options.now ?? Date.now
  const topics = new Map<string, Topic>()
  const expiries = new ExpiryQueue<Held>()
  // The quotas' counts (with the same expiries): admission.ts over this process's messages.
  const usage = new UsageLedger(now)

  // Every message leaves by its expiry, and here only: the counts drop with it.
  const release = () => {
    const at = now()
    for (let held = expiries.popDue(at); held; held = expiries.popDue(at)) {
      const topic = topics.get(held.message.topic)!
      topic.messages.delete(held.message.messageId)
      bump(topic.held, held.from.sub, -1)
      if (!topic.parties.includes(held.from.sub)) topic.others--
      if (topic.messages.size === 0) topics.delete(held.message.topic)
    }
    usage.release()
  }

  const sweepMs = options.sweepIntervalMs ?? 10_000
  const sweep = sweepMs > 0 ? setInterval(release, sweepMs) : null
  sweep?.unref()

  return {
    kind: 'memory',
    async publish(message, from, limits): Promise<PublishOutcome> {
      release()
      const topic = topics.get(message.topic)
      const existing = topic?.messages.get(message.messageId)
      if (existing) return { status: 'duplicate', message: existing.message }
      const parties = topic?.parties ?? []
      // The text is ASCII (base64): its length is its size in bytes.
      const bytes = chargedBytes(message.message.length)
      const refusal =
        topicRefusal(
          {
            total: topic?.messages.size ?? 0,
            held: topic?.held.get(from.sub) ?? 0,
            others: topic?.others ?? 0,
            party: parties.includes(from.sub) || parties.length < 2,
          },
          limits.perTopic,
        ) ?? usage.refusal(from, bytes, limits)
      if (refusal) return { status: 'refused', reason: refusal }

      const expiresAt = pairedExpiry(message, isPaired(parties, from.sub), limits)
      const stored = expiresAt === message.expiresAt ? message : { ...message, expiresAt }
      const entry: Topic = topic ?? { messages: new Map(), held: new Map(), parties: [], others: 0 }
      if (!topic) topics.set(message.topic, entry)
      if (!entry.parties.includes(from.sub)) {
        if (entry.parties.length < 2) entry.parties.push(from.sub)
        else entry.others++
      }
      const held: Held = { message: stored, expiresAt, from, bytes }
      entry.messages.set(message.messageId, held)
      bump(entry.held, from.sub, 1)
      expiries.push(held)
      usage.charge(from, bytes, expiresAt)
      return { status: 'stored', message: stored }
    },
    async read(topic) {
      release()
      return [...(topics.get(topic)?.messages.values() ?? [])].map((held) => held.message)
    },
    async listen() {},
    async unlisten() {},
    setHandlers() {},
    totals() {
      release()
      return usage.totals()
    },
    backend: () => 'none',
    async close() {
      if (sweep) clearInterval(sweep)
      topics.clear()
    },
  }
}
