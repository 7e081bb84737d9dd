/**
 * Identical concurrent reads share one upstream call: the first caller starts it, later callers
 * with the same key get the same promise until it settles. Nothing is cached after settling.
 */
export type Coalesce = <T>(key: string, fn: () => Promise<T>) => Promise<T>

export function createCoalescer(): Coalesce {
  const inFlight = new Map<string, Promise<unknown>>()
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const pending = inFlight.get(key)
    if (pending) return pending as Promise<T>
    const started = Promise.resolve()
      .then(fn)
      .finally(() => inFlight.delete(key))
    inFlight.set(key, started)
    return started
  }
}

/** Process-wide coalescer for callers that do not need their own scope. */
export const coalesce: Coalesce = createCoalescer()
