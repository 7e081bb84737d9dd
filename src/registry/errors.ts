import { AppError } from '../errors'

const MAX_SHOWN = 80

/** Names an id in a message without ever throwing, whatever the caller passed. */
function describe(value: unknown): string {
  if (typeof value !== 'string') return `(${value === null ? 'null' : typeof value})`
  // Bounded so a hostile id cannot flood logs; JSON quoting shows empty and blank ids.
  const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value
  return JSON.stringify(shown)
}

/** `WALLET_NOT_FOUND`, naming the id. */
export function walletNotFound(walletId: unknown): AppError {
  return new AppError('WALLET_NOT_FOUND', `Unknown wallet ${describe(walletId)}`)
}

/** `UNSUPPORTED_CHAIN`, naming the id; says so when it is not CAIP-2 at all. */
export function unsupportedChain(chainId: unknown, malformed: boolean): AppError {
  const reason = malformed
    ? `Malformed chain id ${describe(chainId)}: expected CAIP-2 such as "eip155:1"`
    : `Unsupported chain ${describe(chainId)}`
  return new AppError('UNSUPPORTED_CHAIN', reason)
}
