/** Per upstream request, for every namespace: a stuck node must not hold a route open. */
export const DEFAULT_TIMEOUT_MS = 10_000
