/**
 * Per upstream HTTP request, for every namespace: a stuck node must not hold a route open.
 * Retries included, one balance read is also bounded by `DEFAULT_READ_BUDGET_MS`.
 */
export const DEFAULT_TIMEOUT_MS = 3_000

/**
 * A whole balance read (block number, balance, decimals, a retry): well under the server's 10 s
 * shutdown grace, so a stopping instance never cuts a balance request that an RPC is holding.
 */
export const DEFAULT_READ_BUDGET_MS = 6_000
