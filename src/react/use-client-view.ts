import { useMemo, useSyncExternalStore } from 'react'
import type { ClientView } from '../../machines/client/client.view'
import type { Client } from '../client/client'
import { useClient } from './client-context'
import { clientStore } from './client-store'

/**
 * The client's view (`client.getView()`), kept current through `client.subscribe`, so it follows
 * every flow and a root actor replaced by `resume()`. Re-renders when a field of the view changes
 * (status, address, error, …), not on root snapshots that leave the view as it was; the returned
 * object stays the same while nothing changed. On the server (SSR) it renders the client's view as
 * it stands. Without `client`, the `ClientProvider`'s.
 */
export function useClientView(client?: Client): ClientView {
  const chosen = useClient(client)
  const store = useMemo(() => clientStore(chosen, (c) => c.getView()), [chosen])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
