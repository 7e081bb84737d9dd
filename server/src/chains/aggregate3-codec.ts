import type { Address, Hex } from 'viem'

/**
 * Multicall3's `aggregate3((address,bool,bytes)[])` call data and its `(bool,bytes)[]` answer,
 * written out by hand. The layout is fixed, so building and reading the hex strings directly costs
 * a small fraction of viem's general ABI coder (`encodeFunctionData` / `decodeFunctionResult`),
 * which took most of the backend's own CPU time for a 50-query batch (bench/balances-batch.ts);
 * the codec test checks every byte against viem's.
 */

/** `aggregate3((address,bool,bytes)[])`. */
const AGGREGATE3_SELECTOR = '82ad56cb'
/** `balanceOf(address)` (ERC-20). */
export const BALANCE_OF_SELECTOR = '0x70a08231'
/** `decimals()` (ERC-20). */
export const DECIMALS_CALL_DATA: Hex = '0x313ce567'
/** `getBlockNumber()` on Multicall3. */
export const GET_BLOCK_NUMBER_CALL_DATA: Hex = '0x42cbb15c'
/** `getEthBalance(address)` on Multicall3. */
export const GET_ETH_BALANCE_SELECTOR = '0x4d2301cc'

const WORD = 64 // hex characters in a 32-byte word

export interface Call {
  target: Address
  callData: Hex
}

/** A call's answer: `success` false when it reverted; `returnData` `0x` when the target has no code. */
export interface CallResult {
  success: boolean
  returnData: Hex
}

/** `selector(address)`: the call data of a one-address function such as `balanceOf`. */
export function addressCallData(selector: string, address: Address): Hex {
  return `${selector}000000000000000000000000${address.slice(2).toLowerCase()}` as Hex
}

/** The call data of `aggregate3(calls)`, every call allowed to fail on its own. */
export function encodeAggregate3(calls: readonly Call[]): Hex {
  const parts: string[] = [AGGREGATE3_SELECTOR, word(32), word(calls.length)]
  const tuples: string[] = []
  // Each tuple's offset counts from the first offset word, in bytes.
  let offset = calls.length * 32
  for (const call of calls) {
    parts.push(word(offset))
    const data = call.callData.slice(2)
    const padded = data.padEnd(Math.ceil(data.length / WORD) * WORD, '0')
    tuples.push(
      `000000000000000000000000${call.target.slice(2).toLowerCase()}`,
      word(1), // allowFailure
      word(96), // callData's offset inside the tuple: after its three head words
      word(data.length / 2),
      padded,
    )
    offset += 128 + padded.length / 2
  }
  return `0x${parts.join('')}${tuples.join('')}` as Hex
}

/** Thrown when an `aggregate3` answer is not `(bool,bytes)[]`: a node answering garbage. */
export class Aggregate3DecodeError extends Error {
  override readonly name = 'Aggregate3DecodeError'
}

/** Reads `aggregate3`'s `(bool success, bytes returnData)[]`, bounds-checked word by word. */
export function decodeAggregate3(data: Hex): CallResult[] {
  const hex = data.slice(2)
  const chars = hex.length
  const readWord = (at: number): number => {
    if (at < 0 || at + WORD > chars) throw new Aggregate3DecodeError('answer ends early')
    const value = Number.parseInt(hex.slice(at, at + WORD), 16)
    if (!Number.isSafeInteger(value) || value > chars) {
      throw new Aggregate3DecodeError('an offset or a length points past the answer')
    }
    return value
  }
  if (chars % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Aggregate3DecodeError('answer is not hex')
  }
  const arrayAt = readWord(0) * 2
  const length = readWord(arrayAt)
  const headsAt = arrayAt + WORD
  const results: CallResult[] = new Array(length)
  for (let i = 0; i < length; i++) {
    const tupleAt = headsAt + readWord(headsAt + i * WORD) * 2
    const success = readWord(tupleAt)
    if (success > 1) throw new Aggregate3DecodeError('success is not a bool')
    const bytesAt = tupleAt + readWord(tupleAt + WORD) * 2
    const size = readWord(bytesAt) * 2
    const start = bytesAt + WORD
    if (start + size > chars) throw new Aggregate3DecodeError('returnData runs past the answer')
    results[i] = { success: success === 1, returnData: `0x${hex.slice(start, start + size)}` }
  }
  return results
}

function word(value: number): string {
  return value.toString(16).padStart(WORD, '0')
}
