import type { AppError } from '../../errors/app-error'
import { RELAY_METHODS } from '../../wire/relay'
import type { RelayRequests } from './requests'

interface QueuedPublish {
  params: { topic: string; message: string; ttl: number; tag: number }
  resolve: () => void
  reject: (error: AppError) => void
}

/** Publishes: at once while online, else queued until the connection is back (or gone for good). */
export interface RelayPublisher {
  /** Sends now when `online`, else queues; resolves once the relay stored the message. */
  publish(params: QueuedPublish['params'], online: boolean): Promise<void>
  /** Online again: sends what waited, in order. */
  flush(): void
  /** Offline or closed: what waited rejects with `error`. */
  rejectAll(error: AppError): void
}

/**
 * `gone()` tells whether the connection is offline or closed: a publish lost with the connection is
 * queued again unless it is (the same message has the same messageId, so the peer drops a copy).
 */
export function createRelayPublisher(parts: {
  requests: RelayRequests
  gone: () => boolean
}): RelayPublisher {
  const outbox: QueuedPublish[] = []

  function send(queued: QueuedPublish): void {
    parts.requests.request(RELAY_METHODS.publish, queued.params).then(
      () => queued.resolve(),
      (error: AppError) => {
        // Refused by the relay: final. Lost with the connection: send again after the reconnect.
        if (error.backendCode !== undefined || parts.gone()) queued.reject(error)
        else outbox.push(queued)
      },
    )
  }

  return {
    publish(params, online) {
      return new Promise<void>((resolve, reject) => {
        const queued = { params, resolve, reject }
        if (online) send(queued)
        else outbox.push(queued)
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
