import { BaseError, custom, type HttpTransport, RpcRequestError, type Transport } from 'viem'
import WebSocket from 'ws'

/**
 * JSON-RPC over one persistent WebSocket to a node (`networks[].wsUrl`), for an EVM chain's reads.
 * A warm socket skips the per-request HTTP work on both ends: on loopback an `eth_call` of a
 * 50-read `aggregate3` answers in ~1.2 ms instead of ~2.2 ms over HTTP (bench/balances-batch.ts).
 *
 * Faults are the caller's fallback, never a wrong answer: a request the socket cannot carry (no
 * connection, the socket closed under it, no answer in time, a frame that is not JSON-RPC) rejects
 * with `WsRpcUnavailableError`, and the adapter sends it over HTTP instead. After such a fault the
 * socket is left alone for `restAfterFaultMs` (requests go to HTTP at once rather than each paying
 * a connect attempt or a timeout), then dialled again on the next request. A JSON-RPC error answer
 * (a revert, a bad parameter) is the node's answer: it rejects with viem's `RpcRequestError`, as the
 * HTTP transport does, and is not retried elsewhere.
 */
export interface WsRpcOptions {
  url: string
  /** A request without an answer in this time is a fault. */
  timeoutMs: number
  /** How long the socket rests after a fault. Default 5 s. */
  restAfterFaultMs?: number
  now?: () => number
}

export interface WsRpc {
  request(method: string, params: unknown): Promise<unknown>
  /** Closes the socket; waiting requests fall back. Later requests dial again. */
  close(): void
}

/** The socket could not carry this request; the caller sends it another way. */
export class WsRpcUnavailableError extends Error {
  override readonly name = 'WsRpcUnavailableError'
}

export const DEFAULT_REST_AFTER_FAULT_MS = 5_000

interface Waiting {
  resolve(result: unknown): void
  reject(error: Error): void
  timer: NodeJS.Timeout
  body: { method: string; params: unknown }
}

export function createWsRpc(options: WsRpcOptions): WsRpc {
  const now = options.now ?? Date.now
  const restMs = options.restAfterFaultMs ?? DEFAULT_REST_AFTER_FAULT_MS
  const waiting = new Map<number, Waiting>()
  let socket: WebSocket | undefined
  let open: Promise<WebSocket> | undefined
  let abortDial: ((error: Error) => void) | undefined
  let restingUntil = 0
  let lastFault = ''
  let nextId = 1

  /** Every waiting request falls back, the socket is dropped and rests. */
  const fault = (reason: string) => {
    restingUntil = now() + restMs
    lastFault = reason
    const failed = socket
    socket = undefined
    open = undefined
    failed?.removeAllListeners()
    failed?.on('error', () => {}) // a late error of a socket we let go
    failed?.terminate()
    abortDial?.(new WsRpcUnavailableError(`no WebSocket to the node: ${reason}`))
    abortDial = undefined
    for (const [id, request] of waiting) {
      clearTimeout(request.timer)
      waiting.delete(id)
      request.reject(new WsRpcUnavailableError(reason))
    }
  }

  const dial = (): Promise<WebSocket> => {
    const ws = new WebSocket(options.url, { handshakeTimeout: options.timeoutMs })
    socket = ws
    ws.on('message', (data) => {
      let answer: { id?: unknown; result?: unknown; error?: { code: number; message: string } }
      try {
        answer = JSON.parse(String(data))
      } catch {
        return fault('the node sent a frame that is not JSON')
      }
      const request = typeof answer?.id === 'number' ? waiting.get(answer.id) : undefined
      if (!request) return // a late answer to a request that already fell back
      waiting.delete(answer.id as number)
      clearTimeout(request.timer)
      if (answer.error && typeof answer.error === 'object') {
        request.reject(
          new RpcRequestError({ body: request.body, error: answer.error, url: options.url }),
        )
      } else if ('result' in answer) request.resolve(answer.result)
      else request.reject(new WsRpcUnavailableError('the node answered neither result nor error'))
    })
    ws.on('close', () => {
      if (socket === ws) fault('the socket closed')
    })
    ws.on('error', (error) => {
      if (socket === ws) fault(`the socket failed: ${error.message}`)
    })
    return new Promise((resolve, reject) => {
      abortDial = reject
      ws.once('open', () => {
        abortDial = undefined
        resolve(ws)
      })
    })
  }

  return {
    async request(method, params) {
      if (now() < restingUntil) {
        throw new WsRpcUnavailableError(`the socket rests after a fault (${lastFault})`)
      }
      open ??= dial()
      const ws = await open
      const id = nextId++
      const body = { method, params }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => fault(`no answer in ${options.timeoutMs} ms`),
          options.timeoutMs,
        )
        waiting.set(id, { resolve, reject, timer, body })
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (error) => {
          if (!error) return
          if (socket === ws) return fault(`the socket could not send: ${error.message}`)
          // A socket already let go (a fault between its opening and this send): only this request.
          clearTimeout(timer)
          waiting.delete(id)
          reject(new WsRpcUnavailableError(`the socket closed before sending: ${error.message}`))
        })
      })
    },
    close() {
      fault('closed')
      restingUntil = 0
    },
  }
}

/**
 * A viem transport that sends each request over `ws`, and over `fallback` (the chain's HTTP
 * `rpcUrl`) when the socket cannot carry it. Without a fallback the socket's fault is the answer.
 */
export function webSocketFirst(ws: WsRpc, fallback: HttpTransport | undefined): Transport {
  const viaHttp = fallback?.({ retryCount: 0 }).request
  return custom(
    {
      async request({ method, params }) {
        try {
          return await ws.request(method, params)
        } catch (error) {
          if (!(error instanceof WsRpcUnavailableError)) throw error
          if (!viaHttp) throw new BaseError(`WebSocket RPC: ${error.message}`)
          return viaHttp({ method, params })
        }
      },
    },
    { key: 'webSocketFirst', name: 'WebSocket JSON-RPC, HTTP fallback', retryCount: 1 },
  )
}
