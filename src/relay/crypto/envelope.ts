import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { concatBytes, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'
import { AppError } from '../../errors/app-error'
import { PAIRING_TOPIC_PATTERN } from '../validate'

/** The only envelope type: 0 = sealed with the topic's symmetric key. */
export const ENVELOPE_TYPE = 0
/** ChaCha20-Poly1305 nonce length. */
export const ENVELOPE_NONCE_BYTES = 12
const TAG_BYTES = 16
/** Type byte + nonce (1 + ENVELOPE_NONCE_BYTES), a literal so an unused import leaves no code. */
const HEADER_BYTES = 13

function envelopeError(reason: string, cause?: unknown): AppError {
  return new AppError('RELAY_ERROR', 'A relay message could not be opened.', {
    details: [{ field: 'envelope', reason }],
    ...(cause === undefined ? {} : { cause }),
  })
}

function checkKey(symKey: Uint8Array): void {
  if (!(symKey instanceof Uint8Array) || symKey.length !== 32) {
    throw new AppError('INVALID_CONFIG', 'A relay symmetric key must be exactly 32 bytes.')
  }
}

/** The associated data of a topic's envelopes: the topic's 32 bytes (not its hex text). */
function topicBytes(topic: string): Uint8Array {
  if (!PAIRING_TOPIC_PATTERN.test(topic)) {
    throw new AppError('INVALID_CONFIG', 'A relay topic must be 64 lower-case hex digits.')
  }
  return hexToBytes(topic)
}

/**
 * Seals `plaintext` (a JSON-RPC payload) for `topic`: base64 of type byte 0 ‖ 12-byte random nonce
 * ‖ ChaCha20-Poly1305 ciphertext and tag, with the topic's 32 bytes as associated data (so an
 * envelope moved to another topic does not open).
 *
 * @throws AppError `INVALID_CONFIG` when the key is not 32 bytes or the topic not 64 hex digits.
 */
export function sealEnvelope(symKey: Uint8Array, topic: string, plaintext: string): string {
  checkKey(symKey)
  const aad = topicBytes(topic)
  const nonce = randomBytes(ENVELOPE_NONCE_BYTES)
  const sealed = chacha20poly1305(symKey, nonce, aad).encrypt(utf8ToBytes(plaintext))
  return base64.encode(concatBytes(Uint8Array.of(ENVELOPE_TYPE), nonce, sealed))
}

/**
 * Opens an envelope sealed by `sealEnvelope` with the same key and topic.
 *
 * @throws AppError `RELAY_ERROR` (`details[0].field` = `envelope`) when the text is not base64, is
 * too short, has another type byte, fails authentication (tampered, wrong key, other topic) or is not
 * UTF-8. The message never includes the key or the plaintext. `INVALID_CONFIG` for a bad key or topic.
 */
export function openEnvelope(symKey: Uint8Array, topic: string, message: string): string {
  checkKey(symKey)
  const aad = topicBytes(topic)
  let bytes: Uint8Array
  try {
    bytes = base64.decode(message)
  } catch (error) {
    throw envelopeError('is not base64', error)
  }
  if (bytes.length < HEADER_BYTES + TAG_BYTES) throw envelopeError('is too short')
  if (bytes[0] !== ENVELOPE_TYPE) throw envelopeError(`has unknown type ${bytes[0]}`)
  const nonce = bytes.subarray(1, HEADER_BYTES)
  let plaintext: Uint8Array
  try {
    plaintext = chacha20poly1305(symKey, nonce, aad).decrypt(bytes.subarray(HEADER_BYTES))
  } catch (error) {
    throw envelopeError(
      'failed authentication (tampered, or sealed with another key or topic)',
      error,
    )
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plaintext)
  } catch (error) {
    throw envelopeError('is not UTF-8', error)
  }
}
