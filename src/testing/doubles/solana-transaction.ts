import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

/** An ed25519 key pair with its base58 address (a Solana account). */
export interface SolanaKeypair {
  secretKey: Uint8Array
  publicKey: Uint8Array
  address: string
}

/**
 * Signs a serialized Solana transaction (legacy or v0): the wire format is a compact-u16 count of
 * signatures, the 64-byte signatures, then the message, whose header and account keys say which
 * signature slot belongs to which signer.
 */
export function signSerializedTransaction(transaction: Uint8Array, key: SolanaKeypair): Uint8Array {
  const count = transaction[0]!
  if (count >= 0x80) throw new Error('test wallet: too many signatures')
  const messageStart = 1 + count * 64
  const message = transaction.subarray(messageStart)
  const headerAt = message[0]! & 0x80 ? 1 : 0
  const requiredSignatures = message[headerAt]!
  const keysAt = headerAt + 4
  let slot = -1
  for (let index = 0; index < requiredSignatures; index++) {
    const candidate = message.subarray(keysAt + index * 32, keysAt + (index + 1) * 32)
    if (base58.encode(candidate) === key.address) slot = index
  }
  if (slot < 0) throw new Error('test wallet: the account is not a signer of this transaction')
  const signed = transaction.slice()
  signed.set(ed25519.sign(message, key.secretKey), 1 + slot * 64)
  return signed
}
