import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createBlockCache } from '../../src/chains/block-cache'
import { touchedAccounts } from '../../src/transactions/evm-status'

// The parts of "a receipt ends the balance cache of the accounts it touched" (issue 31 item 1)
// that need no node: which accounts a receipt names, and what the cache lets go. The whole path,
// with anvil and the real server, is server/test/balances-fresh.test.ts.

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'
const word = (address: string) => `0x${'0'.repeat(24)}${address.slice(2)}`
const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const C = '0x3333333333333333333333333333333333333333'
const TOKEN = '0x4444444444444444444444444444444444444444'

describe('touchedAccounts', () => {
  it('names the sender, the recipient and both parties of each Transfer log, lower case, once each', () => {
    expect(
      touchedAccounts({
        from: A.toUpperCase().replace('0X', '0x'),
        to: TOKEN,
        logs: [{ topics: [TRANSFER, word(A), word(B)] }, { topics: [TRANSFER, word(B), word(C)] }],
      }).sort(),
    ).toEqual([A, B, C, TOKEN].sort())
  })

  it('a contract creation names the contract; other logs and malformed topics name nobody', () => {
    expect(
      touchedAccounts({
        from: A,
        to: null,
        contractAddress: TOKEN,
        logs: [
          { topics: [APPROVAL, word(B), word(C)] },
          { topics: [TRANSFER, word(B)] },
          { topics: [TRANSFER, `0x${'ff'.repeat(32)}`, word(C)] },
        ],
      }).sort(),
    ).toEqual([A, C, TOKEN].sort())
  })
})

describe('BlockCache.settle', () => {
  const result = { raw: 1n, decimals: 18 }
  const key = (account: string) => JSON.stringify(['native', account, null])

  it("drops the touched accounts' entries of an older block, keeps the others", () => {
    const cache = createBlockCache()
    cache.set(10n, key(A), result)
    cache.set(10n, key(B), result)
    cache.settle(11n, (k) => k === key(A))
    expect(cache.get(10n, key(A))).toBeUndefined()
    expect(cache.get(10n, key(B))).toBe(result)
  })

  it('keeps entries read at the settled block or a later one', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1000n }),
        fc.bigInt({ min: 0n, max: 1000n }),
        (at, settled) => {
          const cache = createBlockCache()
          cache.set(at, key(A), result)
          cache.settle(settled, () => true)
          expect(cache.get(at, key(A))).toBe(at >= settled ? result : undefined)
        },
      ),
    )
  })
})
