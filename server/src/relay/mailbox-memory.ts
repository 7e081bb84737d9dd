import type { PublishOutcome, RelayMailbox, StoredMessage } from './mailbox'

export interface MemoryMailboxOptions {
  now?: () => number
  /** Period of the sweep that drops expired messages and empty topics; 0 turns it off. */
  sweepIntervalMs?: number
}

/** The embedded default: one process, so the hub's local delivery is the whole fan-out. */
export function createMemoryMailbox(options: MemoryMailboxOptions = {}): RelayMailbox {
  const now = options.now ?? Date.now
  // topic → messageId → message, in publication order (Map keeps insertion order).
  const topics = new Map<string, Map<string, StoredMessage>>()

  const live = (topic: string): Map<string, StoredMessage> | undefined => {
    const messages = topics.get(topic)
    if (!messages) return undefined
    const at = now()
    for (const [id, message] of messages) if (message.expiresAt <= at) messages.delete(id)
    if (messages.size === 0) {
      topics.delete(topic)
      return undefined
    }
    return messages
  }

  const sweepMs = options.sweepIntervalMs ?? 60_000
  const sweepAll = () => {
    for (const topic of [...topics.keys()]) live(topic)
  }
  const sweep = sweepMs > 0 ? setInterval(sweepAll, sweepMs) : null
  sweep?.unref()

  return {
    kind: 'memory',
    async publish(message, limit): Promise<PublishOutcome> {
      const messages = live(message.topic)
      const existing = messages?.get(message.messageId)
      if (existing) return { status: 'duplicate', message: existing }
      if (messages && messages.size >= limit) return { status: 'full' }
      if (messages) messages.set(message.messageId, message)
      else topics.set(message.topic, new Map([[message.messageId, message]]))
      return { status: 'stored', message }
    },
    async read(topic) {
      return [...(live(topic)?.values() ?? [])]
    },
    async listen() {},
    async unlisten() {},
    setHandlers() {},
    async close() {
      if (sweep) clearInterval(sweep)
      topics.clear()
    },
  }
}
