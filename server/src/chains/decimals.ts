import { ChainInputError } from './types'

/** Token decimals are a uint8 on both EVM (ERC-20) and Solana (SPL mint). */
export function checkDecimals(decimals: number | undefined): number | undefined {
  if (decimals === undefined) return undefined
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new ChainInputError(`decimals must be an integer 0..255, got ${decimals}`)
  }
  return decimals
}
