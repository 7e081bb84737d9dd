import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import * as z from 'zod/mini'
import { AppError, isAppError } from '../../errors/app-error'
import { createLogger } from '../../logging'
import {
  RELAY_CLOSE_CODES,
  RELAY_ERROR_CODES,
  RELAY_METHODS,
  RELAY_TOPIC_PATTERN,
  type RelayMessage,
  type RelayMethod,
} from '../../wire/relay'
import { relayTokenExpired } from '../relay-token'
import type { RelayTokenGrant } from '../types'
import { relayUrlProblem } from '../validate'
import { DEFAULT_RELAY_BACKOFF, type RelayBackoff, reconnectDelay } from './backoff'
import { WEBSOCKET_OPEN, type WebSocketConstructor, type WebSocketLike } from './websocket'

const log = /* @__PURE__ */ createLogger('relay')

/**
 * `connecting`: first connection; `online`: connected and every topic subscribed;
 * `reconnecting`: lost, retrying with backoff; `offline`: gave up (attempts exhausted, token
 * refused) or closed. `reconnect()` leaves `offline`.
 */
export type RelayStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'offline'

/** A change of the relay connection's status, as `onStatus` listeners get it. */
export interface RelayStatusChange {
  status: RelayStatus
  /** Why the client is reconnecting or offline. */
  error?: AppError
  /** The reconnect attempt about to run (reconnecting). */
  attempt?: number
}

/** Options of `createRelayClient`: relay URL, token source, WebSocket implementation, backoff and clock. */
export interface RelayClientOptions {
  /** `ws://` or `wss://` URL of the relay route; the token goes into its `token` query parameter. */
  relayUrl: string
  /** Fetches a new token grant (see `createRelayTokenSource`). */
  getToken: () => Promise<RelayTokenGrant>
  /** Default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor
  backoff?: Partial<RelayBackoff>
  /** `scr_ping` every this many ms while online (browsers cannot see WebSocket pings); 0: off. Default 25 000. */
  keepaliveMs?: number
  /** A relay request without an answer after this long fails (and a keepalive miss reconnects). Default 10 000. */
  requestTimeoutMs?: number
  now?: () => number
  /** Jitter only; default `Math.random`. */
  random?: () => number
}

/** Options of `RelayClient.publish`: the message tag and its TTL on the relay. */
export interface PublishOptions {
  /** Seconds the relay keeps the message (10..604800). */
  ttl: number
  /** An integer the relay stores with the message (message kind). */
  tag: number
}

/** A connection to the relay (`createRelayClient`): subscribe, publish, fetch the mailbox, follow the status; reconnects and resubscribes by itself. */
export interface RelayClient {
  readonly status: RelayStatus
  /** Fetches a token grant now unless the cached one is still good. */
  ensureToken(): Promise<void>
  /**
   * Connects (fetching a token if needed) and resolves once online. Rejects with `RELAY_ERROR` when
   * the client goes offline first, or with the token source's error when it is refused.
   */
  connect(): Promise<void>
  /** Subscribes (again after every reconnect); resolves once the relay confirmed it. */
  subscribe(topic: string): Promise<void>
  unsubscribe(topic: string): Promise<void>
  /**
   * Publishes; resolves once the relay stored it. While reconnecting the message waits and is sent
   * after the reconnect; rejects with `RELAY_ERROR` when offline or refused (`backendCode` names the
   * relay error, e.g. `MAILBOX_FULL`).
   */
  publish(topic: string, message: string, options: PublishOptions): Promise<void>
  /** Every message of a subscribed topic, once (duplicates and the client's own messages dropped). */
  onMessage(listener: (message: RelayMessage) => void): () => void
  onStatus(listener: (change: RelayStatusChange) => void): () => void
  /** From `offline` (or `reconnecting`): try again now, with a fresh attempt budget. */
  reconnect(): void
  /** Closes for good: pending work rejects with `ABORTED`; status `offline`. */
  close(): void
}

const RelayMessageSchema = /* @__PURE__ */ z.object({
  topic: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(RELAY_TOPIC_PATTERN)),
  message: /* @__PURE__ */ z.string(),
  messageId: /* @__PURE__ */ z.string(),
  publishedAt: /* @__PURE__ */ z.number(),
  tag: /* @__PURE__ */ z.int(),
})
const SubscriptionPushSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: /* @__PURE__ */ z.union([/* @__PURE__ */ z.int(), /* @__PURE__ */ z.string()]),
  method: /* @__PURE__ */ z.literal('scr_subscription' satisfies RelayMethod),
  params: /* @__PURE__ */ z.object({ id: /* @__PURE__ */ z.string(), data: RelayMessageSchema }),
})
const ResponseSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: /* @__PURE__ */ z.int(),
  result: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.unknown()),
  error: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.object({
      code: /* @__PURE__ */ z.int(),
      message: /* @__PURE__ */ z.string(),
    }),
  ),
})
const FetchResultSchema = /* @__PURE__ */ z.object({
  messages: /* @__PURE__ */ z.array(RelayMessageSchema),
  hasMore: /* @__PURE__ */ z.boolean(),
})

/** Each fetch of a topic's mailbox after a reconnect reads at most this many pages. */
const MAX_FETCH_PAGES = 10
/** Dedupe memory: message ids are kept at most this long (the longest relay TTL, 7 days)… */
const SEEN_MAX_AGE_MS = 604_800_000
/** …and at most this many (oldest forgotten first). */
const SEEN_MAX_ENTRIES = 10_000

/** `messageId` = hex SHA-256 of the message text (the base64 envelope). */
export function relayMessageId(message: string): string {
  return bytesToHex(sha256(utf8ToBytes(message)))
}

const ERROR_NAMES = /* @__PURE__ */ new Map<number, string>(
  /* @__PURE__ */ Object.entries(RELAY_ERROR_CODES).map(([name, code]) => [code, name]),
)

function relayError(message: string, options: { code?: number; cause?: unknown } = {}): AppError {
  const name = options.code === undefined ? undefined : ERROR_NAMES.get(options.code)
  return new AppError('RELAY_ERROR', message, {
    ...(name === undefined ? {} : { backendCode: name }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  })
}

/** A token refusal that retrying will not fix (4xx other than 408 and 429). */
function isPermanentTokenFailure(error: unknown): boolean {
  if (!isAppError(error)) return false
  if (error.code === 'INVALID_CONFIG') return true
  const status = error.status
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429
}

interface Pending {
  method: string
  resolve: (value: unknown) => void
  reject: (error: AppError) => void
  timer: ReturnType<typeof setTimeout>
}

interface QueuedPublish {
  params: { topic: string; message: string; ttl: number; tag: number }
  resolve: () => void
  reject: (error: AppError) => void
}

/**
 * The relay client (SPEC section 5): one WebSocket to the relay, JSON-RPC requests with timeouts,
 * acks for every push, duplicates dropped by `messageId`, the client's own messages dropped when
 * the mailbox hands them back; token refresh before expiry and on close 4001; reconnect with
 * exponential backoff and jitter, then resubscribe and `scr_fetchMessages` every topic, then send
 * what waited. No Node built-ins: pass `ws` as `WebSocket` in Node.
 *
 * @throws AppError `INVALID_CONFIG` for a bad relay URL, a missing token source, or no WebSocket.
 */
export function createRelayClient(options: RelayClientOptions): RelayClient {
  const urlProblem = relayUrlProblem(options.relayUrl)
  if (urlProblem !== null) {
    throw new AppError('INVALID_CONFIG', `Invalid relay URL: it ${urlProblem}.`)
  }
  if (typeof options.getToken !== 'function') {
    throw new AppError('INVALID_CONFIG', 'A relay client needs getToken (a token source).')
  }
  const Found: WebSocketConstructor | undefined =
    options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
  if (typeof Found !== 'function') {
    throw new AppError(
      'INVALID_CONFIG',
      'No WebSocket is available: pass one (in Node, the `ws` package).',
    )
  }
  const Socket: WebSocketConstructor = Found
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const backoff: RelayBackoff = { ...DEFAULT_RELAY_BACKOFF, ...options.backoff }
  const keepaliveMs = options.keepaliveMs ?? 25_000
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000

  let status: RelayStatus = 'idle'
  let grant: RelayTokenGrant | null = null
  let tokenRequest: Promise<RelayTokenGrant> | null = null
  let socket: WebSocketLike | null = null
  let opened = false
  let closedForGood = false
  let attempt = 0
  let nextId = 1
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  let keepaliveTimer: ReturnType<typeof setTimeout> | undefined

  const topics = new Map<string, string | null>() // topic → subscription id (null: not yet)
  const pending = new Map<number, Pending>()
  const outbox: QueuedPublish[] = []
  const seen = new Map<string, number>() // messageId → when first seen
  const messageListeners = new Set<(message: RelayMessage) => void>()
  const statusListeners = new Set<(change: RelayStatusChange) => void>()
  let onlineWaiters: Array<{ resolve: () => void; reject: (error: AppError) => void }> = []

  function setStatus(next: RelayStatus, extra: Omit<RelayStatusChange, 'status'> = {}): void {
    if (next === status && next !== 'reconnecting') return
    status = next
    const change = { status: next, ...extra }
    for (const listener of statusListeners) {
      try {
        listener(change)
      } catch (error) {
        log.warn('a relay status listener threw', error)
      }
    }
    if (next === 'online') {
      const waiters = onlineWaiters
      onlineWaiters = []
      for (const waiter of waiters) waiter.resolve()
    }
    if (next === 'offline') {
      const error = extra.error ?? relayError('The relay connection is closed.')
      const waiters = onlineWaiters
      onlineWaiters = []
      for (const waiter of waiters) waiter.reject(error)
      for (const queued of outbox.splice(0)) queued.reject(error)
    }
  }

  function remember(messageId: string): boolean {
    if (seen.has(messageId)) return false
    seen.set(messageId, now())
    if (seen.size > SEEN_MAX_ENTRIES) {
      const cutoff = now() - SEEN_MAX_AGE_MS
      for (const [id, at] of seen) {
        if (seen.size <= SEEN_MAX_ENTRIES && at >= cutoff) break
        seen.delete(id)
      }
    }
    return true
  }

  function deliver(data: RelayMessage): void {
    if (!topics.has(data.topic)) return
    if (!remember(relayMessageId(data.message))) return
    for (const listener of messageListeners) {
      try {
        listener(data)
      } catch (error) {
        log.warn('a relay message listener threw', error)
      }
    }
  }

  function sendFrame(frame: unknown): boolean {
    if (socket === null || socket.readyState !== WEBSOCKET_OPEN) return false
    try {
      socket.send(JSON.stringify(frame))
      return true
    } catch (error) {
      log.debug('relay send failed', error)
      return false
    }
  }

  function request<T>(method: string, params: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = nextId++
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(relayError(`The relay did not answer ${method} in time.`))
        if (method === RELAY_METHODS.ping) dropSocket('keepalive missed')
      }, requestTimeoutMs)
      pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject, timer })
      if (!sendFrame({ jsonrpc: '2.0', id, method, params })) {
        clearTimeout(timer)
        pending.delete(id)
        reject(relayError(`The relay is not connected (${method}).`))
      }
    })
  }

  function handleFrame(raw: unknown): void {
    if (typeof raw !== 'string') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      log.debug('relay sent a frame that is not JSON')
      return
    }
    const push = SubscriptionPushSchema.safeParse(value)
    if (push.success) {
      sendFrame({ jsonrpc: '2.0', id: push.data.id, result: true })
      deliver(push.data.params.data)
      return
    }
    const response = ResponseSchema.safeParse(value)
    if (!response.success) {
      log.debug('relay sent a frame of unknown shape')
      return
    }
    const entry = pending.get(response.data.id)
    if (entry === undefined) return
    pending.delete(response.data.id)
    clearTimeout(entry.timer)
    if (response.data.error !== undefined) {
      entry.reject(
        relayError(`The relay refused ${entry.method}: ${response.data.error.message}`, {
          code: response.data.error.code,
        }),
      )
    } else {
      entry.resolve(response.data.result)
    }
  }

  function clearTimers(): void {
    clearTimeout(reconnectTimer)
    clearTimeout(refreshTimer)
    clearTimeout(keepaliveTimer)
    reconnectTimer = refreshTimer = keepaliveTimer = undefined
  }

  /** Closes the socket and handles it as closed with `code` (a dead socket may never report it). */
  function dropSocket(reason: string, code = 1006): void {
    if (socket === null) return
    log.debug(`dropping the relay socket: ${reason}`)
    const current = socket
    try {
      current.close(1000, reason)
    } catch {
      // Already closing.
    }
    handleClose(current, code)
  }

  function failPending(error: AppError): void {
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer)
      pending.delete(id)
      entry.reject(error)
    }
  }

  function handleClose(closed: WebSocketLike, code: number): void {
    if (closed !== socket) return
    const wasOpen = opened
    socket = null
    opened = false
    clearTimers()
    for (const topic of topics.keys()) topics.set(topic, null)
    failPending(relayError('The relay connection closed.'))
    if (closedForGood) return
    if (code === RELAY_CLOSE_CODES.TOKEN_EXPIRED || !wasOpen) grant = null
    if (code === RELAY_CLOSE_CODES.TOKEN_EXPIRED && wasOpen) {
      // Expected once per token lifetime: reconnect at once with a fresh token.
      attempt = 0
      setStatus('reconnecting', { error: relayError('The relay token expired.'), attempt: 1 })
      void open()
      return
    }
    scheduleReconnect(relayError(`The relay connection closed (code ${code}).`))
  }

  function scheduleReconnect(error: AppError): void {
    attempt++
    if (attempt > backoff.maxAttempts) {
      setStatus('offline', { error })
      return
    }
    let delay = reconnectDelay(attempt, random(), backoff)
    if (error.backendCode === 'TRY_AGAIN_LATER') delay = Math.max(delay, 10_000)
    setStatus('reconnecting', { error, attempt })
    clearTimeout(reconnectTimer)
    reconnectTimer = setTimeout(() => void open(), delay)
  }

  async function fetchToken(): Promise<RelayTokenGrant> {
    tokenRequest ??= options.getToken().finally(() => {
      tokenRequest = null
    })
    const fresh = await tokenRequest
    grant = fresh
    return fresh
  }

  async function ensureToken(): Promise<void> {
    if (grant === null || relayTokenExpired(grant, now())) await fetchToken()
  }

  async function open(): Promise<void> {
    if (closedForGood || socket !== null) return
    if (status !== 'online' && status !== 'reconnecting') {
      setStatus(attempt === 0 && status !== 'offline' ? 'connecting' : 'reconnecting')
    }
    try {
      await ensureToken()
    } catch (error) {
      if (closedForGood) return
      if (isPermanentTokenFailure(error)) {
        setStatus('offline', { error: isAppError(error) ? error : relayError('Token refused.') })
      } else {
        scheduleReconnect(
          isAppError(error) ? error : relayError('No relay token.', { cause: error }),
        )
      }
      return
    }
    if (closedForGood || socket !== null || grant === null) return
    const separator = options.relayUrl.includes('?') ? '&' : '?'
    let created: WebSocketLike
    try {
      created = new Socket(
        `${options.relayUrl}${separator}token=${encodeURIComponent(grant.token)}`,
      )
    } catch (error) {
      scheduleReconnect(relayError('The relay WebSocket could not be created.', { cause: error }))
      return
    }
    socket = created
    created.onmessage = (event) => {
      if (created === socket) handleFrame(event.data)
    }
    created.onerror = () => {
      // Followed by a close event; nothing to do here.
    }
    created.onclose = (event) => handleClose(created, event.code)
    created.onopen = () => {
      if (created !== socket) return
      opened = true
      void settleConnection(created)
    }
  }

  function nextUnsubscribed(): string | undefined {
    for (const [topic, id] of topics) if (id === null) return topic
    return undefined
  }

  /** After the socket opened: resubscribe, fetch what waited, send what waited, then online. */
  async function settleConnection(current: WebSocketLike): Promise<void> {
    try {
      // Topics added while this runs (a proposal answered mid-reconnect) are subscribed too.
      for (let topic = nextUnsubscribed(); topic !== undefined; topic = nextUnsubscribed()) {
        const id = await request<string>(RELAY_METHODS.subscribe, { topic })
        if (topics.has(topic)) topics.set(topic, typeof id === 'string' ? id : String(id))
        await fetchMailbox(topic)
      }
    } catch (error) {
      if (current === socket) dropSocket(`resubscribe failed: ${(error as Error).message}`)
      return
    }
    if (current !== socket) return
    attempt = 0
    scheduleTokenRefresh()
    scheduleKeepalive()
    setStatus('online')
    for (const queued of outbox.splice(0)) sendPublish(queued)
  }

  async function fetchMailbox(topic: string): Promise<void> {
    for (let page = 0; page < MAX_FETCH_PAGES; page++) {
      const result = FetchResultSchema.safeParse(
        await request(RELAY_METHODS.fetchMessages, { topic }),
      )
      if (!result.success) return
      let fresh = 0
      for (const message of result.data.messages) {
        if (message.topic !== topic) continue
        const before = seen.size
        deliver(message)
        if (seen.size > before) fresh++
      }
      if (!result.data.hasMore || fresh === 0) return
    }
  }

  function scheduleTokenRefresh(): void {
    if (grant === null) return
    // Reconnect with a new token just before the relay would close with 4001.
    const wait = Math.max(1000, grant.expiresAt - 5000 - now())
    clearTimeout(refreshTimer)
    refreshTimer = setTimeout(() => {
      grant = null
      dropSocket('token refresh', RELAY_CLOSE_CODES.TOKEN_EXPIRED)
    }, wait)
  }

  function scheduleKeepalive(): void {
    if (keepaliveMs <= 0) return
    clearTimeout(keepaliveTimer)
    keepaliveTimer = setTimeout(() => {
      if (status !== 'online') return
      request(RELAY_METHODS.ping, {}).then(
        () => scheduleKeepalive(),
        () => undefined, // the timeout already dropped the socket
      )
    }, keepaliveMs)
  }

  function sendPublish(queued: QueuedPublish): void {
    request(RELAY_METHODS.publish, queued.params).then(
      () => queued.resolve(),
      (error: AppError) => {
        // Refused by the relay: final. Lost with the connection: send again after the reconnect
        // (the same message has the same messageId, so the peer drops a second copy).
        if (error.backendCode !== undefined) queued.reject(error)
        else if (status === 'offline' || closedForGood) queued.reject(error)
        else outbox.push(queued)
      },
    )
  }

  function waitOnline(): Promise<void> {
    if (status === 'online') return Promise.resolve()
    if (closedForGood) return Promise.reject(relayError('The relay client is closed.'))
    return new Promise((resolve, reject) => onlineWaiters.push({ resolve, reject }))
  }

  function checkTopic(topic: string): void {
    if (typeof topic !== 'string' || !RELAY_TOPIC_PATTERN.test(topic)) {
      throw new AppError('INVALID_CONFIG', 'A relay topic must be 64 lower-case hex digits.')
    }
  }

  async function connect(): Promise<void> {
    if (closedForGood) throw relayError('The relay client is closed.')
    if (status === 'offline') attempt = 0
    const online = waitOnline()
    void open()
    await online
  }

  return {
    get status() {
      return status
    },
    ensureToken,
    connect,
    async subscribe(topic) {
      checkTopic(topic)
      if (!topics.has(topic)) topics.set(topic, null)
      // Connecting subscribes every known topic before the client reports online.
      if (status !== 'online') await connect()
      if (!topics.has(topic) || topics.get(topic) !== null) return
      const id = await request<string>(RELAY_METHODS.subscribe, { topic })
      if (topics.has(topic)) topics.set(topic, typeof id === 'string' ? id : String(id))
    },
    async unsubscribe(topic) {
      const id = topics.get(topic)
      topics.delete(topic)
      if (id === undefined || id === null || status !== 'online') return
      await request(RELAY_METHODS.unsubscribe, { topic, id }).catch((error) =>
        log.debug('unsubscribe failed', error),
      )
    },
    publish(topic, message, { ttl, tag }) {
      checkTopic(topic)
      if (closedForGood || status === 'offline') {
        return Promise.reject(relayError('The relay is offline; the message was not sent.'))
      }
      remember(relayMessageId(message))
      return new Promise<void>((resolve, reject) => {
        const queued: QueuedPublish = { params: { topic, message, ttl, tag }, resolve, reject }
        if (status === 'online') sendPublish(queued)
        else {
          outbox.push(queued)
          // Connect on first use; a scheduled reconnect keeps its backoff.
          if (status === 'idle') void open()
        }
      })
    },
    onMessage(listener) {
      messageListeners.add(listener)
      return () => void messageListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => void statusListeners.delete(listener)
    },
    reconnect() {
      if (closedForGood || status === 'online' || status === 'connecting') return
      attempt = 0
      clearTimeout(reconnectTimer)
      if (socket === null) void open()
    },
    close() {
      if (closedForGood) return
      closedForGood = true
      clearTimers()
      const current = socket
      socket = null
      opened = false
      try {
        current?.close(1000, 'client closed')
      } catch {
        // Already closed.
      }
      const aborted = new AppError('ABORTED', 'The relay client was closed.')
      failPending(aborted)
      for (const queued of outbox.splice(0)) queued.reject(aborted)
      setStatus('offline', { error: aborted })
    },
  }
}
