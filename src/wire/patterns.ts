/**
 * The wire formats as plain regular expressions, free of zod, so zod-less modules (the registry)
 * can check them without pulling a validator into their bundle. The schemas build on these.
 */

/** CAIP-2: `namespace:reference`, e.g. `eip155:1`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
export const CAIP2_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

/** Session ids: 16+ random bytes as base64url. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/

/** An EVM address: `0x` and 40 hex digits (any case; the checksum is not checked). */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/

/** Hex data as JSON-RPC carries it: `0x` and whole bytes (an even number of hex digits), `0x` empty. */
export const HEX_DATA_PATTERN = /^0x(?:[0-9a-fA-F]{2})*$/

/** Standard base64 (`+`, `/`, `=` padding), as Solana tools serialize transactions. */
export const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/
