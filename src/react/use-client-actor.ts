import { useMemo, useSyncExternalStore } from 'react'
import type { ClientActor } from '../../machines/client/client.facade'
import type { Client } from '../client/client'
import { useClient } from './client-context'
import { clientStore } from './client-store'

/**
 * The client's current root actor (`client.actor`). Re-renders only when the client replaces it
 * (`resume()`), so an `@xstate/react` hook given this actor (`useSelector(actor, …)`) subscribes to
 * the new root instead of staying on the stopped one. Without `client`, the `ClientProvider`'s.
 */
export function useClientActor(client?: Client): ClientActor {
  const chosen = useClient(client)
  const store = useMemo(() => clientStore(chosen, (c) => c.actor, Object.is), [chosen])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
