import { AppError } from '../errors/app-error'
import { invalidArgument, isObjectLike, optionsObject, requireObject } from '../errors/arguments'
import type { SettledNamespaces } from '../relay/types'
import { typedDataJson } from './typed-data-json'

/** A settled relay session that can carry wallet requests (the pairing facade's session is one). */
export interface RelaySessionRequester {
  readonly namespaces: SettledNamespaces
  /** Sends a wallet call on the session and resolves with the wallet's validated result. */
  request<T = unknown>(args: { method: string; params: unknown; chainId?: string }): Promise<T>
}

// In a module of its own: the `Client` uses it without this module's argument checks.
export { typedDataJson } from './typed-data-json'

/**
 * Checks that `session` can carry requests (an object with `request()`).
 * @throws AppError `INVALID_CONFIG` naming `session` otherwise.
 */
export function requireSession(session: unknown): RelaySessionRequester {
  if (!isObjectLike(session) || typeof session.request !== 'function') {
    throw invalidArgument('session', 'must be a settled relay session (with request())')
  }
  return session as unknown as RelaySessionRequester
}

/** The session's EVM accounts (`eip155:<chain>:<address>` strings); none when it declares none. */
function evmAccounts(session: RelaySessionRequester): string[] {
  const namespaces: unknown = session.namespaces
  const accounts =
    isObjectLike(namespaces) && isObjectLike(namespaces.eip155) ? namespaces.eip155.accounts : []
  return Array.isArray(accounts) ? accounts.filter((a): a is string => typeof a === 'string') : []
}

/** The first EVM account of the session on `chainId` (or any EVM chain), as a 0x address. */
export function sessionEvmAccount(session: RelaySessionRequester, chainId?: string): string {
  const accounts = evmAccounts(session)
  const match = accounts.find((a) => chainId === undefined || a.startsWith(`${chainId}:`))
  if (match === undefined) {
    throw new AppError('NOT_CONNECTED', 'The session has no EVM account for this chain.')
  }
  return match.split(':')[2] as string
}

/**
 * Sends `eth_signTypedData_v4` on a settled session and resolves with the 65-byte signature. The
 * signer is `options.address`, else the typed data's `message.from`, else the session's first EVM
 * account; the chain is the domain's `chainId`. An internal building block of
 * `signTransferAuthorization`, for custom connection paths.
 *
 * @throws AppError `USER_REJECTED` when the user declines, `WALLET_ERROR` for another refusal,
 * `TIMEOUT` without an answer, `RELAY_ERROR` when the relay cannot carry it, `NOT_CONNECTED` when
 * the session has no EVM account; `INVALID_CONFIG` when `session` has no `request()`, `typedData`
 * is not an object (or holds no JSON), its `domain.chainId` is not a number or decimal string, or
 * `options.address` is not a string.
 */
export async function signTypedDataOverRelay(
  session: RelaySessionRequester,
  typedData: { domain?: { chainId?: unknown }; message?: { from?: unknown } } & object,
  options: { address?: string } = {},
): Promise<string> {
  requireSession(session)
  requireObject(typedData, 'typedData')
  const { address: given } = optionsObject<{ address?: string }>(options, 'options')
  if (given !== undefined && typeof given !== 'string') {
    throw invalidArgument('options.address', 'must be a string')
  }
  const domain: unknown = typedData.domain
  const domainChain = isObjectLike(domain) ? domain.chainId : undefined
  if (
    domainChain !== undefined &&
    domainChain !== null &&
    typeof domainChain !== 'number' &&
    typeof domainChain !== 'string' &&
    typeof domainChain !== 'bigint'
  ) {
    throw invalidArgument('typedData.domain.chainId', 'must be a number or a decimal string')
  }
  const chainId =
    domainChain === undefined || domainChain === null ? undefined : `eip155:${String(domainChain)}`
  const message: unknown = typedData.message
  const from = isObjectLike(message) && typeof message.from === 'string' ? message.from : undefined
  const address = given ?? from ?? sessionEvmAccount(session, chainId)
  let json: string | undefined
  try {
    json = typedDataJson(typedData)
  } catch (error) {
    throw new AppError('INVALID_CONFIG', 'Invalid argument: typedData cannot be sent as JSON.', {
      cause: error,
      details: [{ field: 'typedData', reason: 'must be JSON (bigints allowed)' }],
    })
  }
  if (json === undefined) throw invalidArgument('typedData', 'must be JSON (bigints allowed)')
  return session.request<string>({
    method: 'eth_signTypedData_v4',
    params: [address, json],
    chainId: chainId ?? (evmAccounts(session)[0]?.split(':').slice(0, 2).join(':') as string),
  })
}
