/**
 * The relay protocol "scr" (SPEC section 5): JSON-RPC 2.0 text frames over a WebSocket at
 * `GET /api/v1/connect/relay?token=…`. Method names, numeric error codes, close codes and limits live
 * here once; the relay server and the library's relay client both import them.
 */

/** JSON-RPC methods. `subscription` is the server's push; the client answers it with `true` (ack). */
export const RELAY_METHODS = {
  subscribe: 'scr_subscribe',
  unsubscribe: 'scr_unsubscribe',
  publish: 'scr_publish',
  fetchMessages: 'scr_fetchMessages',
  ping: 'scr_ping',
  subscription: 'scr_subscription',
} as const
/** A relay JSON-RPC method name (`scr_subscribe`, `scr_publish`, …). */
export type RelayMethod = (typeof RELAY_METHODS)[keyof typeof RELAY_METHODS]

/**
 * JSON-RPC error codes the relay answers with. The -326xx codes are JSON-RPC's own; the -320xx
 * codes are the relay's (JSON-RPC reserves -32000..-32099 for the server). Stable: clients branch
 * on them.
 */
export const RELAY_ERROR_CODES = {
  /** The frame is not JSON (or not a text frame). The socket stays open. */
  PARSE_ERROR: -32700,
  /** JSON, but not a JSON-RPC 2.0 request (no integer id, no method…). */
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  /** Bad topic (not 64 lower-case hex), ttl out of 10..604800, tag not an integer, bad base64… */
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** The message (base64 envelope) is over `RELAY_LIMITS.maxMessageBytes`. */
  MESSAGE_TOO_LARGE: -32001,
  /** The topic's mailbox holds `RELAY_LIMITS.mailboxPerTopic` live messages already. */
  MAILBOX_FULL: -32002,
  /** The connection holds `RELAY_LIMITS.maxSubscriptionsPerConnection` subscriptions already. */
  TOO_MANY_SUBSCRIPTIONS: -32003,
  /** `scr_unsubscribe` with an id this connection does not hold for that topic. */
  UNKNOWN_SUBSCRIPTION: -32004,
  /** The shared store (Redis) does not answer; retry later. */
  STORE_UNAVAILABLE: -32005,
  /**
   * A storage quota is used up (the app key's bytes or messages, or the whole mailbox's bytes);
   * nothing was stored. Retry after some messages expire.
   */
  QUOTA_EXCEEDED: -32006,
} as const
/** A relay JSON-RPC error code (the numbers of `RELAY_ERROR_CODES`). */
export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[keyof typeof RELAY_ERROR_CODES]

/** WebSocket close codes the relay uses. */
export const RELAY_CLOSE_CODES = {
  /** Server shutdown (or restart): reconnect with backoff. */
  GOING_AWAY: 1001,
  /** A frame over `RELAY_LIMITS.maxFrameBytes`. */
  MESSAGE_TOO_BIG: 1009,
  /**
   * Too many publishes or requests in the connection's minute, or the client reads too slowly
   * (its send buffer passed the ceiling): reconnect later, then fetch.
   */
  TRY_AGAIN_LATER: 1013,
  /** The relay token expired on an open socket: refresh the grant, then reconnect. */
  TOKEN_EXPIRED: 4001,
} as const

/**
 * Limits of SPEC section 5 (defaults; the server may be configured lower, never higher, except
 * `publishesPerMinute`, a rate policy an operator may raise: clients must not count on more).
 * Numbers are written as literals: bundlers drop an unused object of literals, not one with arithmetic.
 */
export const RELAY_LIMITS = {
  maxFrameBytes: 131_072, // 128 KiB
  maxMessageBytes: 98_304, // 96 KiB
  maxSubscriptionsPerConnection: 500,
  publishesPerMinute: 900,
  mailboxPerTopic: 100,
  minTtlSeconds: 10,
  maxTtlSeconds: 604_800,
} as const

/** Default TTLs (seconds), after WalletConnect v2. */
export const RELAY_TTL_SECONDS = {
  proposal: 300,
  settle: 300,
  request: 300,
  pairingUnused: 300,
  pairingUsed: 2_592_000, // 30 days
  session: 604_800, // 7 days
} as const

/** Heartbeat: a WebSocket ping every 30 s; a connection that missed the previous pong is terminated. */
export const RELAY_HEARTBEAT_MS = 30_000

/** 64 lower-case hex digits: pairing topics and session topics. */
export const RELAY_TOPIC_PATTERN = /^[0-9a-f]{64}$/

/**
 * One stored or pushed message. `messageId` = hex SHA-256 of `message` taken as it travels (the
 * UTF-8 bytes of the base64 text, not the decoded envelope).
 */
export interface RelayMessage {
  topic: string
  /** base64 envelope (type byte 0, 12-byte nonce, ChaCha20-Poly1305 ciphertext + tag). */
  message: string
  messageId: string
  /** ms epoch, on the clock of the instance that took the publish. */
  publishedAt: number
  tag: number
}

/** The params of `scr_publish`: topic, message, TTL in seconds and tag. */
export interface RelayPublishParams {
  topic: string
  message: string
  ttl: number
  tag: number
}

/** The answer of `scr_fetchMessages`: the stored messages and whether more wait. */
export interface RelayFetchResult {
  messages: RelayMessage[]
  hasMore: boolean
}

/** The params of a `scr_subscription` push. */
export interface RelaySubscriptionParams {
  id: string
  data: RelayMessage
}
