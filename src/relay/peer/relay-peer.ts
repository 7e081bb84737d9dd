import { AppError } from '../../errors/app-error'
import { createLogger } from '../../logging'
import type { RelayMessage } from '../../wire/relay'
import { openEnvelope, sealEnvelope } from '../crypto/envelope'
import type { RelayClient } from '../face/relay-client'
import {
  type JsonRpcError,
  type JsonRpcRequest,
  parseJsonRpc,
  payloadId,
} from '../protocol/json-rpc'
import { SESSION_METHODS } from '../protocol/methods'
import { createReplayGuard, REPLAY_WINDOW_MS } from '../protocol/replay-guard'
import type { RelayKeyring } from './keyring'
import { tagOf, ttlOf } from './message-tags'
import { appErrorOfResponse } from './response-error'

const log = /* @__PURE__ */ createLogger('relay-peer')

/** A request that arrived on a topic, decrypted, validated as JSON-RPC and not a replay. */
export interface IncomingRequest {
  topic: string
  id: number
  method: string
  params: unknown
}

export interface PeerRequestOptions {
  /** Seconds the relay keeps the request; default by method (5 min for proposals and requests). */
  ttl?: number
  /** Reject with `TIMEOUT` when no answer came in this long. Default: the ttl. */
  timeoutMs?: number
  /** Reuse an id (a proposal published again after a restore is the same proposal). */
  id?: number
  /** What the request is, for error messages (`the proposal`, `personal_sign`). */
  what?: string
  /** Stops waiting (rejects with `ABORTED`); an answer that comes after is dropped. */
  signal?: AbortSignal
}

export interface RelayPeer {
  /** Keeps `symKey` for `topic` in the keyring and subscribes to the topic. */
  listen(topic: string, symKey: Uint8Array): Promise<void>
  /** Unsubscribes and forgets the topic's key; its pending requests reject with `ABORTED`. */
  forget(topic: string): Promise<void>
  /** A new request id (ms × 1000 + random digits), unique for this peer. */
  nextId(): number
  /**
   * Sends a request and resolves with the peer's result. Rejects with `USER_REJECTED`,
   * `SESSION_EXPIRED` or `WALLET_ERROR` for an error answer, `TIMEOUT` without one, `RELAY_ERROR`
   * when it could not be published, `ABORTED` when the topic is forgotten.
   */
  request<T = unknown>(
    topic: string,
    method: string,
    params: unknown,
    options?: PeerRequestOptions,
  ): Promise<T>
  /** Publishes a request without waiting for its answer (a delete: the peer may be gone). */
  notify(topic: string, method: string, params: unknown): Promise<void>
  /** Answers a request with a result or an error. */
  respond(
    request: IncomingRequest,
    answer: { result: unknown } | { error: JsonRpcError },
  ): Promise<void>
  /** Every fresh request on any known topic (pings are answered here and not passed on). */
  onRequest(handler: (request: IncomingRequest) => void): () => void
  /** Messages dropped for a reason the user may care about: each as a `RELAY_ERROR`. */
  onError(listener: (error: AppError, topic: string) => void): () => void
  /** Stops listening to the relay (does not close it). */
  detach(): void
}

export interface RelayPeerOptions {
  relay: RelayClient
  keyring: RelayKeyring
  now?: () => number
  random?: () => number
  replayWindowMs?: number
}

interface Waiting {
  topic: string
  what: string
  resolve: (value: unknown) => void
  reject: (error: AppError) => void
  timer: ReturnType<typeof setTimeout>
}

function droppedError(reason: string, field = 'message'): AppError {
  return new AppError('RELAY_ERROR', 'A relay message was dropped.', {
    details: [{ field, reason }],
  })
}

/**
 * One side of the session protocol over a relay client: seals and opens envelopes with the
 * keyring's keys, sends JSON-RPC requests and matches their answers, and drops what must not be
 * acted on — envelopes that do not open (tampered, wrong key), payloads that are not JSON-RPC,
 * requests whose id is outside the replay window or was seen before on the topic, answers to
 * nothing it asked. Each drop is reported through `onError` as a `RELAY_ERROR`, never thrown.
 */
export function createRelayPeer(options: RelayPeerOptions): RelayPeer {
  const { relay, keyring } = options
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const guard = createReplayGuard(options.replayWindowMs ?? REPLAY_WINDOW_MS)
  const waiting = new Map<number, Waiting>()
  const requestHandlers = new Set<(request: IncomingRequest) => void>()
  const errorListeners = new Set<(error: AppError, topic: string) => void>()
  let lastId = 0

  function report(error: AppError, topic: string): void {
    log.debug(`dropped a message: ${error.details?.[0]?.reason ?? error.shortMessage}`)
    for (const listener of errorListeners) {
      try {
        listener(error, topic)
      } catch (thrown) {
        log.warn('a relay error listener threw', thrown)
      }
    }
  }

  async function publish(topic: string, payload: object, method: string, answer: boolean) {
    const key = keyring.get(topic)
    if (key === undefined) {
      throw new AppError('RELAY_ERROR', 'No key is known for this topic (session ended?).')
    }
    const message = sealEnvelope(key, topic, JSON.stringify(payload))
    await relay.publish(topic, message, {
      ttl: ttlOf(method),
      tag: tagOf(method) + (answer ? 1 : 0),
    })
  }

  function handleRequest(topic: string, request: JsonRpcRequest): void {
    const verdict = guard.check(topic, request.id, now())
    if (verdict !== 'fresh') {
      report(
        droppedError(
          verdict === 'replayed'
            ? 'replays a request id already seen on this topic'
            : 'carries a request id outside the replay window (too old or from the future)',
          'id',
        ),
        topic,
      )
      return
    }
    const incoming: IncomingRequest = {
      topic,
      id: request.id,
      method: request.method,
      params: request.params,
    }
    if (request.method === SESSION_METHODS.ping) {
      respond(incoming, { result: true }).catch((error) => log.debug('ping answer failed', error))
      return
    }
    for (const handler of requestHandlers) {
      try {
        handler(incoming)
      } catch (error) {
        log.warn('a relay request handler threw', error)
      }
    }
  }

  function handleMessage(message: RelayMessage): void {
    const key = keyring.get(message.topic)
    if (key === undefined) return
    let text: string
    try {
      text = openEnvelope(key, message.topic, message.message)
    } catch (error) {
      report(error instanceof AppError ? error : droppedError('could not be opened'), message.topic)
      return
    }
    const parsed = parseJsonRpc(text)
    if (parsed === null) {
      report(droppedError('is not a JSON-RPC 2.0 request or answer'), message.topic)
      return
    }
    if (parsed.kind === 'request') {
      handleRequest(message.topic, parsed.message)
      return
    }
    const entry = waiting.get(parsed.message.id)
    // An answer to nothing this side asked (its own answer handed back, a late duplicate, one
    // to a request given up): ignore.
    if (entry === undefined || entry.topic !== message.topic) {
      log.debug('dropped an answer to no request waiting (given up or answered before)')
      return
    }
    waiting.delete(parsed.message.id)
    clearTimeout(entry.timer)
    if ('error' in parsed.message)
      entry.reject(appErrorOfResponse(parsed.message.error, entry.what))
    else entry.resolve(parsed.message.result)
  }

  const stopMessages = relay.onMessage(handleMessage)

  function nextId(): number {
    const id = Math.max(payloadId(now(), random()), lastId + 1)
    lastId = id
    return id
  }

  function respond(
    request: IncomingRequest,
    answer: { result: unknown } | { error: JsonRpcError },
  ): Promise<void> {
    return publish(
      request.topic,
      { jsonrpc: '2.0', id: request.id, ...answer },
      request.method,
      true,
    )
  }

  return {
    async listen(topic, symKey) {
      keyring.set(topic, symKey)
      await relay.subscribe(topic)
    },
    async forget(topic) {
      keyring.delete(topic)
      for (const [id, entry] of waiting) {
        if (entry.topic !== topic) continue
        waiting.delete(id)
        clearTimeout(entry.timer)
        entry.reject(new AppError('ABORTED', `${entry.what} was abandoned: the session ended.`))
      }
      await relay.unsubscribe(topic)
    },
    nextId,
    request<T>(topic: string, method: string, params: unknown, opts: PeerRequestOptions = {}) {
      const id = opts.id ?? nextId()
      const ttl = opts.ttl ?? ttlOf(method)
      const what = opts.what ?? method
      return new Promise<T>((resolve, reject) => {
        const previous = waiting.get(id)
        if (previous) clearTimeout(previous.timer)
        const timer = setTimeout(
          () => {
            waiting.delete(id)
            reject(new AppError('TIMEOUT', `The wallet did not answer ${what} in time.`))
          },
          opts.timeoutMs ?? ttl * 1000,
        )
        waiting.set(id, {
          topic,
          what,
          resolve: resolve as (value: unknown) => void,
          reject,
          timer,
        })
        const body = { jsonrpc: '2.0', id, method, params }
        const key = keyring.get(topic)
        if (key === undefined) {
          waiting.delete(id)
          clearTimeout(timer)
          reject(new AppError('RELAY_ERROR', 'No key is known for this topic (session ended?).'))
          return
        }
        opts.signal?.addEventListener(
          'abort',
          () => {
            if (waiting.get(id)?.timer !== timer) return
            waiting.delete(id)
            clearTimeout(timer)
            reject(new AppError('ABORTED', `${what} was given up.`))
          },
          { once: true },
        )
        relay
          .publish(topic, sealEnvelope(key, topic, JSON.stringify(body)), {
            ttl,
            tag: tagOf(method),
            // Given up while the relay is away: the wallet is never asked.
            ...(opts.signal ? { signal: opts.signal } : {}),
          })
          .catch((error: AppError) => {
            if (waiting.get(id)?.timer !== timer) return
            waiting.delete(id)
            clearTimeout(timer)
            reject(error)
          })
      })
    },
    respond,
    notify(topic, method, params) {
      return publish(topic, { jsonrpc: '2.0', id: nextId(), method, params }, method, false)
    },
    onRequest(handler) {
      requestHandlers.add(handler)
      return () => void requestHandlers.delete(handler)
    },
    onError(listener) {
      errorListeners.add(listener)
      return () => void errorListeners.delete(listener)
    },
    detach() {
      stopMessages()
      for (const [id, entry] of waiting) {
        waiting.delete(id)
        clearTimeout(entry.timer)
        entry.reject(new AppError('ABORTED', `${entry.what} was abandoned.`))
      }
    },
  }
}
