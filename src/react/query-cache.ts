/** Where a cached read stands: `pending` before its first answer, then `success` or `error`. */
export type QueryStatus = 'pending' | 'success' | 'error'

/**
 * One cached read, as the hooks hand it out: the last `data` (kept through a failed refetch), the
 * last `error` (null after a success), and whether a request is in flight.
 */
export interface QueryState<T> {
  status: QueryStatus
  data: T | undefined
  error: Error | null
  isFetching: boolean
  /** When `data` was read (ms since the epoch); 0 before the first success. */
  dataUpdatedAt: number
}

/** What a subscriber asks of its query: a refetch every `refetchInterval` ms while it watches. */
export interface QuerySubscription {
  refetchInterval?: number | undefined
}

interface Entry<T> {
  state: QueryState<T>
  read: () => Promise<T>
  watchers: Map<() => void, QuerySubscription>
  inFlight: Promise<void> | null
  interval: ReturnType<typeof setInterval> | undefined
  intervalMs: number
  forget: ReturnType<typeof setTimeout> | undefined
}

/** The state of a query no one has read yet. */
export const NOT_READ: Readonly<QueryState<never>> = {
  status: 'pending',
  data: undefined,
  error: null,
  isFetching: false,
  dataUpdatedAt: 0,
}

/**
 * Reads shared by key: every component watching the same key gets the same state from one request
 * (a read in flight is joined, never repeated); the first watcher starts a read, the smallest
 * `refetchInterval` among the watchers sets the refetch timer, and `gcMs` after the last watcher
 * left the entry is dropped. `now` is injected so the cache never reads the clock itself.
 */
export class QueryCache {
  readonly #entries = new Map<string, Entry<unknown>>()
  readonly #gcMs: number
  readonly #now: () => number

  constructor(options: { gcMs?: number; now?: () => number } = {}) {
    this.#gcMs = options.gcMs ?? 60_000
    this.#now = options.now ?? Date.now
  }

  /** The query's state now (`NOT_READ` when no one watches or read it). */
  get<T>(key: string): QueryState<T> {
    return (this.#entries.get(key)?.state as QueryState<T> | undefined) ?? NOT_READ
  }

  /**
   * Watches `key`: `onChange` runs on each change of its state. The first watcher reads it with
   * `read` (later watchers share that read and its answer). Returns the function that stops
   * watching.
   */
  watch<T>(
    key: string,
    read: () => Promise<T>,
    onChange: () => void,
    subscription: QuerySubscription = {},
  ): () => void {
    let entry = this.#entries.get(key) as Entry<T> | undefined
    if (!entry) {
      entry = {
        state: NOT_READ,
        read,
        watchers: new Map(),
        inFlight: null,
        interval: undefined,
        intervalMs: Number.POSITIVE_INFINITY,
        forget: undefined,
      }
      this.#entries.set(key, entry as Entry<unknown>)
    }
    const watched = entry
    clearTimeout(watched.forget)
    watched.read = read
    const first = watched.watchers.size === 0
    watched.watchers.set(onChange, subscription)
    this.#schedule(watched)
    if (first) void this.#fetch(watched)
    return () => {
      if (!watched.watchers.delete(onChange)) return
      this.#schedule(watched)
      if (watched.watchers.size > 0) return
      watched.forget = setTimeout(() => {
        if (watched.watchers.size === 0 && this.#entries.get(key) === watched) {
          this.#entries.delete(key)
        }
      }, this.#gcMs)
    }
  }

  /** Reads `key` again (joining a read in flight); resolves once its state is updated. */
  refetch(key: string): Promise<void> {
    const entry = this.#entries.get(key)
    return entry ? this.#fetch(entry) : Promise.resolve()
  }

  /**
   * Reads `key` again when `stale(state)` holds; a read in flight (which may have started before
   * what made the state stale) is let finish first and its answer judged.
   */
  refetchIf<T>(key: string, stale: (state: QueryState<T>) => boolean): void {
    const entry = this.#entries.get(key) as Entry<T> | undefined
    if (entry?.inFlight) void entry.inFlight.then(() => this.refetchIf(key, stale))
    else if (entry && stale(entry.state)) void this.#fetch(entry)
  }

  #fetch<T>(entry: Entry<T>): Promise<void> {
    if (entry.inFlight) return entry.inFlight
    this.#set(entry, { ...entry.state, isFetching: true })
    entry.inFlight = entry.read().then(
      (data) => {
        entry.inFlight = null
        const at = this.#now()
        this.#set(entry, {
          status: 'success',
          data,
          error: null,
          isFetching: false,
          dataUpdatedAt: at,
        })
      },
      (error: unknown) => {
        entry.inFlight = null
        const failure = error instanceof Error ? error : new Error(String(error))
        this.#set(entry, { ...entry.state, status: 'error', error: failure, isFetching: false })
      },
    )
    return entry.inFlight
  }

  #set<T>(entry: Entry<T>, state: QueryState<T>): void {
    entry.state = state
    for (const onChange of [...entry.watchers.keys()]) onChange()
  }

  /** One timer per entry, at the smallest interval its watchers ask for (none when none asks). */
  #schedule<T>(entry: Entry<T>): void {
    const intervals = [...entry.watchers.values()].map(
      (watcher) => watcher.refetchInterval ?? Number.POSITIVE_INFINITY,
    )
    const ms = Math.min(Number.POSITIVE_INFINITY, ...intervals)
    if (ms === entry.intervalMs) return
    clearInterval(entry.interval)
    entry.intervalMs = ms
    entry.interval = Number.isFinite(ms)
      ? setInterval(() => void this.#fetch(entry), ms)
      : undefined
  }
}

const caches = new WeakMap<object, QueryCache>()

/** The query cache of one client (one per `Client`, created on first use). */
export function queryCacheOf(owner: object): QueryCache {
  let cache = caches.get(owner)
  if (!cache) {
    cache = new QueryCache()
    caches.set(owner, cache)
  }
  return cache
}
