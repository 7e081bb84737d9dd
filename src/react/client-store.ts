import type { Client } from '../client/client'
import { sameValues } from './same-values'

/** What `useSyncExternalStore` needs to read one value of a `Client`. */
export interface ClientStore<T> {
  subscribe(onChange: () => void): () => void
  getSnapshot(): T
}

/**
 * A store over `client.subscribe` (which follows root replacements) that reads `read(client)` and
 * keeps returning the previous value while `same(previous, next)` holds (default `sameValues`).
 */
export function clientStore<T>(
  client: Client,
  read: (client: Client) => T,
  same: (previous: T, next: T) => boolean = sameValues,
): ClientStore<T> {
  let current = read(client)
  return {
    subscribe: (onChange) => {
      const unsubscribe = client.subscribe(() => onChange())
      return () => {
        unsubscribe()
      }
    },
    getSnapshot: () => {
      const next = read(client)
      if (!same(current, next)) current = next
      return current
    },
  }
}
