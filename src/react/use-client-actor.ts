import { useMemo, useSyncExternalStore } from 'react'
import type { ClientActor } from '../../machines/client/client.facade'
import type { Client } from '../client/client'
import { clientStore } from './client-store'

/**
 * The client's current root actor (`client.actor`). Re-renders only when the client replaces it
 * (`resume()`), so an `@xstate/react` hook given this actor (`useSelector(actor, …)`) subscribes to
 * the new root instead of staying on the stopped one.
 */
export function useClientActor(client: Client): ClientActor {
  const store = useMemo(() => clientStore(client, (c) => c.actor, Object.is), [client])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
