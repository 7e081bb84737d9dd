import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  RELAY_CLOSE_CODES,
  RELAY_ERROR_CODES,
  RELAY_METHODS,
  type RelayErrorCode,
  type RelayFetchResult,
  type RelayMessage,
} from 'scope-connect/wire'
import type { RawData, WebSocket } from 'ws'
import { type RefusalReason, UNPAIRED_TTL_MS } from './admission'
import {
  errorFrame,
  type PublishParams,
  parseFrame,
  publishParams,
  RelayRpcError,
  resultFrame,
  topicOf,
  unsubscribeParams,
} from './frames'
import type { RelayHub, TopicSubscriber } from './hub'
import type { RelayLimits } from './limits'
import {
  type Publisher,
  type RelayMailbox,
  RelayStoreUnavailableError,
  type StoredMessage,
} from './mailbox'
import { clampTtl } from './ttl-ceilings'

export interface ConnectionDeps {
  hub: RelayHub
  mailbox: RelayMailbox
  limits: RelayLimits
  now: () => number
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void }
  /** Counters of this instance, for `stats()`. */
  counters: RelayCounters
}

export interface RelayCounters {
  quotaRefusals: Record<RefusalReason, number>
  /**
   * Every request or socket the relay refused, by reason: a quota's or share's (as
   * `quotaRefusals`), `storeUnavailable` (its Redis away), `tooManySubscriptions`, `publishRate`
   * (socket closed for publishing too fast), `socketsPerIp` (upgrade refused by the per-IP cap).
   */
  refusals: Record<string, number>
  slowConsumerCloses: number
}

/** Counts one refusal of `reason` in `counters.refusals`. */
export function countRefusal(counters: RelayCounters, reason: string): void {
  counters.refusals[reason] = (counters.refusals[reason] ?? 0) + 1
}

/** What the upgrade learned from the token: its expiry (ms epoch) and who it was granted to. */
export interface ConnectionGrant extends Publisher {
  expiresAt: number
}

const REFUSALS: Record<RefusalReason, { code: RelayErrorCode; message: string }> = {
  topicFull: {
    code: RELAY_ERROR_CODES.MAILBOX_FULL,
    message: "the topic's mailbox has no room left for this publisher; retry after some expire",
  },
  publisherShare: {
    code: RELAY_ERROR_CODES.MAILBOX_FULL,
    message: "this publisher holds its share of the topic's mailbox; retry after some expire",
  },
  sourceMessages: {
    code: RELAY_ERROR_CODES.QUOTA_EXCEEDED,
    message: "this address's message quota for the app key is used up; retry after some expire",
  },
  sourceBytes: {
    code: RELAY_ERROR_CODES.QUOTA_EXCEEDED,
    message: "this address's storage quota for the app key is used up; retry after some expire",
  },
  appMessages: {
    code: RELAY_ERROR_CODES.QUOTA_EXCEEDED,
    message: "the app key's message quota is used up; retry after some expire",
  },
  appBytes: {
    code: RELAY_ERROR_CODES.QUOTA_EXCEEDED,
    message: "the app key's storage quota is used up; retry after some expire",
  },
  mailboxBytes: {
    code: RELAY_ERROR_CODES.QUOTA_EXCEEDED,
    message: "the relay's storage quota is used up; retry after some expire",
  },
}

/** What this connection knows about one message of a topic: pushed and waiting for the ack, or had. */
interface LedgerEntry {
  expiresAt: number
  /** Acked, fetched, or published by this connection: never pushed to it again. */
  had: boolean
}

const WINDOW_MS = 60_000
/** Live messages queued for a subscription that is still reading its mailbox. */
const MAX_OPENING_QUEUE = 1_000
/** Pushes awaiting an ack; beyond this the oldest are forgotten (their messages stay unacked). */
const MAX_PENDING_PUSHES = 10_000

class Subscription implements TopicSubscriber {
  open = false
  queue: StoredMessage[] = []
  readonly opened: Promise<void>
  settle!: (error?: unknown) => void

  constructor(
    readonly id: string,
    readonly topic: string,
    private readonly connection: RelayConnection,
  ) {
    this.opened = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error))
    })
    this.opened.catch(() => {})
  }

  offer(message: StoredMessage): void {
    if (this.open) this.connection.push(this, message)
    else if (this.queue.length < MAX_OPENING_QUEUE) this.queue.push(message)
  }

  resync(): void {
    if (this.open) void this.connection.refill(this)
  }
}

/** A fixed 60 s window starting at its first hit. */
class MinuteWindow {
  private start = 0
  private count = 0
  constructor(private readonly limit: number) {}
  /** Counts one hit; false once the window holds more than the limit. */
  hit(at: number): boolean {
    if (at - this.start >= WINDOW_MS) {
      this.start = at
      this.count = 0
    }
    return ++this.count <= this.limit
  }
}

// A message's `data` is the same for every subscriber: serialize it once per message.
const dataJson = new WeakMap<StoredMessage, string>()
function serializedData(message: StoredMessage): string {
  let json = dataJson.get(message)
  if (json === undefined) {
    json = JSON.stringify(wireMessage(message))
    dataJson.set(message, json)
  }
  return json
}

const wireMessage = (message: StoredMessage): RelayMessage => ({
  topic: message.topic,
  message: message.message,
  messageId: message.messageId,
  publishedAt: message.publishedAt,
  tag: message.tag,
})

/**
 * One relay socket: JSON-RPC requests in, answers and `scr_subscription` pushes out. Per
 * connection it keeps its subscriptions, which messages of each topic it has (so an acked,
 * fetched or self-published message is never pushed to it again), and its two minute windows
 * (publishes, requests). Bad requests are answered with errors; only the documented limits close
 * the socket.
 */
export class RelayConnection {
  /**
   * Set by the pong that echoes the last ping's random payload; the heartbeat terminates a
   * connection that has not answered since the last ping (unsolicited pongs prove nothing).
   */
  private alive = true
  private pingPayload: Buffer | undefined
  private closed = false
  private readonly subscriptions = new Map<string, Subscription>()
  /** topic → messageId → entry; least recently used topic first. */
  private readonly ledgers = new Map<string, Map<string, LedgerEntry>>()
  private readonly pendingPushes = new Map<number, { topic: string; messageId: string }>()
  private readonly inFlight = new Set<number>()
  private nextPushId = 1
  private readonly publishes: MinuteWindow
  private readonly requests: MinuteWindow
  private readonly expiryTimer: NodeJS.Timeout

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ConnectionDeps,
    private readonly grant: ConnectionGrant,
  ) {
    this.publishes = new MinuteWindow(deps.limits.publishesPerMinute)
    this.requests = new MinuteWindow(deps.limits.requestsPerMinute)
    // setTimeout holds at most 2^31 - 1 ms; tokens live far shorter.
    const untilExpiry = Math.min(Math.max(0, grant.expiresAt - deps.now()), 2 ** 31 - 1)
    this.expiryTimer = setTimeout(
      () => this.close(RELAY_CLOSE_CODES.TOKEN_EXPIRED, 'relay token expired'),
      untilExpiry,
    )
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary))
    socket.on('pong', (data) => {
      const expected = this.pingPayload
      if (expected && data.length === expected.length && timingSafeEqual(data, expected)) {
        this.alive = true
      }
    })
    socket.on('close', () => this.onClosed())
  }

  /** Heartbeat tick: terminate when the previous ping went unanswered, else ping again. */
  heartbeat(): void {
    if (!this.alive) {
      this.socket.terminate()
      return
    }
    this.alive = false
    this.pingPayload = randomBytes(8)
    this.socket.ping(this.pingPayload)
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason)
  }

  private onClosed(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.expiryTimer)
    for (const subscription of this.subscriptions.values()) {
      subscription.open = false
      this.deps.hub.remove(subscription.topic, subscription)
    }
    this.subscriptions.clear()
    this.ledgers.clear()
    this.pendingPushes.clear()
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (this.closed) return
    const frame = isBinary
      ? ({
          kind: 'invalid',
          id: null,
          error: new RelayRpcError(RELAY_ERROR_CODES.PARSE_ERROR, 'binary frames are not accepted'),
        } as const)
      : parseFrame(data.toString())
    // Acks of our pushes are free; anything else, a stray answer included, counts as a request.
    if (frame.kind === 'response' && this.onAck(frame.id, frame.ok)) return
    if (!this.requests.hit(this.deps.now())) {
      this.close(RELAY_CLOSE_CODES.TRY_AGAIN_LATER, 'too many requests; try again later')
      return
    }
    if (frame.kind === 'response') return // never answered
    if (frame.kind === 'invalid') {
      this.send(errorFrame(frame.id, frame.error))
      return
    }
    const { id } = frame
    if (this.inFlight.has(id)) {
      this.send(
        errorFrame(
          id,
          new RelayRpcError(
            RELAY_ERROR_CODES.INVALID_REQUEST,
            'id is in use by a request in flight',
          ),
        ),
      )
      return
    }
    if (frame.method === RELAY_METHODS.publish && !this.publishes.hit(this.deps.now())) {
      countRefusal(this.deps.counters, 'publishRate')
      this.close(RELAY_CLOSE_CODES.TRY_AGAIN_LATER, 'too many publishes; try again later')
      return
    }
    this.inFlight.add(id)
    this.dispatch(id, frame.method, frame.params).then(
      (result) => {
        this.inFlight.delete(id)
        if (result !== undefined) this.send(resultFrame(id, result))
      },
      (error: unknown) => {
        this.inFlight.delete(id)
        this.send(errorFrame(id, this.toRpcError(error)))
      },
    )
  }

  /** The request's result, or undefined when the answer was already sent (subscribe). */
  private async dispatch(id: number, method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case RELAY_METHODS.subscribe:
        return this.subscribe(id, topicOf(params))
      case RELAY_METHODS.unsubscribe:
        return this.unsubscribe(unsubscribeParams(params))
      case RELAY_METHODS.publish:
        return this.publish(publishParams(params, this.deps.limits.maxMessageBytes))
      case RELAY_METHODS.fetchMessages:
        return this.fetchMessages(topicOf(params))
      case RELAY_METHODS.ping:
        return true
      default:
        throw new RelayRpcError(
          RELAY_ERROR_CODES.METHOD_NOT_FOUND,
          `unknown method ${JSON.stringify(method.slice(0, 64))}`,
        )
    }
  }

  private toRpcError(error: unknown): RelayRpcError {
    if (error instanceof RelayRpcError) return error
    if (error instanceof RelayStoreUnavailableError) {
      countRefusal(this.deps.counters, 'storeUnavailable')
      return new RelayRpcError(
        RELAY_ERROR_CODES.STORE_UNAVAILABLE,
        'the relay store is not reachable',
      )
    }
    this.deps.log.warn({ err: error }, 'relay request failed')
    return new RelayRpcError(RELAY_ERROR_CODES.INTERNAL_ERROR, 'internal error')
  }

  /** Answers with the subscription id itself: the mailbox pushes must follow the answer. */
  private async subscribe(requestId: number, topic: string): Promise<undefined> {
    const existing = this.subscriptions.get(topic)
    if (existing) {
      await existing.opened
      // Subscribing again offers again what this connection has not acked.
      this.forgetUnacked(topic)
      this.send(resultFrame(requestId, existing.id))
      await this.refill(existing)
      return undefined
    }
    if (this.subscriptions.size >= this.deps.limits.maxSubscriptionsPerConnection) {
      countRefusal(this.deps.counters, 'tooManySubscriptions')
      throw new RelayRpcError(
        RELAY_ERROR_CODES.TOO_MANY_SUBSCRIPTIONS,
        `at most ${this.deps.limits.maxSubscriptionsPerConnection} subscriptions per connection`,
      )
    }
    const subscription = new Subscription(randomBytes(16).toString('hex'), topic, this)
    this.subscriptions.set(topic, subscription)
    this.forgetUnacked(topic)
    let mailbox: StoredMessage[]
    try {
      await this.deps.hub.add(topic, subscription)
      mailbox = await this.deps.mailbox.read(topic)
    } catch (error) {
      this.dropSubscription(subscription)
      subscription.settle(error)
      throw error
    }
    if (this.subscriptions.get(topic) !== subscription) {
      // Closed meanwhile: nobody to answer.
      subscription.settle(new Error('connection closed'))
      return undefined
    }
    this.send(resultFrame(requestId, subscription.id))
    subscription.open = true
    subscription.settle()
    // Live messages that arrived while the mailbox was read may be in it too: the ledger skips them.
    for (const message of [...mailbox, ...subscription.queue.splice(0)]) {
      this.push(subscription, message)
    }
    return undefined
  }

  private unsubscribe({ topic, id }: { topic: string; id: string }): true {
    const subscription = this.subscriptions.get(topic)
    if (!subscription || subscription.id !== id) {
      throw new RelayRpcError(
        RELAY_ERROR_CODES.UNKNOWN_SUBSCRIPTION,
        'this connection holds no such subscription on that topic',
      )
    }
    this.dropSubscription(subscription)
    return true
  }

  private dropSubscription(subscription: Subscription): void {
    subscription.open = false
    if (this.subscriptions.get(subscription.topic) === subscription) {
      this.subscriptions.delete(subscription.topic)
    }
    this.deps.hub.remove(subscription.topic, subscription)
  }

  private async publish(params: PublishParams): Promise<true> {
    const publishedAt = this.deps.now()
    const { limits } = this.deps
    const outcome = await this.deps.mailbox.publish(
      {
        topic: params.topic,
        message: params.message,
        messageId: hash('sha256', params.message),
        publishedAt,
        tag: params.tag,
        expiresAt: publishedAt + clampTtl(params.ttl, params.tag) * 1000,
      },
      { app: this.grant.app, sub: this.grant.sub, source: this.grant.source },
      {
        perTopic: limits.mailboxPerTopic,
        sourceQuotaBytes: limits.sourceQuotaBytes,
        sourceQuotaMessages: limits.sourceQuotaMessages,
        appQuotaBytes: limits.appQuotaBytes,
        appQuotaMessages: limits.appQuotaMessages,
        mailboxQuotaBytes: limits.mailboxQuotaBytes,
        unpairedTtlMs: UNPAIRED_TTL_MS,
      },
    )
    if (outcome.status === 'refused') {
      this.deps.counters.quotaRefusals[outcome.reason]++
      countRefusal(this.deps.counters, outcome.reason)
      const refusal = REFUSALS[outcome.reason]
      throw new RelayRpcError(refusal.code, refusal.message)
    }
    // No echo: the publisher has its own message, so it is never pushed to this connection.
    this.record(outcome.message, true)
    this.deps.hub.deliver(outcome.message)
    return true
  }

  private async fetchMessages(topic: string): Promise<RelayFetchResult> {
    const mailbox = await this.deps.mailbox.read(topic)
    const ledger = this.ledger(topic)
    const messages: RelayMessage[] = []
    let bytes = 0
    for (const message of mailbox) {
      if (ledger.get(message.messageId)?.had) continue
      if (messages.length > 0 && bytes + message.message.length > this.deps.limits.fetchPageBytes) {
        return { messages, hasMore: true }
      }
      messages.push(wireMessage(message))
      bytes += message.message.length
      this.record(message, true)
    }
    return { messages, hasMore: false }
  }

  /** Pushes the message on the subscription unless this connection has or was just sent it. */
  push(subscription: Subscription, message: StoredMessage): void {
    if (!subscription.open || this.closed) return
    if (this.ledger(message.topic).has(message.messageId)) return
    this.record(message, false)
    const pushId = this.nextPushId++
    this.pendingPushes.set(pushId, { topic: message.topic, messageId: message.messageId })
    if (this.pendingPushes.size > MAX_PENDING_PUSHES) {
      this.pendingPushes.delete(this.pendingPushes.keys().next().value as number)
    }
    this.send(
      `{"jsonrpc":"2.0","id":${pushId},"method":"${RELAY_METHODS.subscription}","params":{"id":"${subscription.id}","data":${serializedData(message)}}}`,
    )
  }

  /** Offers the topic's mailbox again (after a fan-out outage or a repeated subscribe). */
  async refill(subscription: Subscription): Promise<void> {
    try {
      const mailbox = await this.deps.mailbox.read(subscription.topic)
      for (const message of mailbox) this.push(subscription, message)
    } catch (error) {
      this.deps.log.debug({ err: error }, 'relay mailbox re-read failed')
    }
  }

  /** False when no push awaits this id. */
  private onAck(pushId: number, ok: boolean): boolean {
    const pending = this.pendingPushes.get(pushId)
    if (!pending) return false
    this.pendingPushes.delete(pushId)
    // An error answer leaves the message unacked: offered again at the next subscribe.
    const entry = ok ? this.ledgers.get(pending.topic)?.get(pending.messageId) : undefined
    if (entry) entry.had = true
    return true
  }

  private record(message: StoredMessage, had: boolean): void {
    const ledger = this.ledger(message.topic)
    const entry = ledger.get(message.messageId)
    if (entry) entry.had ||= had
    else ledger.set(message.messageId, { expiresAt: message.expiresAt, had })
    if (ledger.size > 2 * this.deps.limits.mailboxPerTopic) {
      const at = this.deps.now()
      for (const [id, { expiresAt }] of ledger) if (expiresAt <= at) ledger.delete(id)
    }
  }

  private forgetUnacked(topic: string): void {
    const ledger = this.ledgers.get(topic)
    if (!ledger) return
    for (const [id, entry] of ledger) if (!entry.had) ledger.delete(id)
  }

  /**
   * The topic's ledger, moved to the most recently used end. At most twice the subscription limit
   * are kept: beyond, the least recently used ledger of a topic not subscribed goes (its messages
   * may then be fetched again, and clients drop duplicates by messageId).
   */
  private ledger(topic: string): Map<string, LedgerEntry> {
    let ledger = this.ledgers.get(topic)
    if (ledger) {
      this.ledgers.delete(topic)
    } else {
      ledger = new Map()
      if (this.ledgers.size >= 2 * this.deps.limits.maxSubscriptionsPerConnection) {
        for (const old of this.ledgers.keys()) {
          if (!this.subscriptions.has(old)) {
            this.ledgers.delete(old)
            break
          }
        }
      }
    }
    this.ledgers.set(topic, ledger)
    return ledger
  }

  /**
   * Sends unless the socket is closing. A client that does not read lets the socket's buffer
   * grow: past `sendBufferBytes` it is closed with 1013, and what it missed stays in the mailbox
   * for its reconnect and fetch. It is cut if it does not take the close frame in time either.
   */
  private send(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return
    this.socket.send(text)
    if (this.socket.bufferedAmount > this.deps.limits.sendBufferBytes) {
      this.deps.counters.slowConsumerCloses++
      this.close(RELAY_CLOSE_CODES.TRY_AGAIN_LATER, 'reading too slowly; reconnect and fetch')
      setTimeout(() => this.socket.terminate(), this.deps.limits.closeGraceMs).unref()
    }
  }
}
