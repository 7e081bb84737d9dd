import { useCallback, useRef, useSyncExternalStore } from 'react'
import { NOT_READ, type QueryCache, type QueryState } from './query-cache'

/**
 * The state of `key` in `cache`, watched while the component is mounted (`null`: nothing to read,
 * the state stays `NOT_READ`). Components reading the same key share one read and its answer.
 */
export function useQuery<T>(
  cache: QueryCache,
  key: string | null,
  read: () => Promise<T>,
  refetchInterval?: number,
): QueryState<T> {
  const readRef = useRef(read)
  readRef.current = read
  const subscribe = useCallback(
    (onChange: () => void) =>
      key === null
        ? () => {}
        : cache.watch(key, () => readRef.current(), onChange, { refetchInterval }),
    [cache, key, refetchInterval],
  )
  const getSnapshot = useCallback(
    (): QueryState<T> => (key === null ? NOT_READ : cache.get<T>(key)),
    [cache, key],
  )
  return useSyncExternalStore(subscribe, getSnapshot, () => NOT_READ)
}
