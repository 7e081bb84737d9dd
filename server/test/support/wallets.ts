import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { buildSignedMessageEnvelope } from 'scope-connect/wire'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** A fresh EVM key that signs session envelopes with personal_sign (EIP-191). */
export function evmWallet() {
  const account = privateKeyToAccount(generatePrivateKey())
  return {
    address: account.address,
    signEnvelope: (
      sessionId: string,
      nonce: string,
      timestamp: number,
      address = account.address,
    ) =>
      account.signMessage({
        message: buildSignedMessageEnvelope(sessionId, nonce, address, timestamp),
      }),
    signText: (message: string) => account.signMessage({ message }),
  }
}

/** A fresh ed25519 key; address and signatures in base58 as Solana wallets give them. */
export function solanaWallet() {
  const secretKey = ed25519.utils.randomSecretKey()
  const address = base58.encode(ed25519.getPublicKey(secretKey))
  return {
    address,
    signEnvelope: (sessionId: string, nonce: string, timestamp: number, signer = address) =>
      base58.encode(
        ed25519.sign(
          new TextEncoder().encode(buildSignedMessageEnvelope(sessionId, nonce, signer, timestamp)),
          secretKey,
        ),
      ),
  }
}
