import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  erc20Abi,
  isAddress,
  type PublicClient,
} from 'viem'
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
    const [raw, tokenDecimals] = await Promise.allSettled([
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
    if (raw.status === 'fulfilled' && tokenDecimals.status === 'fulfilled') {
      return { raw: raw.value, decimals: tokenDecimals.value, blockNumber }
    }
    const failure =
      raw.status === 'rejected' ? raw.reason : (tokenDecimals as PromiseRejectedResult).reason
    if (!isContractFailure(failure)) throw failure
    // The call reached the chain and the token answered nothing or reverted: the caller's input.
    const code = await client.getCode({ address: token, blockNumber })
    if (code === undefined || code === '0x') {
      throw new ChainInputError(
        `tokenAddress is not a contract on ${request.chainId} (no code at ${token})`,
      )
    }
    if (raw.status === 'rejected') {
      throw new ChainInputError(
        `tokenAddress is not an ERC-20 token: balanceOf(address) failed at ${token}`,
      )
    }
    throw new ChainInputError(
      `tokenAddress has no decimals(): pass decimals (0..255) with the query for ${token}`,
    )
  } catch (error) {
    if (error instanceof ChainInputError) throw error
    throw toUpstreamError(error)
  }
}

/** A call the node ran: the contract returned no data ("0x") or reverted. Not a transport error. */
function isContractFailure(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionZeroDataError ||
        cause instanceof ContractFunctionRevertedError,
    ) !== null
  )
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
