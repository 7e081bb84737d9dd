import { type ActorRefFrom, createActor } from 'xstate'
import {
  createRelayConnectionActors,
  type RelayConnectionEnvironment,
} from '../../../machines/relay-connection/relay-connection.actors'
import {
  type RelayConnectionMachine,
  relayConnectionMachine,
} from '../../../machines/relay-connection/relay-connection.machine'
import type { RelayConnectionEvent } from '../../../machines/relay-connection/relay-connection.types'
import {
  type RelayConnectionView,
  toRelayConnectionView,
} from '../../../machines/relay-connection/relay-connection.view'
import { toAppError } from '../../../machines/shared/error-data'
import { AppError } from '../../errors/app-error'
import { invalidArgument, requireObject } from '../../errors/arguments'
import { createLogger } from '../../logging'
import { RELAY_TOPIC_PATTERN, type RelayMessage } from '../../wire/relay'
import { jitteredBackoff, type RelayBackoff } from '../client/backoff'
import { createMessageDedupe, relayMessageId } from '../client/dedupe'
import { relayError } from '../client/errors'
import { createRelayPublisher } from '../client/publisher'
import { createRelayRequests } from '../client/requests'
import { relayConnectionSettings } from '../client/settings'
import type { RelayStatus, RelayStatusChange } from '../client/status'
import { createRelaySubscriber } from '../client/subscriber'
import { createRelayTokenCache } from '../client/token-cache'
import type { WebSocketConstructor } from '../client/websocket'
import type { RelayTokenGrant } from '../types'
import { relayUrlProblem } from '../validate'

export { relayMessageId } from '../client/dedupe'
export type { RelayStatus, RelayStatusChange } from '../client/status'

const log = /* @__PURE__ */ createLogger('relay')

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

/** Options of `RelayClient.publish`: the message tag, its TTL on the relay, and a signal to give it up. */
export interface PublishOptions {
  /** Seconds the relay keeps the message (10..604800). */
  ttl: number
  /** An integer the relay stores with the message (message kind). */
  tag: number
  /**
   * Gives the message up: one still waiting for the connection is dropped, and the publish rejects
   * `ABORTED` (a message already sent is not recalled).
   */
  signal?: AbortSignal
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

function checkTopic(topic: string): void {
  if (typeof topic !== 'string' || !RELAY_TOPIC_PATTERN.test(topic)) {
    throw new AppError('INVALID_CONFIG', 'A relay topic must be 64 lower-case hex digits.')
  }
}

/** A running `relayConnection` machine (the client's own, or a pairing's child). */
export type RelayConnectionRef = ActorRefFrom<RelayConnectionMachine>

/** How a relay client reaches the connection actor it follows. */
interface ConnectionPort {
  view(): RelayConnectionView
  send(event: RelayConnectionEvent): void
  /** Every change of the connection, and its end (stopped by its host, or closed). */
  follow(observer: { change(): void; end(): void }): void
}

const IDLE: RelayConnectionView = { status: 'idle', closed: false }

/** The connection the client starts and owns. */
function ownPort(actor: RelayConnectionRef): ConnectionPort {
  return {
    view: () => toRelayConnectionView(actor.getSnapshot()),
    send: (event) => actor.send(event),
    follow({ change, end }) {
      actor.subscribe({
        next: change,
        complete: end,
        error: (error) => {
          log.warn('the relay connection stopped on an error', error)
          end()
        },
      })
    },
  }
}

/**
 * A connection another actor hosts (the pairing invokes it as its `relayConnection` child), found
 * through `locate` when the client first needs it: idle until then, ended when its host stops it.
 */
function hostedPort(locate: () => RelayConnectionRef | undefined): ConnectionPort {
  let actor: RelayConnectionRef | undefined
  let observer: { change(): void; end(): void } | undefined
  const current = () => {
    if (actor !== undefined) return actor
    actor = locate()
    if (actor !== undefined && observer !== undefined) {
      const { change, end } = observer
      actor.subscribe({ next: change, complete: end, error: end })
    }
    return actor
  }
  return {
    view: () => {
      const found = current()
      return found === undefined ? IDLE : toRelayConnectionView(found.getSnapshot())
    },
    send: (event) => current()?.send(event),
    follow(next) {
      observer = next
    },
  }
}

/** The parts of a relay client around its connection: requests, topics, publishes, tokens. */
function relayParts(options: RelayClientOptions) {
  requireObject(options, 'options')
  for (const name of ['now', 'random'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw invalidArgument(`options.${name}`, 'must be a function')
    }
  }
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
  const now = options.now ?? Date.now
  const requests = createRelayRequests({ timeoutMs: options.requestTimeoutMs ?? 10_000 })
  const dedupe = createMessageDedupe(now)
  const subscriber = createRelaySubscriber({ requests, dedupe })
  const tokens = createRelayTokenCache(options.getToken, now)
  const environment: RelayConnectionEnvironment = {
    relayUrl: options.relayUrl,
    WebSocket: Found,
    tokens,
    requests,
    subscriber,
    now,
  }
  return { environment, dedupe, random: options.random ?? Math.random }
}

/**
 * The relay client (SPEC section 5): a thin face over a running `relayConnection` machine, whose
 * chart owns the status, the reconnect backoff, the keepalive and the token refresh, and whose
 * `socket` actor owns the WebSocket. Around it: JSON-RPC requests with timeouts (`requests`), the
 * topics and their delivery (`subscriber`, duplicates dropped by `messageId` in `dedupe`), and the
 * publishes that wait for the connection (`publisher`). No Node built-ins: pass `ws` as
 * `WebSocket` in Node.
 *
 * @throws AppError `INVALID_CONFIG` for options that are not an object, a bad relay URL, a missing
 * token source, no WebSocket, or `now`/`random` that are not functions.
 */
export function createRelayClient(options: RelayClientOptions): RelayClient {
  const parts = relayParts(options)
  const actor = createActor(
    relayConnectionMachine.provide({
      actors: createRelayConnectionActors(parts.environment),
      delays: { reconnectBackoff: jitteredBackoff(parts.random) },
    }),
    { input: { ...relayConnectionSettings(options), startedAt: parts.environment.now() } },
  )
  const client = buildRelayClient(parts, ownPort(actor))
  actor.start()
  return client
}

/**
 * A relay client whose connection another actor hosts: the pairing machine invokes the
 * `relayConnection` chart as its child (provided with `environment`), and the client follows the
 * child `locate` finds once it needs it; when the host stops the child, the client is closed and
 * `onEnd` runs.
 *
 * @throws AppError `INVALID_CONFIG` as `createRelayClient`.
 */
export function createHostedRelayClient(
  options: RelayClientOptions,
  host: { locate: () => RelayConnectionRef | undefined; onEnd?: () => void },
): { client: RelayClient; environment: RelayConnectionEnvironment; random: () => number } {
  const parts = relayParts(options)
  const client = buildRelayClient(parts, hostedPort(host.locate), host.onEnd)
  return { client, environment: parts.environment, random: parts.random }
}

function buildRelayClient(
  parts: ReturnType<typeof relayParts>,
  port: ConnectionPort,
  onEnd?: () => void,
): RelayClient {
  const { environment, dedupe } = parts
  const { requests, subscriber, tokens } = environment
  const view = port.view
  const publisher = createRelayPublisher({
    requests,
    reconnecting: () => ['connecting', 'reconnecting'].includes(view().status),
  })
  const statusListeners = new Set<(change: RelayStatusChange) => void>()
  const errorOf = (next: RelayConnectionView) =>
    next.error ? toAppError(next.error) : relayError('The relay connection is closed.')

  const announce = (change: RelayStatusChange) => {
    for (const listener of statusListeners) {
      try {
        listener(change)
      } catch (error) {
        log.warn('a relay status listener threw', error)
      }
    }
  }
  let last = view()
  let ended = false
  port.follow({
    change() {
      const next = view()
      if (next.status === last.status && next.attempt === last.attempt) return
      last = next
      announce({
        status: next.status,
        ...(next.error ? { error: toAppError(next.error) } : {}),
        ...(next.attempt === undefined ? {} : { attempt: next.attempt }),
      })
      if (next.status === 'online') publisher.flush()
      if (next.status === 'offline') publisher.rejectAll(errorOf(next))
    },
    end() {
      if (ended) return
      ended = true
      const aborted = new AppError('ABORTED', 'The relay connection was stopped.')
      requests.detach(aborted)
      publisher.rejectAll(aborted)
      if (last.status !== 'offline') {
        last = { status: 'offline', closed: true }
        announce({ status: 'offline', error: aborted })
      }
      onEnd?.()
    },
  })

  /** Resolves at the next `online`, rejects at the next `offline` (with its error). */
  function whenOnline(): Promise<void> {
    return new Promise((resolve, reject) => {
      const listener = (change: RelayStatusChange) => {
        if (change.status !== 'online' && change.status !== 'offline') return
        statusListeners.delete(listener)
        if (change.status === 'online') resolve()
        else reject(change.error ?? relayError('The relay connection is closed.'))
      }
      statusListeners.add(listener)
    })
  }

  function connect(): Promise<void> {
    const current = view()
    if (current.closed || ended) return Promise.reject(relayError('The relay client is closed.'))
    if (current.status === 'online') return Promise.resolve()
    const online = whenOnline()
    port.send({ type: 'CONNECT' })
    return online
  }

  return {
    get status() {
      return view().status
    },
    async ensureToken() {
      await tokens.ensure()
    },
    connect,
    async subscribe(topic) {
      checkTopic(topic)
      subscriber.add(topic)
      // Connecting subscribes every known topic before the client reports online.
      if (view().status !== 'online') await connect()
      await subscriber.subscribe(topic)
    },
    unsubscribe(topic) {
      return subscriber.remove(topic, view().status === 'online')
    },
    publish(topic, message, { ttl, tag, signal }) {
      checkTopic(topic)
      const { status } = view()
      if (status === 'offline') {
        return Promise.reject(relayError('The relay is offline; the message was not sent.'))
      }
      dedupe.remember(relayMessageId(message))
      const published = publisher.publish({ topic, message, ttl, tag }, status === 'online', signal)
      // Connect on first use; a scheduled reconnect keeps its backoff.
      if (status === 'idle') port.send({ type: 'CONNECT' })
      return published
    },
    onMessage: (listener) => subscriber.onMessage(listener),
    onStatus(listener) {
      statusListeners.add(listener)
      return () => void statusListeners.delete(listener)
    },
    reconnect() {
      if (!view().closed) port.send({ type: 'RECONNECT' })
    },
    close() {
      if (view().closed) return
      const aborted = new AppError('ABORTED', 'The relay client was closed.')
      requests.detach(aborted)
      publisher.rejectAll(aborted)
      port.send({ type: 'CLOSE' })
    },
  }
}
