import { AppError } from '../errors/app-error'
import type { Caip2ChainId } from '../registry/types'

/**
 * Turns the chain id an EIP-1193 provider reports (hex quantity per EIP-695, though some wallets
 * send a decimal string or a number) into CAIP-2 `eip155:<decimal>`.
 *
 * @throws {AppError} `WALLET_ERROR` when the value is not a positive integer in any of those forms.
 */
export function toEip155ChainId(value: unknown): Caip2ChainId {
  const text = typeof value === 'number' ? String(value) : value
  if (typeof text !== 'string' || !/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(text) || BigInt(text) === 0n) {
    throw new AppError('WALLET_ERROR', `The wallet reported an invalid chain id: ${String(value)}`)
  }
  return `eip155:${BigInt(text).toString(10)}`
}

/**
 * The hex quantity `wallet_switchEthereumChain` expects for a CAIP-2 `eip155:<decimal>` id.
 *
 * @throws {AppError} `UNSUPPORTED_CHAIN` when the id is not an `eip155` chain with a decimal
 * reference (a value that is not a string included).
 */
export function toHexChainId(chainId: Caip2ChainId): `0x${string}` {
  const match = typeof chainId === 'string' ? /^eip155:([1-9][0-9]*)$/.exec(chainId) : null
  if (!match) {
    throw new AppError(
      'UNSUPPORTED_CHAIN',
      `Not an EVM chain id (eip155:<decimal>): ${String(chainId)}`,
    )
  }
  return `0x${BigInt(match[1]!).toString(16)}`
}
