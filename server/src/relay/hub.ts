import type { RelayMailbox, StoredMessage } from './mailbox'

/** One connection's subscription to one topic, as the hub sees it. */
export interface TopicSubscriber {
  /** A message on the topic (published here or on another instance). */
  offer(message: StoredMessage): void
  /** The fan-out was interrupted: look in the mailbox for what was missed. */
  resync(): void
}

interface TopicEntry {
  subscribers: Set<TopicSubscriber>
  /** Settles once the mailbox listens on the topic for this instance. */
  listening: Promise<void>
}

/**
 * This instance's topics: which local subscriptions hold each one. The instance listens on a
 * topic's channel while it has at least one local subscriber, and delivers every message of the
 * topic (its own publishes and other instances') to exactly those subscribers. Topics never
 * share an entry, so nothing published on one reaches another's subscribers.
 */
export class RelayHub {
  private readonly topics = new Map<string, TopicEntry>()

  constructor(private readonly mailbox: RelayMailbox) {
    mailbox.setHandlers({
      onRemote: (message) => this.deliver(message),
      onResync: () => {
        for (const entry of this.topics.values()) {
          for (const subscriber of entry.subscribers) subscriber.resync()
        }
      },
    })
  }

  /** Adds the subscriber; resolves once the topic's messages from every instance reach it. */
  async add(topic: string, subscriber: TopicSubscriber): Promise<void> {
    let entry = this.topics.get(topic)
    if (!entry) {
      const created: TopicEntry = { subscribers: new Set(), listening: this.mailbox.listen(topic) }
      // A failed listen drops the entry, so the next subscriber tries again.
      created.listening.catch(() => {
        if (this.topics.get(topic) === created) this.topics.delete(topic)
      })
      this.topics.set(topic, created)
      entry = created
    }
    entry.subscribers.add(subscriber)
    try {
      await entry.listening
    } catch (err) {
      entry.subscribers.delete(subscriber)
      throw err
    }
  }

  remove(topic: string, subscriber: TopicSubscriber): void {
    const entry = this.topics.get(topic)
    if (!entry?.subscribers.delete(subscriber) || entry.subscribers.size > 0) return
    this.topics.delete(topic)
    void this.mailbox.unlisten(topic).catch(() => {})
  }

  /** Offers the message to every local subscriber of its topic (each skips what it has). */
  deliver(message: StoredMessage): void {
    const entry = this.topics.get(message.topic)
    if (!entry) return
    for (const subscriber of entry.subscribers) subscriber.offer(message)
  }

  /** Local topics and subscriptions, for tests and metrics. */
  size(): { topics: number; subscriptions: number } {
    let subscriptions = 0
    for (const entry of this.topics.values()) subscriptions += entry.subscribers.size
    return { topics: this.topics.size, subscriptions }
  }
}
