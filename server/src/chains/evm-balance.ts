import { type Address, erc20Abi, isAddress, type PublicClient } from 'viem'
import { checkDecimals } from './decimals'
import {
  type BalanceReadRequest,
  type BalanceReadResult,
  ChainInputError,
  UpstreamError,
} from './types'

const NATIVE_DECIMALS = 18

/**
 * Reads a native or ERC-20 balance at one pinned block, so balance, decimals and the reported
 * blockNumber describe the same chain state.
 */
export async function readEvmBalance(
  client: PublicClient | undefined,
  request: BalanceReadRequest,
): Promise<BalanceReadResult> {
  const account = checkAddress(request.account, 'account')
  const token =
    request.tokenAddress === 'native'
      ? undefined
      : checkAddress(request.tokenAddress, 'tokenAddress')
  const decimals = checkDecimals(request.decimals)
  if (!client) {
    throw new UpstreamError(`no rpcUrl configured for ${request.chainId}: balance reads need one`)
  }
  try {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    if (!token) {
      const raw = await client.getBalance({ address: account, blockNumber })
      return { raw, decimals: decimals ?? NATIVE_DECIMALS, blockNumber }
    }
    const [raw, tokenDecimals] = await Promise.all([
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
        blockNumber,
      }),
      decimals ??
        client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'decimals',
          blockNumber,
        }),
    ])
    return { raw, decimals: tokenDecimals, blockNumber }
  } catch (error) {
    throw toUpstreamError(error)
  }
}

function checkAddress(value: string, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value)) {
    throw new ChainInputError(`${field} is not a valid EVM address: ${String(value)}`)
  }
  return value
}

/** viem errors carry a one-line `shortMessage`; the full message includes request bodies. */
function toUpstreamError(error: unknown): UpstreamError {
  const short =
    error && typeof error === 'object' && 'shortMessage' in error
      ? String(error.shortMessage)
      : error instanceof Error
        ? error.message
        : String(error)
  return new UpstreamError(`EVM RPC read failed: ${short}`, { cause: error })
}
