import { AppError } from '../errors/app-error'
import type { SplitSignature } from './types'

/**
 * Splits a 65-byte `r ‖ s ‖ v` signature (0x-hex). A `v` of 0 or 1 (some signers) becomes 27/28.
 * @throws AppError `WALLET_ERROR` for anything that is not 65 bytes of hex or has another `v`.
 */
export function splitSignature(signature: string): SplitSignature {
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new AppError('WALLET_ERROR', 'The wallet answered with a signature that is not 65 bytes.')
  }
  const raw = Number.parseInt(signature.slice(130, 132), 16)
  const v = raw < 27 ? raw + 27 : raw
  if (v !== 27 && v !== 28) {
    throw new AppError('WALLET_ERROR', `The signature has an unexpected v (${raw}).`)
  }
  return { v, r: `0x${signature.slice(2, 66)}`, s: `0x${signature.slice(66, 130)}` }
}
