import { relayMessageId } from '../../relay/client'
import type { WebSocketLike } from '../../relay/client/websocket'
import { RELAY_ERROR_CODES, type RelayMessage } from '../../wire/relay'

/**
 * A TEST DOUBLE of the relay for the relay client's unit tests (fake timers need a relay that lives
 * in the same event loop without I/O). It answers exactly as SPEC section 5 documents: subscribe
 * (mailbox pushed at once), publish (stored, fanned out to other connections), fetchMessages, ping,
 * acks. The end-to-end tests use the real relay server instead.
 */
export interface RelayDouble {
  WebSocket: new (url: string) => WebSocketLike
  /** Every socket ever created, in order. */
  sockets: DoubleSocket[]
  /** Refuse new connections (they close with 1006 before opening). */
  refuse: boolean
  /** Stop answering `scr_ping` (a dead link that still looks open). */
  silentPings: boolean
  /** Answer publishes with this JSON-RPC error code instead of storing them. */
  publishError: number | null
  mailbox: Map<string, RelayMessage[]>
  /** Frames each socket sent, parsed. */
  frames: Array<{ socket: number; frame: Record<string, unknown> }>
  /** Server-side close of every open socket. */
  closeAll(code: number, reason?: string): void
  /** Pushes a message on a topic to every subscriber, as another client's publish would. */
  inject(topic: string, message: string): void
}

export interface DoubleSocket extends WebSocketLike {
  url: string
  index: number
  subscriptions: Map<string, string>
}

const tick = () => Promise.resolve()

/** A TEST DOUBLE of the relay as a `WebSocket` class speaking SPEC section 5 (see `RelayDouble`). */
export function createRelayDouble(): RelayDouble {
  const sockets: DoubleSocket[] = []
  const mailbox = new Map<string, RelayMessage[]>()
  const frames: RelayDouble['frames'] = []
  let pushId = 1_000_000
  let subscriptionId = 1

  const double: RelayDouble = {
    WebSocket: undefined as never,
    sockets,
    refuse: false,
    silentPings: false,
    publishError: null,
    mailbox,
    frames,
    closeAll(code, reason = '') {
      for (const socket of sockets) if (socket.readyState === 1) serverClose(socket, code, reason)
    },
    inject(topic, message) {
      store({ topic, message, ttl: 300, tag: 1 }, null)
    },
  }

  function serverClose(socket: DoubleSocket, code: number, reason: string) {
    ;(socket as { readyState: number }).readyState = 3
    void tick().then(() => socket.onclose?.({ code, reason }))
  }

  function push(socket: DoubleSocket, data: RelayMessage) {
    const id = socket.subscriptions.get(data.topic)
    if (id === undefined || socket.readyState !== 1) return
    const frame = { jsonrpc: '2.0', id: pushId++, method: 'scr_subscription', params: { id, data } }
    void tick().then(() => socket.onmessage?.({ data: JSON.stringify(frame) }))
  }

  function store(
    params: { topic: string; message: string; ttl: number; tag: number },
    from: DoubleSocket | null,
  ) {
    const data: RelayMessage = {
      topic: params.topic,
      message: params.message,
      messageId: relayMessageId(params.message),
      publishedAt: Date.now(),
      tag: params.tag,
    }
    const list = mailbox.get(params.topic) ?? []
    if (!list.some((m) => m.messageId === data.messageId)) list.push(data)
    mailbox.set(params.topic, list)
    for (const socket of sockets) if (socket !== from) push(socket, data)
  }

  class Socket implements DoubleSocket {
    readyState = 0
    onopen: WebSocketLike['onopen'] = null
    onmessage: WebSocketLike['onmessage'] = null
    onclose: WebSocketLike['onclose'] = null
    onerror: WebSocketLike['onerror'] = null
    index: number
    subscriptions = new Map<string, string>()

    constructor(readonly url: string) {
      this.index = sockets.length
      sockets.push(this)
      const refused = double.refuse
      void tick().then(() => {
        if (refused) {
          this.readyState = 3
          this.onerror?.({})
          this.onclose?.({ code: 1006, reason: '' })
          return
        }
        this.readyState = 1
        this.onopen?.({})
      })
    }

    send(data: string) {
      if (this.readyState !== 1) throw new Error('not open')
      const frame = JSON.parse(data) as Record<string, unknown>
      frames.push({ socket: this.index, frame })
      if (typeof frame.method !== 'string') return // an ack
      const id = frame.id
      const params = frame.params as Record<string, unknown>
      const answer = (body: Record<string, unknown>) =>
        void tick().then(() => {
          if (this.readyState === 1)
            this.onmessage?.({ data: JSON.stringify({ jsonrpc: '2.0', id, ...body }) })
        })
      switch (frame.method) {
        case 'scr_subscribe': {
          const sub = String(subscriptionId++)
          this.subscriptions.set(String(params.topic), sub)
          answer({ result: sub })
          for (const m of mailbox.get(String(params.topic)) ?? []) push(this, m)
          return
        }
        case 'scr_unsubscribe':
          this.subscriptions.delete(String(params.topic))
          return answer({ result: true })
        case 'scr_publish':
          if (double.publishError !== null) {
            return answer({ error: { code: double.publishError, message: 'refused' } })
          }
          store(params as never, this)
          return answer({ result: true })
        case 'scr_fetchMessages':
          return answer({
            result: { messages: mailbox.get(String(params.topic)) ?? [], hasMore: false },
          })
        case 'scr_ping':
          if (!double.silentPings) answer({ result: true })
          return
        default:
          return answer({
            error: { code: RELAY_ERROR_CODES.METHOD_NOT_FOUND, message: 'method not found' },
          })
      }
    }

    close(code = 1000, reason = '') {
      if (this.readyState === 3) return
      this.readyState = 3
      void tick().then(() => this.onclose?.({ code, reason }))
    }
  }

  double.WebSocket = Socket
  return double
}
