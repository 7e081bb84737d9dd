import { x25519 } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { AppError } from '../../errors/app-error'

/** HKDF `info` of the session key derivation. */
export const SESSION_KEY_INFO = 'scr/1 session'

const PUBLIC_KEY_PATTERN = /^[0-9a-f]{64}$/

/** An X25519 key pair; `privateKey` is a secret (kept in a keyring, never in machine context). */
export interface X25519KeyPair {
  privateKey: Uint8Array
  /** 32 bytes as 64 lower-case hex digits: what travels in proposals and approvals. */
  publicKey: string
}

/** A fresh X25519 key pair from the platform CSPRNG. */
export function generateKeyPair(): X25519KeyPair {
  const { secretKey, publicKey } = x25519.keygen()
  return { privateKey: secretKey, publicKey: bytesToHex(publicKey) }
}

/** True for a 64-hex-digit X25519 public key. */
export function isPublicKeyHex(value: unknown): value is string {
  return typeof value === 'string' && PUBLIC_KEY_PATTERN.test(value)
}

/** The topic of a symmetric key: hex(SHA-256(key)). */
export function topicOfKey(symKey: Uint8Array): string {
  return bytesToHex(sha256(symKey))
}

/**
 * Both sides' session key and topic: `symKeyS = HKDF-SHA256(ikm = X25519(privateKey, peerPublicKey),
 * salt = empty, info = "scr/1 session")`, `topic = hex(SHA-256(symKeyS))`.
 *
 * @throws AppError `RELAY_ERROR` when the peer's key is not 64 hex digits or is a low-order point
 * (the shared secret would be all zeros).
 */
export function deriveSessionKey(
  privateKey: Uint8Array,
  peerPublicKey: string,
): { symKeyS: Uint8Array; topic: string } {
  if (!isPublicKeyHex(peerPublicKey)) {
    throw new AppError('RELAY_ERROR', 'The peer sent an invalid public key.', {
      details: [{ field: 'publicKey', reason: 'must be 32 bytes as 64 lower-case hex digits' }],
    })
  }
  let shared: Uint8Array
  try {
    shared = x25519.getSharedSecret(privateKey, hexToBytes(peerPublicKey))
  } catch (error) {
    throw new AppError('RELAY_ERROR', 'The peer sent an unusable public key.', {
      details: [{ field: 'publicKey', reason: 'is a low-order point' }],
      cause: error,
    })
  }
  const symKeyS = hkdf(sha256, shared, new Uint8Array(0), utf8ToBytes(SESSION_KEY_INFO), 32)
  return { symKeyS, topic: topicOfKey(symKeyS) }
}
