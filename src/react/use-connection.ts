import { useMemo, useSyncExternalStore } from 'react'
import type { Client } from '../client/client'
import type { WalletConnection } from '../connectors/types'
import { clientStore } from './client-store'

/**
 * The current connection (`client.getConnection()`), or null. Re-renders only when the connection
 * changes — connected, disconnected, another account or chain, another wallet after
 * `selectWallet` — not while a signature is pending or the status moves otherwise. Follows the
 * root actor across `resume()`. A paired session (`pair()`) does not notify `client.subscribe`:
 * it shows at the next change of the view; render `flow.approval` for it.
 */
export function useConnection(client: Client): WalletConnection | null {
  const store = useMemo(() => clientStore(client, (c) => c.getConnection()), [client])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
