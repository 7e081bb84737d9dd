import { fromCallback, fromPromise } from 'xstate'
import { createLogger } from '../../src/logging'
import { relayError } from '../../src/relay/client/errors'
import { parseRelayFrame } from '../../src/relay/client/frames'
import type { RelayRequests } from '../../src/relay/client/requests'
import type { RelaySubscriber } from '../../src/relay/client/subscriber'
import type { RelayTokenCache } from '../../src/relay/client/token-cache'
import type { WebSocketConstructor, WebSocketLike } from '../../src/relay/client/websocket'
import { RELAY_METHODS } from '../../src/wire/relay'
import type {
  ActorTime,
  ConnectionRef,
  FetchTokenInput,
  RelayConnectionEvent,
  TokenOutput,
} from './relay-connection.types'

const log = /* @__PURE__ */ createLogger('relay')

/** What the relay connection's actors work with; the relay client builds it. */
export interface RelayConnectionEnvironment {
  /** `ws(s)://…/api/v1/connect/relay`; the token goes into its `token` query parameter. */
  relayUrl: string
  WebSocket: WebSocketConstructor
  tokens: RelayTokenCache
  requests: RelayRequests
  subscriber: RelaySubscriber
  now: () => number
}

type SocketReport = Extract<RelayConnectionEvent, { type: 'SOCKET.OPEN' | 'SOCKET.CLOSED' }>

/**
 * The relay connection's I/O: the token source, the WebSocket (one `socket` actor per socket,
 * closed when the chart stops it), the resubscription and the keepalive ping. Every promise actor
 * reports when it finished (`at`, from the injected clock). One environment, or one per
 * connection (a function of the `connectionId`, as the `Client`'s pairings do).
 */
export function createRelayConnectionActors(
  environment: RelayConnectionEnvironment | ((connectionId: string) => RelayConnectionEnvironment),
) {
  const envOf = (connectionId: string) =>
    typeof environment === 'function' ? environment(connectionId) : environment

  function receive({ requests, subscriber }: RelayConnectionEnvironment, raw: unknown): void {
    const frame = parseRelayFrame(raw)
    if (frame === null) {
      log.debug('relay sent a frame that is not JSON of a known shape')
      return
    }
    if (frame.kind === 'response') {
      requests.answer(frame.response)
      return
    }
    requests.notify({ jsonrpc: '2.0', id: frame.id, result: true })
    subscriber.deliver(frame.data)
  }

  /** The socket is gone: requests in flight fail, every topic needs subscribing again. */
  function lost({ requests, subscriber }: RelayConnectionEnvironment): void {
    requests.detach(relayError('The relay connection closed.'))
    subscriber.reset()
  }

  return {
    fetchToken: fromPromise<TokenOutput, FetchTokenInput>(async ({ input }) => {
      const env = envOf(input.connectionId)
      const grant = await env.tokens.ensure(input.stale)
      return { expiresAt: grant.expiresAt, at: env.now() }
    }),

    socket: fromCallback<{ type: string }, ConnectionRef>(({ input, sendBack }) => {
      const env = envOf(input.connectionId)
      const report = (event: SocketReport) => sendBack(event)
      let live = true
      let socket: WebSocketLike
      try {
        const grant = env.tokens.current()
        if (grant === null) throw new Error('no token')
        const separator = env.relayUrl.includes('?') ? '&' : '?'
        socket = new env.WebSocket(
          `${env.relayUrl}${separator}token=${encodeURIComponent(grant.token)}`,
        )
      } catch (error) {
        log.debug('the relay WebSocket could not be created', error)
        report({ type: 'SOCKET.CLOSED', code: 1006 })
        return () => undefined
      }
      socket.onmessage = (event) => {
        if (live) receive(env, event.data)
      }
      socket.onerror = () => {
        // Followed by a close event; nothing to do here.
      }
      socket.onclose = (event) => {
        if (!live) return
        live = false
        lost(env)
        report({ type: 'SOCKET.CLOSED', code: event.code })
      }
      socket.onopen = () => {
        if (!live) return
        env.requests.attach((frame) => socket.send(frame))
        report({ type: 'SOCKET.OPEN' })
      }
      return () => {
        if (!live) return
        live = false
        try {
          socket.close(1000, 'client closed the socket')
        } catch {
          // Already closing.
        }
        lost(env)
      }
    }),

    settle: fromPromise<ActorTime, ConnectionRef>(async ({ input }) => {
      const env = envOf(input.connectionId)
      await env.subscriber.resubscribeAll()
      return { at: env.now() }
    }),

    ping: fromPromise<ActorTime, ConnectionRef>(async ({ input }) => {
      const env = envOf(input.connectionId)
      await env.requests.request(RELAY_METHODS.ping, {}, { timeoutMs: null })
      return { at: env.now() }
    }),
  }
}
