import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { decodeSolanaAddress } from './solana-address'
import type { SignatureCheck } from './types'

const SIGNATURE_BYTES = 64

/**
 * ed25519 over the UTF-8 message. Wallets hand back the 64-byte signature either base58
 * (Solana convention) or base64 (`signMessage` bytes serialised by web code); both are accepted.
 * The signing key must be given and be the connected address itself.
 */
export function verifySolanaSignature(check: SignatureCheck): boolean {
  const { address, publicKey, message, signature } = check
  if (typeof message !== 'string' || typeof publicKey !== 'string') return false
  if (publicKey !== address) return false
  const key = decodeSolanaAddress(publicKey)
  const sig = decodeSignature(signature)
  if (!key || !sig) return false
  try {
    return ed25519.verify(sig, new TextEncoder().encode(message), key)
  } catch {
    return false
  }
}

/** base58 is tried first; a string that decodes to 64 bytes in neither form is rejected. */
export function decodeSignature(signature: string): Uint8Array | undefined {
  if (typeof signature !== 'string' || signature.length === 0) return undefined
  for (const codec of [base58, base64]) {
    try {
      const bytes = codec.decode(signature)
      if (bytes.length === SIGNATURE_BYTES) return bytes
    } catch {
      // not this encoding
    }
  }
  return undefined
}
