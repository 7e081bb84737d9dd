import { hsalsa, xsalsa20poly1305 } from '@noble/ciphers/salsa.js'
import { randomBytes, u8, u32 } from '@noble/ciphers/utils.js'
import { x25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'

/** Salsa20's "expand 32-byte k" constant, as the four little-endian words HSalsa20 takes. */
const SIGMA = /* @__PURE__ */ u32(/* @__PURE__ */ new TextEncoder().encode('expand 32-byte k'))

/** Bytes of a NaCl box nonce. */
export const BOX_NONCE_LENGTH = 24

/** An x25519 key pair, both halves base58 (what the deeplinks carry). */
export interface BoxKeyPair {
  publicKey: string
  secretKey: string
}

/** A fresh x25519 key pair from the platform's CSPRNG. */
export function createBoxKeyPair(): BoxKeyPair {
  const secret = x25519.utils.randomSecretKey()
  return { publicKey: base58.encode(x25519.getPublicKey(secret)), secretKey: base58.encode(secret) }
}

/**
 * NaCl `crypto_box_beforenm` (tweetnacl `box.before`): HSalsa20 keyed by the x25519 shared secret
 * over a zero nonce. The symmetric key both sides derive; composed from `@noble/curves` and
 * `@noble/ciphers`, no primitive of our own.
 * @throws {Error} from `@noble/curves` when a key is not 32 bytes or the shared point is weak.
 */
export function boxBefore(theirPublicKey: Uint8Array, mySecretKey: Uint8Array): Uint8Array {
  const shared = x25519.getSharedSecret(mySecretKey, theirPublicKey)
  const out = new Uint32Array(8)
  hsalsa(SIGMA, u32(shared), new Uint32Array(4), out)
  return u8(out).slice()
}

/** Seals UTF-8 `json` with `sharedKey` (NaCl `secretbox`) under a fresh nonce; both base58. */
export function sealJson(sharedKey: Uint8Array, value: unknown): { nonce: string; data: string } {
  const nonce = randomBytes(BOX_NONCE_LENGTH)
  const sealed = xsalsa20poly1305(sharedKey, nonce).encrypt(
    new TextEncoder().encode(JSON.stringify(value)),
  )
  return { nonce: base58.encode(nonce), data: base58.encode(sealed) }
}

/**
 * Opens base58 `data` sealed with `sharedKey` and base58 `nonce` and parses its JSON; null when the
 * nonce, the encoding, the authentication tag or the JSON is wrong. Never throws.
 */
export function openJson(sharedKey: Uint8Array, nonce: string, data: string): unknown {
  try {
    const nonceBytes = base58.decode(nonce)
    if (nonceBytes.length !== BOX_NONCE_LENGTH) return null
    const opened = xsalsa20poly1305(sharedKey, nonceBytes).decrypt(base58.decode(data))
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(opened)) as unknown
  } catch {
    return null
  }
}
