import { useMemo, useSyncExternalStore } from 'react'
import type { ClientView } from '../../machines/client/client.view'
import type { Client } from '../client/client'
import { clientStore } from './client-store'

/**
 * The client's view (`client.getView()`), kept current through `client.subscribe`, so it follows
 * every flow and a root actor replaced by `resume()`. Re-renders when a field of the view changes
 * (status, address, error, …), not on root snapshots that leave the view as it was; the returned
 * object stays the same while nothing changed. On the server (SSR) it renders the client's view as
 * it stands.
 */
export function useClientView(client: Client): ClientView {
  const store = useMemo(() => clientStore(client, (c) => c.getView()), [client])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
