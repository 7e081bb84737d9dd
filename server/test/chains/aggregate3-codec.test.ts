import fc from 'fast-check'
import {
  type Address,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  multicall3Abi,
  parseAbi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import {
  Aggregate3DecodeError,
  addressCallData,
  BALANCE_OF_SELECTOR,
  DECIMALS_CALL_DATA,
  decodeAggregate3,
  encodeAggregate3,
  GET_BLOCK_NUMBER_CALL_DATA,
  GET_ETH_BALANCE_SELECTOR,
} from '../../src/chains/aggregate3-codec'

const hexBytes = (max: number) =>
  fc.uint8Array({ maxLength: max }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Hex)
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Address)
const RESULTS_ABI = multicall3Abi.find((item) => item.name === 'aggregate3')!.outputs

describe('the aggregate3 codec (checked against viem)', () => {
  it('writes the same call data as viem for any calls', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ target: address, callData: hexBytes(100) }), { maxLength: 20 }),
        (calls) => {
          const viem = encodeFunctionData({
            abi: multicall3Abi,
            functionName: 'aggregate3',
            args: [calls.map((call) => ({ ...call, allowFailure: true }))],
          })
          expect(encodeAggregate3(calls)).toBe(viem)
        },
      ),
    )
  })

  it('reads whatever viem writes as the answer', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ success: fc.boolean(), returnData: hexBytes(100) }), {
          maxLength: 20,
        }),
        (results) => {
          const data = encodeAbiParameters(RESULTS_ABI, [results])
          expect(decodeAggregate3(data)).toEqual(
            decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data }),
          )
        },
      ),
    )
  })

  it('refuses a garbage answer with its own error, never a wrong result', () => {
    const valid = encodeAbiParameters(RESULTS_ABI, [
      [
        { success: true, returnData: '0x01' },
        { success: false, returnData: '0x' },
      ],
    ])
    expect(decodeAggregate3(valid)).toHaveLength(2)
    for (const garbage of [
      '0x12', // not a word
      valid.slice(0, -64), // cut short
      `0x${'f'.repeat(64)}`, // an offset past the end
      '0xzz',
      `${valid.slice(0, 2 + 64 * 3)}${'0'.repeat(63)}2${valid.slice(2 + 64 * 4)}`, // success = 2
    ] as Hex[]) {
      expect(() => decodeAggregate3(garbage), garbage).toThrow(Aggregate3DecodeError)
    }
    fc.assert(
      fc.property(hexBytes(400), (data) => {
        try {
          const results = decodeAggregate3(data)
          for (const result of results) expect(result.returnData).toMatch(/^0x([0-9a-f]{2})*$/)
        } catch (error) {
          expect(error).toBeInstanceOf(Aggregate3DecodeError)
        }
      }),
    )
  })

  it('writes the selectors viem derives from the ABIs', () => {
    const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address
    expect(addressCallData(BALANCE_OF_SELECTOR, account)).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
    )
    expect(DECIMALS_CALL_DATA).toBe(encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }))
    expect(addressCallData(GET_ETH_BALANCE_SELECTOR, account)).toBe(
      encodeFunctionData({ abi: multicall3Abi, functionName: 'getEthBalance', args: [account] }),
    )
    expect(GET_BLOCK_NUMBER_CALL_DATA).toBe(
      encodeFunctionData({
        abi: parseAbi(['function getBlockNumber() view returns (uint256)']),
        functionName: 'getBlockNumber',
      }),
    )
  })
})
