import type { AppError } from '../../errors/app-error'
import { createLogger } from '../../logging'
import { relayError } from './errors'
import type { RelayResponse } from './frames'

const log = /* @__PURE__ */ createLogger('relay')

/** JSON-RPC requests on the current socket: ids, answers, timeouts. */
export interface RelayRequests {
  /** The socket opened: frames go out through `send` (which throws when the socket is gone). */
  attach(send: (frame: string) => void): void
  /** The socket is gone: every pending request rejects with `error`. */
  detach(error: AppError): void
  /**
   * Sends a request and resolves with its result. Rejects with `RELAY_ERROR` when not connected,
   * refused (`backendCode` names the relay's error), or unanswered after `timeoutMs` (default the
   * client's request timeout; `null`: the caller keeps its own deadline).
   */
  request<T = unknown>(
    method: string,
    params: unknown,
    options?: { timeoutMs?: number | null },
  ): Promise<T>
  /** Sends a frame that expects no answer (an ack); `false` when it could not be sent. */
  notify(frame: unknown): boolean
  /** Settles the request the answer is for (unknown ids are ignored). */
  answer(response: RelayResponse): void
}

interface Pending {
  method: string
  resolve: (value: unknown) => void
  reject: (error: AppError) => void
  timer: ReturnType<typeof setTimeout> | undefined
}

export function createRelayRequests(options: { timeoutMs: number }): RelayRequests {
  const pending = new Map<number, Pending>()
  let send: ((frame: string) => void) | null = null
  let nextId = 1

  function notify(frame: unknown): boolean {
    if (send === null) return false
    try {
      send(JSON.stringify(frame))
      return true
    } catch (error) {
      log.debug('relay send failed', error)
      return false
    }
  }

  return {
    attach(next) {
      send = next
    },
    detach(error) {
      send = null
      for (const [id, entry] of pending) {
        clearTimeout(entry.timer)
        pending.delete(id)
        entry.reject(error)
      }
    },
    request<T>(method: string, params: unknown, { timeoutMs = options.timeoutMs } = {}) {
      return new Promise<T>((resolve, reject) => {
        const id = nextId++
        const timer =
          timeoutMs === null
            ? undefined
            : setTimeout(() => {
                pending.delete(id)
                reject(relayError(`The relay did not answer ${method} in time.`))
              }, timeoutMs)
        pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject, timer })
        if (!notify({ jsonrpc: '2.0', id, method, params })) {
          clearTimeout(timer)
          pending.delete(id)
          reject(relayError(`The relay is not connected (${method}).`))
        }
      })
    },
    notify,
    answer(response) {
      const entry = pending.get(response.id)
      if (entry === undefined) return
      pending.delete(response.id)
      clearTimeout(entry.timer)
      if (response.error !== undefined) {
        entry.reject(
          relayError(`The relay refused ${entry.method}: ${response.error.message}`, {
            code: response.error.code,
          }),
        )
      } else entry.resolve(response.result)
    },
  }
}
