import { RELAY_HEARTBEAT_MS, RELAY_LIMITS } from 'scope-connect/wire'

/**
 * What one relay instance allows. The protocol's sizes and counts (SPEC 5) may be lowered, never
 * raised, since clients size their messages and subscriptions by them; the publish rate is a
 * policy and may be raised too (clients must not count on more than the default).
 */
export interface RelayLimits {
  /** Largest client frame in bytes; a bigger one closes the socket with 1009. */
  maxFrameBytes: number
  /** Largest `message` (the base64 text) of a publish; a bigger one is a MESSAGE_TOO_LARGE error. */
  maxMessageBytes: number
  maxSubscriptionsPerConnection: number
  /** Publishes per connection in a fixed 60 s window; one more closes the socket with 1013. */
  publishesPerMinute: number
  /** Live messages per topic; one more is a MAILBOX_FULL error. */
  mailboxPerTopic: number
  /**
   * Client frames of any kind (acks of pushes that await one excepted) per connection in a fixed 60 s window;
   * one more closes the socket with 1013. Bounds a flood of pings, fetches or garbage frames,
   * which are answered with errors but never close the socket by themselves.
   */
  requestsPerMinute: number
  /** Open relay sockets per caller IP (IPv6: per /64) on one instance; beyond: 429 on upgrade. */
  maxSocketsPerIp: number
  /** Bytes of messages in one `scr_fetchMessages` answer before `hasMore` (at least one message). */
  fetchPageBytes: number
  /** WebSocket ping period; a socket that did not answer the previous ping is terminated. */
  heartbeatMs: number
  /** How long shutdown waits for clients to answer the 1001 close before cutting the sockets. */
  closeGraceMs: number
  /**
   * Bytes of `message` text one source (an app key's sockets from one address, IPv6 per /64) may
   * keep in the mailbox; beyond: QUOTA_EXCEEDED. The everyday quota: the app key is public.
   */
  sourceQuotaBytes: number
  /** Messages one source may keep in the mailbox; beyond: QUOTA_EXCEEDED. */
  sourceQuotaMessages: number
  /**
   * Bytes of `message` text one app key may keep in the mailbox, from every source together (a
   * ceiling); beyond: QUOTA_EXCEEDED.
   */
  appQuotaBytes: number
  /** Messages one app key may keep in the mailbox; beyond: QUOTA_EXCEEDED. */
  appQuotaMessages: number
  /**
   * Bytes of `message` text in the whole mailbox: this process's, or with Redis the shared one
   * (that is where the bytes live); beyond: QUOTA_EXCEEDED.
   */
  mailboxQuotaBytes: number
  /**
   * Ceiling of a socket's unsent data (`ws.bufferedAmount`); past it the client reads too slowly
   * and is closed with 1013 (its messages stay in the mailbox for the reconnect).
   */
  sendBufferBytes: number
}

export const DEFAULT_RELAY_LIMITS: Readonly<RelayLimits> = Object.freeze({
  maxFrameBytes: RELAY_LIMITS.maxFrameBytes,
  maxMessageBytes: RELAY_LIMITS.maxMessageBytes,
  maxSubscriptionsPerConnection: RELAY_LIMITS.maxSubscriptionsPerConnection,
  publishesPerMinute: RELAY_LIMITS.publishesPerMinute,
  mailboxPerTopic: RELAY_LIMITS.mailboxPerTopic,
  requestsPerMinute: 3_000,
  maxSocketsPerIp: 200,
  fetchPageBytes: 1024 * 1024,
  heartbeatMs: RELAY_HEARTBEAT_MS,
  closeGraceMs: 2_000,
  sourceQuotaBytes: 8 * 1024 * 1024,
  sourceQuotaMessages: 500,
  appQuotaBytes: 64 * 1024 * 1024,
  appQuotaMessages: 5_000,
  mailboxQuotaBytes: 512 * 1024 * 1024,
  sendBufferBytes: 1024 * 1024,
})

const PROTOCOL_MAXIMA = [
  'maxFrameBytes',
  'maxMessageBytes',
  'maxSubscriptionsPerConnection',
  'mailboxPerTopic',
] as const

/** Defaults with overrides applied; throws on a value that is not a positive integer or above the protocol. */
export function resolveRelayLimits(overrides: Partial<RelayLimits> = {}): RelayLimits {
  const limits = { ...DEFAULT_RELAY_LIMITS, ...overrides }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`relay limit ${name} must be an integer >= 1, got ${value}`)
    }
  }
  for (const name of PROTOCOL_MAXIMA) {
    if (limits[name] > RELAY_LIMITS[name]) {
      throw new TypeError(`relay limit ${name} may not exceed the protocol's ${RELAY_LIMITS[name]}`)
    }
  }
  if (limits.maxMessageBytes >= limits.maxFrameBytes) {
    throw new TypeError('relay limit maxMessageBytes must be below maxFrameBytes')
  }
  return limits
}
