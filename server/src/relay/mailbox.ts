import type { RelayMessage } from 'scope-connect/wire'
import type { OutageStats } from '../store/outage-tracker'
import type { AdmissionLimits, RefusalReason } from './admission'

/** A message as the mailbox keeps it: the wire message and the moment its ttl runs out. */
export interface StoredMessage extends RelayMessage {
  /** ms epoch: `publishedAt + ttl × 1000`. */
  expiresAt: number
}

/**
 * Who publishes: the app key the token was granted to, the token's subject, and the address the
 * socket came from (its rate-limit key: IPv4, or the IPv6 /64; no spaces).
 */
export interface Publisher {
  app: string
  sub: string
  source: string
}

/**
 * `stored`: new in the mailbox. `duplicate`: the topic already holds a message with this id (the
 * stored one is fanned out again, so a publisher retrying after a lost answer reaches everyone).
 * `refused`: a fair share or a quota is used up (`admission.ts`); nothing was stored or sent.
 */
export type PublishOutcome =
  | { status: 'stored'; message: StoredMessage }
  | { status: 'duplicate'; message: StoredMessage }
  | { status: 'refused'; reason: RefusalReason }

/** What the mailbox holds: bytes of `message` text and messages (Redis: as of the last script). */
export interface MailboxTotals {
  bytes: number
  messages: number
}

/** Raised when the shared backend (Redis) does not answer; the request gets STORE_UNAVAILABLE. */
export class RelayStoreUnavailableError extends Error {
  override readonly name = 'RelayStoreUnavailableError'
}

/**
 * The mailbox of every topic and the fan-out between relay instances. The in-process one has a
 * single instance, so its fan-out is the hub's own; the Redis one publishes on a channel per
 * topic that every instance with a local subscriber listens on. A message leaves the mailbox
 * when its ttl runs out, and only then; that is when its bytes leave the quotas too.
 */
export interface RelayMailbox {
  readonly kind: 'memory' | 'redis'
  /**
   * Stores the message unless a share or quota refuses it, atomically with those checks, and
   * sends it to the other instances listening on the topic. The caller delivers it to its own
   * subscribers.
   */
  publish(message: StoredMessage, from: Publisher, limits: AdmissionLimits): Promise<PublishOutcome>
  /** The topic's live messages (expiry checked on read), oldest first. */
  read(topic: string): Promise<StoredMessage[]>
  /** Receive other instances' publishes on `topic` (resolves once listening) / stop. */
  listen(topic: string): Promise<void>
  unlisten(topic: string): Promise<void>
  /**
   * `onRemote`: a message another instance published. `onResync`: the fan-out was lost for a
   * while and is back; messages published meanwhile are only in the mailboxes.
   */
  setHandlers(handlers: { onRemote(message: StoredMessage): void; onResync(): void }): void
  totals(): MailboxTotals
  /** `none` in process; `up` / `down`: the Redis connections' state. */
  backend(): 'none' | 'up' | 'down'
  /** Redis outages of the mailbox since start, each once (absent in process). */
  outages?(): OutageStats
  close(): Promise<void>
}
