import { useMemo, useSyncExternalStore } from 'react'
import type { Client } from '../client/client'
import type { WalletConnection } from '../connectors/types'
import { useClient } from './client-context'
import { clientStore } from './client-store'

/**
 * The current connection (`client.getConnection()`), or null. Re-renders only when the connection
 * changes — connected, disconnected, another account or chain, another wallet after
 * `selectWallet` — not while a signature is pending or the status moves otherwise. Follows the
 * root actor across `resume()`. A paired session (`pair()`) does not notify `client.subscribe`:
 * it shows at the next change of the view; render `flow.approval` for it. Without `client`, the
 * `ClientProvider`'s.
 */
export function useConnection(client?: Client): WalletConnection | null {
  const chosen = useClient(client)
  const store = useMemo(() => clientStore(chosen, (c) => c.getConnection()), [chosen])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
