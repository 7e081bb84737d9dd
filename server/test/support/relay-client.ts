import type { IncomingMessage } from 'node:http'
import {
  API_PREFIX,
  RELAY_METHODS,
  type RelayMessage,
  type RelayTokenResponse,
  ROUTES,
} from 'scope-connect/wire'
import WebSocket from 'ws'
import { TEST_APP_KEY } from './server'

/**
 * A small relay client for the server tests, on `ws`: JSON-RPC requests with their answers,
 * every `scr_subscription` push recorded (and acked unless told not to), the close code. Not the
 * library's relay client: just enough protocol to drive and observe the server.
 */

export interface RpcError {
  code: number
  message: string
}

/** A JSON-RPC error answer, thrown by `request`. */
export class RelayCallError extends Error {
  constructor(readonly error: RpcError) {
    super(`${error.code} ${error.message}`)
  }
}

export interface Push {
  pushId: number
  subscriptionId: string
  data: RelayMessage
}

export interface RelayTestClient {
  socket: WebSocket
  /** Sends a request; resolves its result, rejects with RelayCallError on an error answer. */
  request<T = unknown>(method: string, params?: unknown): Promise<T>
  /** Sends a frame as is (text, or a Buffer as a binary frame). */
  sendRaw(data: string | Buffer): void
  /** Resolves the next answer with this id (for hand-written frames). */
  answer(id: number | null): Promise<{ result?: unknown; error?: RpcError }>
  pushes: Push[]
  /** Resolves once `count` pushes (in total) have arrived. */
  waitForPushes(count: number, timeoutMs?: number): Promise<Push[]>
  /** Acks a push by hand (when created with autoAck: false). */
  ack(push: Push, result?: unknown): void
  closed: Promise<{ code: number; reason: string }>
  close(): void
}

export async function issueRelayToken(
  baseUrl: string,
  appKey = TEST_APP_KEY,
): Promise<RelayTokenResponse> {
  const response = await fetch(baseUrl + API_PREFIX + ROUTES.relayToken, {
    method: 'POST',
    headers: { 'x-app-key': appKey },
  })
  if (response.status !== 200) throw new Error(`relay token: ${response.status}`)
  return (await response.json()) as RelayTokenResponse
}

export const relayUrl = (baseUrl: string, token?: string) =>
  `${baseUrl.replace(/^http/, 'ws')}${API_PREFIX}${ROUTES.relay}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`

export interface ConnectOptions {
  /** Default: a fresh grant from `POST /relay/token`. */
  token?: string
  /** Ack every push with `true` (default). */
  autoAck?: boolean
  /** Answer WebSocket pings (default true). */
  autoPong?: boolean
  /** Called with every push as it arrives (after the ack, when acking). */
  onPush?: (push: Push) => void
  /** Headers of the upgrade request (e.g. X-Forwarded-For behind a trusted proxy). */
  headers?: Record<string, string>
}

export async function connectRelay(
  baseUrl: string,
  options: ConnectOptions = {},
): Promise<RelayTestClient> {
  const token = options.token ?? (await issueRelayToken(baseUrl)).token
  const socket = new WebSocket(relayUrl(baseUrl, token), {
    autoPong: options.autoPong ?? true,
    ...(options.headers ? { headers: options.headers } : {}),
  })
  const waiters = new Map<number | null, Array<(frame: Record<string, unknown>) => void>>()
  const pushes: Push[] = []
  const pushWaiters: Array<() => void> = []
  let nextId = 1
  const autoAck = options.autoAck ?? true

  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  })
  socket.on('error', () => {})
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>
    if (frame.method === RELAY_METHODS.subscription) {
      const params = frame.params as { id: string; data: RelayMessage }
      const push = { pushId: frame.id as number, subscriptionId: params.id, data: params.data }
      pushes.push(push)
      if (autoAck) ack(push)
      options.onPush?.(push)
      for (const wake of pushWaiters.splice(0)) wake()
      return
    }
    const id = (frame.id ?? null) as number | null
    const queue = waiters.get(id)
    const waiter = queue?.shift()
    if (queue?.length === 0) waiters.delete(id)
    waiter?.(frame)
  })

  const ack = (push: Push, result: unknown = true) => {
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: push.pushId, result }))
    }
  }

  const answer = (id: number | null) =>
    new Promise<{ result?: unknown; error?: RpcError }>((resolve, reject) => {
      const list = waiters.get(id) ?? []
      list.push((frame) => resolve(frame as { result?: unknown; error?: RpcError }))
      waiters.set(id, list)
      closed.then(({ code }) => reject(new Error(`socket closed (${code}) before answer ${id}`)))
    })

  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('unexpected-response', (_request, response: IncomingMessage) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    )
    socket.once('error', reject)
  })

  return {
    socket,
    async request<T>(method: string, params: unknown = {}) {
      const id = nextId++
      const answered = answer(id)
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      const frame = await answered
      if (frame.error) throw new RelayCallError(frame.error)
      return frame.result as T
    },
    sendRaw: (data) => socket.send(data, { binary: Buffer.isBuffer(data) }),
    answer,
    pushes,
    waitForPushes(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`waited for ${count} pushes, got ${pushes.length}`)),
          timeoutMs,
        )
        const check = () => {
          if (pushes.length >= count) {
            clearTimeout(timer)
            resolve(pushes)
          } else pushWaiters.push(check)
        }
        check()
      })
    },
    ack,
    closed,
    close: () => socket.close(),
  }
}

export interface Refusal {
  status: number
  body: unknown
  headers: IncomingMessage['headers']
}

/** Attempts an upgrade that the server should refuse; resolves the HTTP answer. */
export function refusedUpgrade(url: string): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url)
    socket.on('error', () => {})
    socket.once('open', () => {
      socket.close()
      reject(new Error('the upgrade was accepted'))
    })
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      let text = ''
      response.on('data', (chunk) => {
        text += chunk
      })
      response.on('end', () => {
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {}
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers })
      })
    })
  })
}

/** A topic: 64 lower-case hex digits. */
export const topicFor = (seed: number | string) =>
  Buffer.from(String(seed).padStart(32, '0').slice(-32)).toString('hex')

/** A base64 "envelope" of `size` bytes, distinct per seed. */
export const envelope = (seed: number | string, size = 48) =>
  Buffer.alloc(size, `envelope-${seed}-`).toString('base64')
