/**
 * The wire formats as plain regular expressions, free of zod, so zod-less modules (the registry)
 * can check them without pulling a validator into their bundle. The schemas build on these.
 */

/** CAIP-2: `namespace:reference`, e.g. `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
export const CAIP2_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

/** Session ids: 16+ random bytes as base64url. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/
