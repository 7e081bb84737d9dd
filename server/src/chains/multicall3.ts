import { type Address, numberToHex, type PublicClient } from 'viem'
import {
  addressCallData,
  type Call,
  type CallResult,
  decodeAggregate3,
  encodeAggregate3,
  GET_BLOCK_NUMBER_CALL_DATA,
  GET_ETH_BALANCE_SELECTOR,
} from './aggregate3-codec'

/**
 * Multicall3 (github.com/mds1/multicall), deployed at this address on most EVM chains (the same
 * deployer key and nonce everywhere). A chain where it lives elsewhere, or not at all, says so in
 * its network entry (`multicall3`).
 */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** Thrown when the Multicall3 address has no code at the block: the chain has none there. */
export class Multicall3MissingError extends Error {
  override readonly name = 'Multicall3MissingError'
}

/**
 * `getBlockNumber()` on Multicall3: put first in a batch sent at `latest`, it names the block every
 * other call of the batch was read at, without an `eth_blockNumber` before it.
 */
export function blockNumberCall(multicall3: Address): Call {
  return { target: multicall3, callData: GET_BLOCK_NUMBER_CALL_DATA }
}

/** `getEthBalance(account)` on Multicall3: a native balance as one more call of the batch. */
export function ethBalanceCall(multicall3: Address, account: Address): Call {
  return { target: multicall3, callData: addressCallData(GET_ETH_BALANCE_SELECTOR, account) }
}

/**
 * The gas of one contract read (`balanceOf`, `decimals()`, `getEthBalance`): an ERC-20's take
 * ~3,000–30,000; a token that needs more burns a node's CPU, and its read fails fast instead.
 */
export const GAS_PER_READ = 100_000n
/** The most an `eth_call` asks for: the block gas limit of most chains (and anvil's default). */
const MAX_CALL_GAS = 30_000_000n

/**
 * The gas of an `aggregate3` call: `GAS_PER_READ` per call, plus the transaction's intrinsic
 * 21,000, 16 per byte of call data, and 30,000 for Multicall3's own loop.
 */
export function aggregate3Gas(calls: number, data: string): bigint {
  const bytes = BigInt((data.length - 2) / 2)
  const gas = 21_000n + 16n * bytes + 30_000n + BigInt(calls) * GAS_PER_READ
  return gas < MAX_CALL_GAS ? gas : MAX_CALL_GAS
}

/**
 * Every call in one `eth_call` of `aggregate3` at `blockNumber` (`latest` when undefined), each
 * allowed to fail on its own, with explicit gas (`aggregate3Gas`): a node never spends more on a
 * batch than its reads may.
 * Transport failures reject (the caller's UpstreamError); an empty answer means no Multicall3.
 */
export async function aggregate3(
  client: PublicClient,
  multicall3: Address,
  calls: readonly Call[],
  blockNumber: bigint | undefined,
): Promise<CallResult[]> {
  // eth_call itself rather than viem's `call` action: nothing of what that action adds
  // (accounts, overrides, CCIP-read) applies to a read of Multicall3.
  const callData = encodeAggregate3(calls)
  const gas = numberToHex(aggregate3Gas(calls.length, callData))
  const data = await client.request({
    method: 'eth_call',
    params: [
      { to: multicall3, data: callData, gas },
      blockNumber === undefined ? 'latest' : numberToHex(blockNumber),
    ],
  })
  if (data === undefined || data === '0x') {
    throw new Multicall3MissingError(`no Multicall3 code at ${multicall3}`)
  }
  const results = decodeAggregate3(data)
  if (results.length !== calls.length) {
    throw new Error(`aggregate3 answered ${results.length} results for ${calls.length} calls`)
  }
  return results
}
