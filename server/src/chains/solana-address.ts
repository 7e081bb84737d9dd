import { base58 } from '@scure/base'

/** Solana addresses (and mints, and ed25519 public keys) are base58 of exactly 32 bytes. */
export function decodeSolanaAddress(address: string): Uint8Array | undefined {
  if (typeof address !== 'string' || address.length < 32 || address.length > 44) return undefined
  try {
    const bytes = base58.decode(address)
    return bytes.length === 32 ? bytes : undefined
  } catch {
    return undefined
  }
}

export function isSolanaAddress(address: string): boolean {
  return decodeSolanaAddress(address) !== undefined
}
