/**
 * TEST DOUBLE of the WalletConnect relay (relay.walletconnect.org), which cannot be reached offline.
 * It speaks the relay's `irn` JSON-RPC over a loopback WebSocket, enough for `@walletconnect/core`
 * 2.25 (read from its relayer, subscriber and publisher, and sign-client's engine):
 *
 * - `irn_subscribe` `{ topic }` → a subscription id; then the topic's stored messages are handed to
 *   the new subscriber as `irn_subscription`. `irn_batchSubscribe` `{ topics }` → the ids.
 * - `irn_unsubscribe` `{ topic, id }` → `true`.
 * - `irn_publish` `{ topic, message, ttl, tag, prompt?, attestation? }` → `true`; the message is
 *   stored for `ttl` seconds, sent to every other subscriber (`irn_subscription`
 *   `{ id, data: { topic, message, publishedAt, tag, attestation } }`), and the sender is
 *   subscribed to the topic. `irn_batchPublish` `{ messages: [...] }` does each.
 * - `irn_batchFetchMessages` `{ topics }` → `{ messages, hasMore: false }` (messages not from the asker).
 * - `wc_proposeSession` `{ pairingTopic, sessionProposal }`: the dApp's proposal, published on the
 *   pairing topic (the wallet reads it when it subscribes after pairing).
 * - `wc_approveSession` `{ sessionTopic, pairingTopic, sessionProposalResponse,
 *   sessionSettlementRequest }`: the wallet's answer on the pairing topic and the settlement on the
 *   new session topic, the wallet subscribed to the session topic.
 * - The client acknowledges each `irn_subscription` with a result; those answers are ignored.
 *
 * A message is never sent back to the client that published it (the relay knows clients by the
 * `iss` of the `auth` JWT in the socket URL). Faults for tests: `dropConnections()` closes every
 * socket (the client reconnects), `silence` makes the double swallow publishes from then on (a relay
 * that accepts but never forwards), `close()` stops it. `requests` logs the methods received.
 */
import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'

interface Stored {
  topic: string
  message: string
  publishedAt: number
  expiresAt: number
  tag: number
  attestation?: string
  /** The client id that published it. */
  from: string
}

interface JsonRpcRequest {
  id: number | string
  jsonrpc: '2.0'
  method: string
  params?: Record<string, unknown>
}

/** A running relay double. */
export interface WalletConnectRelayDouble {
  /** `ws://127.0.0.1:<port>`, the `relayUrl` of both sides. */
  readonly url: string
  /** Every request method received, in order. */
  readonly requests: string[]
  /** Sockets currently open. */
  readonly connections: () => number
  /** Closes every client socket (code 1006-like termination); the clients reconnect. */
  dropConnections(): void
  /** When true, publishes are answered `true` but neither stored nor forwarded. */
  silence: boolean
  /** Resolves once a request with `method` has arrived (counting those already received). */
  waitFor(method: string, count?: number): Promise<void>
  /**
   * Resolves once a publish with `tag` arrives after this call (`SESSION_REQUEST_TAG`: a dApp's
   * request). Counting `irn_publish`es instead races the other side's late answers.
   */
  nextPublish(tag: number): Promise<void>
  close(): Promise<void>
}

/** The relay tag of `wc_sessionRequest` (the wallet's answer is 1109). */
export const SESSION_REQUEST_TAG = 1108

/** Starts the relay double on a free loopback port. */
export async function startWalletConnectRelayDouble(): Promise<WalletConnectRelayDouble> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const stored: Stored[] = []
  const subscribers = new Map<string, Set<WebSocket>>()
  const clientIds = new WeakMap<WebSocket, string>()
  const requests: string[] = []
  const waiters: { method: string; count: number; resolve: () => void }[] = []
  const publishWaiters: { tag: number; resolve: () => void }[] = []
  let nextId = 1

  function send(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload))
  }

  function subscriptionId(topic: string): string {
    return createHash('sha256').update(topic).digest('hex')
  }

  function deliver(socket: WebSocket, message: Stored): void {
    send(socket, {
      id: Date.now() * 1000 + (nextId++ % 1000),
      jsonrpc: '2.0',
      method: 'irn_subscription',
      params: {
        id: subscriptionId(message.topic),
        data: {
          topic: message.topic,
          message: message.message,
          publishedAt: message.publishedAt,
          tag: message.tag,
          ...(message.attestation ? { attestation: message.attestation } : {}),
        },
      },
    })
  }

  function live(topic: string): Stored[] {
    const now = Date.now()
    return stored.filter((m) => m.topic === topic && m.expiresAt > now)
  }

  function subscribe(socket: WebSocket, topic: string, handBack: boolean): string {
    let set = subscribers.get(topic)
    if (!set) {
      set = new Set()
      subscribers.set(topic, set)
    }
    const isNew = !set.has(socket)
    set.add(socket)
    if (handBack && isNew) {
      const self = clientIds.get(socket)
      // After the answer: the client registers the subscription when the result arrives.
      setTimeout(() => {
        for (const m of live(topic)) if (m.from !== self) deliver(socket, m)
      }, 0)
    }
    return subscriptionId(topic)
  }

  function publish(socket: WebSocket, params: Record<string, unknown>): void {
    const topic = String(params.topic)
    subscribe(socket, topic, false)
    if (api.silence) return
    const ttl = typeof params.ttl === 'number' ? params.ttl : 300
    const message: Stored = {
      topic,
      message: String(params.message),
      publishedAt: Date.now(),
      expiresAt: Date.now() + ttl * 1000,
      tag: typeof params.tag === 'number' ? params.tag : 0,
      from: clientIds.get(socket) ?? '',
      ...(typeof params.attestation === 'string' ? { attestation: params.attestation } : {}),
    }
    stored.push(message)
    for (const waiter of publishWaiters.filter((w) => w.tag === message.tag)) {
      publishWaiters.splice(publishWaiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    for (const peer of subscribers.get(topic) ?? []) {
      if (peer !== socket && clientIds.get(peer) !== message.from) deliver(peer, message)
    }
  }

  function answer(socket: WebSocket, request: JsonRpcRequest): unknown {
    const params = request.params ?? {}
    switch (request.method) {
      case 'irn_subscribe':
        return subscribe(socket, String(params.topic), true)
      case 'irn_batchSubscribe':
        return (params.topics as string[]).map((topic) => subscribe(socket, topic, true))
      case 'irn_unsubscribe':
        subscribers.get(String(params.topic))?.delete(socket)
        return true
      case 'irn_publish':
        publish(socket, params)
        return true
      case 'irn_batchPublish':
        for (const message of params.messages as Record<string, unknown>[]) publish(socket, message)
        return true
      case 'irn_batchFetchMessages': {
        const self = clientIds.get(socket)
        const messages = (params.topics as string[])
          .flatMap((topic) => live(topic))
          .filter((m) => m.from !== self)
          .map(({ topic, message, publishedAt, tag, attestation }) => ({
            topic,
            message,
            publishedAt,
            tag,
            ...(attestation ? { attestation } : {}),
          }))
        return { messages, hasMore: false }
      }
      case 'wc_proposeSession':
        publish(socket, { topic: params.pairingTopic, message: params.sessionProposal, tag: 1100 })
        return true
      case 'wc_approveSession':
        publish(socket, {
          topic: params.pairingTopic,
          message: params.sessionProposalResponse,
          tag: 1101,
        })
        subscribe(socket, String(params.sessionTopic), false)
        publish(socket, {
          topic: params.sessionTopic,
          message: params.sessionSettlementRequest,
          tag: 1102,
          ttl: 300,
        })
        return true
      default:
        throw Object.assign(new Error(`Unknown method ${request.method}`), { code: -32601 })
    }
  }

  server.on('connection', (socket, incoming) => {
    clientIds.set(socket, clientIdFromUrl(incoming.url ?? ''))
    socket.on('message', (data) => {
      let payload: JsonRpcRequest & { result?: unknown; error?: unknown }
      try {
        payload = JSON.parse(String(data))
      } catch {
        return
      }
      // The client's acknowledgements of irn_subscription.
      if (!payload.method) return
      requests.push(payload.method)
      for (const waiter of [...waiters]) {
        if (requests.filter((m) => m === waiter.method).length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1)
          waiter.resolve()
        }
      }
      try {
        send(socket, { id: payload.id, jsonrpc: '2.0', result: answer(socket, payload) })
      } catch (error) {
        const { code = -32000, message } = error as { code?: number; message: string }
        send(socket, { id: payload.id, jsonrpc: '2.0', error: { code, message } })
      }
    })
    socket.on('close', () => {
      for (const set of subscribers.values()) set.delete(socket)
    })
  })

  const api: WalletConnectRelayDouble = {
    url: `ws://127.0.0.1:${port}`,
    requests,
    connections: () => server.clients.size,
    silence: false,
    dropConnections() {
      for (const socket of server.clients) socket.terminate()
    },
    waitFor(method, count = 1) {
      if (requests.filter((m) => m === method).length >= count) return Promise.resolve()
      return new Promise((resolve) => waiters.push({ method, count, resolve }))
    },
    nextPublish(tag) {
      return new Promise((resolve) => publishWaiters.push({ tag, resolve }))
    },
    async close() {
      for (const socket of server.clients) socket.terminate()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return api
}

/** The `iss` (did:key of the client's ed25519 key) of the `auth` JWT in the socket URL. */
function clientIdFromUrl(url: string): string {
  const auth = new URL(url, 'ws://relay').searchParams.get('auth') ?? ''
  const payload = auth.split('.')[1]
  if (!payload) return ''
  try {
    const { iss } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      iss?: string
    }
    return iss ?? ''
  } catch {
    return ''
  }
}
