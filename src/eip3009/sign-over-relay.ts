import { AppError } from '../errors/app-error'
import type { SettledNamespaces } from '../relay/types'

/** A settled relay session that can carry wallet requests (the pairing facade's session is one). */
export interface RelaySessionRequester {
  readonly namespaces: SettledNamespaces
  /** Sends a wallet call on the session and resolves with the wallet's validated result. */
  request<T = unknown>(args: { method: string; params: unknown; chainId?: string }): Promise<T>
}

/** JSON with bigints as decimal strings (typed data may hold uint256 values as bigints). */
export function typedDataJson(typedData: unknown): string {
  return JSON.stringify(typedData, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  )
}

/** The first EVM account of the session on `chainId` (or any EVM chain), as a 0x address. */
export function sessionEvmAccount(session: RelaySessionRequester, chainId?: string): string {
  const accounts = session.namespaces.eip155?.accounts ?? []
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
 * the session has no EVM account.
 */
export async function signTypedDataOverRelay(
  session: RelaySessionRequester,
  typedData: { domain?: { chainId?: unknown }; message?: { from?: unknown } } & object,
  options: { address?: string } = {},
): Promise<string> {
  const domainChain = typedData.domain?.chainId
  const chainId =
    domainChain === undefined || domainChain === null ? undefined : `eip155:${String(domainChain)}`
  const from = typeof typedData.message?.from === 'string' ? typedData.message.from : undefined
  const address = options.address ?? from ?? sessionEvmAccount(session, chainId)
  return session.request<string>({
    method: 'eth_signTypedData_v4',
    params: [address, typedDataJson(typedData)],
    chainId:
      chainId ??
      (session.namespaces.eip155?.accounts[0]?.split(':').slice(0, 2).join(':') as string),
  })
}
