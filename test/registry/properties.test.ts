import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import {
  getNetworkInfo,
  getWalletInfo,
  isWalletNetworkSupported,
  supportNetworks,
  supportWallets,
  walletIdForConnectorId,
} from '../../src/registry'

const walletIds = supportWallets.map((w) => w.id)
const rdnsList = supportWallets.flatMap((w) => (w.rdns ? [w.rdns] : []))

// Strings near the interesting shapes, plus anything at all.
const connectorIdLike = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(...walletIds, 'injected', 'relay'),
  fc
    .tuple(
      fc.constantFrom('eip6963:', 'solana:', 'sdk:', ''),
      fc.oneof(fc.string(), fc.constantFrom(...walletIds, ...rdnsList)),
    )
    .map(([a, b]) => a + b),
)

describe('registry properties', () => {
  it('walletIdForConnectorId never throws and returns only built-in wallet ids', () => {
    fc.assert(
      fc.property(fc.oneof(connectorIdLike, fc.anything()), (value) => {
        const id = walletIdForConnectorId(value as string)
        return id === undefined || walletIds.includes(id)
      }),
      { numRuns: 2000 },
    )
  })

  it('walletIdForConnectorId maps solana:{x} only to x itself', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...walletIds)), (rest) => {
        const id = walletIdForConnectorId(`solana:${rest}`)
        return id === undefined || id === rest
      }),
    )
  })

  it('getWalletInfo only ever throws AppError WALLET_NOT_FOUND', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.constantFrom(...walletIds)), (value) => {
        try {
          const info = getWalletInfo(value as string)
          expect(info.id).toBe(value)
        } catch (error) {
          expect(isAppError(error, 'WALLET_NOT_FOUND')).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('getNetworkInfo only ever throws AppError UNSUPPORTED_CHAIN', () => {
    const chainIds = supportNetworks.map((n) => n.chainId)
    const chainLike = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.constantFrom(...chainIds),
      fc
        .tuple(fc.constantFrom('eip155', 'solana', 'cosmos'), fc.nat())
        .map(([n, r]) => `${n}:${r}`),
    )
    fc.assert(
      fc.property(chainLike, (value) => {
        try {
          expect(getNetworkInfo(value as `${string}:${string}`).chainId).toBe(value)
        } catch (error) {
          expect(isAppError(error, 'UNSUPPORTED_CHAIN')).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('isWalletNetworkSupported throws only the two lookup errors', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...walletIds)), fc.string(), (w, c) => {
        try {
          isWalletNetworkSupported(w, c as `${string}:${string}`)
        } catch (error) {
          expect(
            isAppError(error, 'WALLET_NOT_FOUND') || isAppError(error, 'UNSUPPORTED_CHAIN'),
          ).toBe(true)
        }
      }),
    )
  })
})
