import { createLogger } from '../../logging'
import { RELAY_METHODS, type RelayMessage } from '../../wire/relay'
import { type MessageDedupe, relayMessageId } from './dedupe'
import { parseFetchResult } from './frames'
import type { RelayRequests } from './requests'

const log = /* @__PURE__ */ createLogger('relay')

/** Each fetch of a topic's mailbox after a (re)connect reads at most this many pages. */
const MAX_FETCH_PAGES = 10

/** The client's topics: subscribed again on every connection, their messages delivered once. */
export interface RelaySubscriber {
  /** Adds a topic (not yet subscribed on this connection). */
  add(topic: string): void
  /** Forgets a topic; resolves once the relay was told (when it had a subscription). */
  remove(topic: string, online: boolean): Promise<void>
  /** Subscribes `topic` on the current connection unless it already is (or was removed). */
  subscribe(topic: string): Promise<void>
  /** Every topic not subscribed on this connection: subscribe, then fetch its mailbox. */
  resubscribeAll(): Promise<void>
  /** The connection is gone: every topic needs subscribing again. */
  reset(): void
  /** A message of a topic: to the listeners, unless unknown or seen before (then `false`). */
  deliver(message: RelayMessage): boolean
  onMessage(listener: (message: RelayMessage) => void): () => void
}

export function createRelaySubscriber(parts: {
  requests: RelayRequests
  dedupe: MessageDedupe
}): RelaySubscriber {
  const { requests, dedupe } = parts
  const topics = new Map<string, string | null>() // topic → subscription id (null: not yet)
  const listeners = new Set<(message: RelayMessage) => void>()

  function deliver(data: RelayMessage): boolean {
    if (!topics.has(data.topic)) return false
    if (!dedupe.remember(relayMessageId(data.message))) return false
    for (const listener of listeners) {
      try {
        listener(data)
      } catch (error) {
        log.warn('a relay message listener threw', error)
      }
    }
    return true
  }

  async function subscribe(topic: string): Promise<void> {
    if (topics.get(topic) !== null) return
    const id = await requests.request<string>(RELAY_METHODS.subscribe, { topic })
    if (topics.has(topic)) topics.set(topic, typeof id === 'string' ? id : String(id))
  }

  async function fetchMailbox(topic: string): Promise<void> {
    for (let page = 0; page < MAX_FETCH_PAGES; page++) {
      const result = parseFetchResult(
        await requests.request(RELAY_METHODS.fetchMessages, { topic }),
      )
      if (result === null) return
      let fresh = 0
      for (const message of result.messages) {
        if (message.topic === topic && deliver(message)) fresh++
      }
      if (!result.hasMore || fresh === 0) return
    }
  }

  function nextUnsubscribed(): string | undefined {
    for (const [topic, id] of topics) if (id === null) return topic
    return undefined
  }

  return {
    add(topic) {
      if (!topics.has(topic)) topics.set(topic, null)
    },
    async remove(topic, online) {
      const id = topics.get(topic)
      topics.delete(topic)
      if (id === undefined || id === null || !online) return
      await requests
        .request(RELAY_METHODS.unsubscribe, { topic, id })
        .catch((error) => log.debug('unsubscribe failed', error))
    },
    subscribe,
    async resubscribeAll() {
      // Topics added while this runs (a proposal answered mid-reconnect) are subscribed too.
      for (let topic = nextUnsubscribed(); topic !== undefined; topic = nextUnsubscribed()) {
        await subscribe(topic)
        await fetchMailbox(topic)
      }
    },
    reset() {
      for (const topic of topics.keys()) topics.set(topic, null)
    },
    deliver,
    onMessage(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
