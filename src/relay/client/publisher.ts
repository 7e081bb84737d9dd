import { AppError } from '../../errors/app-error'
import { RELAY_METHODS } from '../../wire/relay'
import type { RelayRequests } from './requests'

interface QueuedPublish {
  params: { topic: string; message: string; ttl: number; tag: number }
  resolve: () => void
  reject: (error: AppError) => void
  signal: AbortSignal | undefined
}

/** Publishes: at once while online, else queued until the connection is back (or gone for good). */
export interface RelayPublisher {
  /**
   * Sends now when `online`, else queues; resolves once the relay stored the message. A message
   * still queued when `signal` aborts leaves the queue and rejects `ABORTED`.
   */
  publish(params: QueuedPublish['params'], online: boolean, signal?: AbortSignal): Promise<void>
  /** Online again: sends what waited, in order. */
  flush(): void
  /** Offline or closed: what waited rejects with `error`. */
  rejectAll(error: AppError): void
}

/**
 * `reconnecting()` tells whether the connection is on its way back: a publish lost with the
 * connection is queued again then (the same message has the same messageId, so the peer drops a
 * copy); one refused, timed out on a live connection, or lost for good rejects.
 */
export function createRelayPublisher(parts: {
  requests: RelayRequests
  reconnecting: () => boolean
}): RelayPublisher {
  const outbox: QueuedPublish[] = []
  const givenUp = () => new AppError('ABORTED', 'The message was given up before it was sent.')

  function enqueue(queued: QueuedPublish): void {
    if (queued.signal?.aborted) queued.reject(givenUp())
    else outbox.push(queued)
  }

  function send(queued: QueuedPublish): void {
    parts.requests.request(RELAY_METHODS.publish, queued.params).then(
      () => queued.resolve(),
      (error: AppError) => {
        // Lost with the connection: send again after the reconnect. Anything else is final.
        if (error.backendCode === undefined && parts.reconnecting()) enqueue(queued)
        else queued.reject(error)
      },
    )
  }

  return {
    publish(params, online, signal) {
      return new Promise<void>((resolve, reject) => {
        const giveUp = () => {
          const index = outbox.indexOf(queued)
          if (index === -1) return
          outbox.splice(index, 1)
          queued.reject(givenUp())
        }
        // Listening only until the publish settles: an app's long-lived signal gathers no listener
        // per message.
        const settled = () => signal?.removeEventListener('abort', giveUp)
        const queued: QueuedPublish = {
          params,
          signal,
          resolve: () => {
            settled()
            resolve()
          },
          reject: (error) => {
            settled()
            reject(error)
          },
        }
        signal?.addEventListener('abort', giveUp, { once: true })
        if (online && !signal?.aborted) send(queued)
        else enqueue(queued)
      })
    },
    flush() {
      for (const queued of outbox.splice(0)) send(queued)
    },
    rejectAll(error) {
      for (const queued of outbox.splice(0)) queued.reject(error)
    },
  }
}
