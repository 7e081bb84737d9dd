import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

/** A fresh ed25519 key pair with its base58 address, as a Solana wallet holds it. */
export function solanaKey() {
  const secretKey = ed25519.utils.randomSecretKey()
  const address = base58.encode(ed25519.getPublicKey(secretKey))
  const sign = (message: string) => ed25519.sign(new TextEncoder().encode(message), secretKey)
  return { address, sign }
}

/** Any valid 32-byte address (mints, token accounts) for the test double's ledger. */
export function randomAddress(): string {
  return solanaKey().address
}
