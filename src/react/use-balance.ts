import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import type { TokenBalance, TokenBalanceQuery } from '../balance'
import type { Client } from '../client/client'
import { useClient } from './client-context'
import { clientStore } from './client-store'
import { type QueryState, queryCacheOf } from './query-cache'
import { useConnection } from './use-connection'
import { useQuery } from './use-query'

/**
 * What `useBalance` reads, each field defaulting to the connection (`chainId`, `account` = first
 * account; `tokenAddress` = `native`), and how it stays fresh.
 */
export interface UseBalanceParameters extends Partial<TokenBalanceQuery> {
  /** Reads again every this many ms while mounted (the smallest of all readers of the query wins). */
  refetchInterval?: number
  /**
   * Reads again on each new block of the connected EVM wallet's chain, when the query is for that
   * chain: one `eth_blockNumber` poll through the wallet every `blockPollMs` for all readers.
   */
  refetchOnBlock?: boolean
  /** How often `refetchOnBlock` asks the wallet for the block number; default 4 000 ms. */
  blockPollMs?: number
  /** False: read nothing (the state stays `pending`). Default true. */
  enabled?: boolean
  client?: Client
}

/** What `useBalance` returns: the shared query's state, its flags and `refetch`. */
export interface UseBalanceResult extends QueryState<TokenBalance> {
  isPending: boolean
  isSuccess: boolean
  isError: boolean
  /** The query read (defaults filled in), or null while it lacks a chain or an account. */
  query: TokenBalanceQuery | null
  /** Reads again now (joining a read in flight); resolves once the state is updated. */
  refetch(): Promise<void>
}

const DEFAULT_BLOCK_POLL_MS = 4_000

/**
 * A token balance read through the backend (`client.getBalance`), cached per client and query:
 * every component reading the same query shares one request and its answer. Refetched on mount of
 * the first reader, on `refetchInterval`, on new blocks (`refetchOnBlock`), by `refetch()`, and
 * once a transaction of the client on the query's chain has its receipt, when the balance in hand
 * was read before the receipt's block (docs/transactions.md, "Balances after a transaction"); a
 * failed read keeps the last `data`, sets `status: 'error'` and the `AppError` (`RPC_ERROR`,
 * `UNSUPPORTED_CHAIN`), and the next successful read clears it.
 */
export function useBalance(parameters: UseBalanceParameters = {}): UseBalanceResult {
  const client = useClient(parameters.client)
  const connection = useConnection(client)
  const cache = queryCacheOf(client)
  const chainId = parameters.chainId ?? connection?.chainId
  const account = parameters.account ?? connection?.accounts[0]
  const tokenAddress = parameters.tokenAddress ?? 'native'
  const { decimals } = parameters
  const query: TokenBalanceQuery | null =
    chainId && account && parameters.enabled !== false
      ? { chainId, tokenAddress, account, ...(decimals === undefined ? {} : { decimals }) }
      : null
  const key = query && JSON.stringify(['balance', chainId, tokenAddress, account, decimals ?? null])
  const state = useQuery(
    cache,
    key,
    () => client.getBalance(query as TokenBalanceQuery),
    parameters.refetchInterval,
  )

  const connector = client.connector
  const watchBlocks =
    key !== null &&
    parameters.refetchOnBlock === true &&
    connector !== null &&
    connection?.namespace === 'eip155' &&
    connection.chainId === chainId
  const block = useQuery(
    cache,
    watchBlocks ? JSON.stringify(['blockNumber', connector?.id, chainId]) : null,
    async () => BigInt(await (connector?.request<string>({ method: 'eth_blockNumber' }) ?? '0')),
    parameters.blockPollMs ?? DEFAULT_BLOCK_POLL_MS,
  )
  // A receipt on the query's chain: a balance read before its block is read again.
  const receiptStore = useMemo(
    () =>
      clientStore(client, (c) => {
        const transaction = c.getView().transaction
        return transaction?.chainId === chainId ? transaction?.blockNumber : null
      }),
    [client, chainId],
  )
  const receipt = useSyncExternalStore(
    receiptStore.subscribe,
    receiptStore.getSnapshot,
    receiptStore.getSnapshot,
  )
  useEffect(() => {
    for (const latest of [block.data, receipt ? BigInt(receipt) : undefined]) {
      if (key !== null && latest !== undefined)
        cache.refetchIf<TokenBalance>(key, ({ data }) => (data?.blockNumber ?? latest) < latest)
    }
  }, [cache, key, block.data, receipt])

  const refetch = useCallback(
    () => (key === null ? Promise.resolve() : cache.refetch(key)),
    [cache, key],
  )
  return {
    ...state,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
    query,
    refetch,
  }
}
