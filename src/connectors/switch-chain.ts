import { AppError, isProviderRpcError, normalizeWalletError } from '../errors'
import { invalidArgument } from '../errors/arguments'
import { getNetworkInfo } from '../registry/lookups'
import type { Caip2ChainId } from '../registry/types'
import { toHexChainId } from './chain-id'
import type { RequestArgs } from './types'

/** EIP-1474 / MetaMask `4902`: the wallet does not know the chain it was asked to switch to. */
const UNRECOGNIZED_CHAIN_CODE = 4902

/** The `wallet_addEthereumChain` parameter (EIP-3085). */
export interface AddEthereumChainParameter {
  chainId: `0x${string}`
  chainName: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: string[]
  blockExplorerUrls?: string[]
}

/**
 * The `wallet_addEthereumChain` parameter for a network of the registry (built in or registered:
 * `registerNetworks`, a project's config): its name, currency, public RPC endpoints and explorer.
 * @throws {AppError} `UNSUPPORTED_CHAIN` when `chainId` is not an EVM network of the registry with RPC URLs.
 */
export function addEthereumChainParameter(chainId: Caip2ChainId): AddEthereumChainParameter {
  const hexChainId = toHexChainId(chainId)
  let network: ReturnType<typeof getNetworkInfo>
  try {
    network = getNetworkInfo(chainId)
  } catch (error) {
    throw new AppError(
      'UNSUPPORTED_CHAIN',
      `The wallet does not know ${chainId}, nor does the registry.`,
      {
        cause: error,
      },
    )
  }
  if (!network.rpcUrls?.length)
    throw new AppError(
      'UNSUPPORTED_CHAIN',
      `The registry has no RPC URL to add ${chainId} to the wallet.`,
    )
  return {
    chainId: hexChainId,
    chainName: network.name,
    nativeCurrency: { ...network.nativeCurrency },
    rpcUrls: [...network.rpcUrls],
    ...(network.blockExplorerUrl ? { blockExplorerUrls: [network.blockExplorerUrl] } : {}),
  }
}

/** True when the wallet's error (or the error it wraps) says the chain is unknown to it. */
function isUnrecognizedChain(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (isProviderRpcError(current) && current.code === UNRECOGNIZED_CHAIN_CODE) return true
    // MetaMask Mobile wraps it: `{ code: -32603, data: { originalError: { code: 4902 } } }`.
    const { cause, data } = current as { cause?: unknown; data?: { originalError?: unknown } }
    current = cause ?? data?.originalError
  }
  return false
}

/**
 * Asks an EVM wallet to switch to `chainId` (`wallet_switchEthereumChain`); when it does not know
 * the chain (4902), adds it from the registry (`wallet_addEthereumChain`) and asks again.
 * `request` is the connected wallet's (a connector's `request`). `learn`, when the registry lacks
 * the chain, is awaited once before giving up (the Client reads the project's config there, which
 * registers the project's own chains); what it throws is ignored.
 * @throws {AppError} `USER_REJECTED` when the user declines the switch or the addition;
 * `UNSUPPORTED_CHAIN` when `chainId` is not `eip155:<decimal>` or the wallet does not know it and
 * the registry cannot add it; `WALLET_ERROR` for any other wallet failure; `INVALID_CONFIG` when
 * `request` is not a function.
 */
export async function switchEthereumChain(
  request: (args: RequestArgs) => Promise<unknown>,
  chainId: Caip2ChainId,
  learn?: () => Promise<unknown>,
): Promise<void> {
  if (typeof request !== 'function') throw invalidArgument('request', 'must be a function')
  const switchTo: RequestArgs = {
    method: 'wallet_switchEthereumChain',
    params: [{ chainId: toHexChainId(chainId) }],
  }
  try {
    await request(switchTo)
    return
  } catch (error) {
    if (!isUnrecognizedChain(error)) throw normalizeWalletError(error)
  }
  let parameter: AddEthereumChainParameter
  try {
    parameter = addEthereumChainParameter(chainId)
  } catch (error) {
    if (typeof learn !== 'function') throw error
    // The chain may be the project's own: its config registers it (a failed read changes nothing).
    await Promise.resolve()
      .then(learn)
      .catch(() => undefined)
    parameter = addEthereumChainParameter(chainId)
  }
  try {
    await request({ method: 'wallet_addEthereumChain', params: [parameter] })
    // Most wallets switch on adding; asking again is harmless and settles the others.
    await request(switchTo)
  } catch (error) {
    throw normalizeWalletError(error)
  }
}
