import { bytesToHex } from '@noble/hashes/utils.js'
import type { AppError } from '../errors'
import {
  MAX_PAIRING_URI_LENGTH,
  PAIRING_URI_SCHEME,
  RELAY_PROTOCOL,
  SCOPE_PAIRING_VERSION,
} from './constants'
import { PAIRING_TOPIC_PATTERN, pairingError, relayUrlProblem } from './validate'

const CONTEXT = 'Invalid pairing URI input'

function inputError(field: string, reason: string): AppError {
  return pairingError(CONTEXT, field, reason)
}

/**
 * Assembles `scope:{topic}@1?relay-url={encoded url}&symKey={64 hex}&relay-protocol=scr`.
 *
 * With `expiryTimestamp` (Unix seconds) the URI ends in `&expiryTimestamp=…`, so a stale QR code
 * fails visibly in the wallet instead of waiting for a proposal that is gone.
 *
 * @throws AppError `INVALID_CONFIG` (with `details[0].field` naming the argument) when `topic` is not
 * 64 lower-case hex digits, `symKeyP` is not a `Uint8Array` of exactly 32 bytes, `relayUrl` is not a
 * `ws://`/`wss://` URL that `parsePairingUri` would accept, `expiryTimestamp` is not a non-negative
 * integer, or the URI would exceed 4096 characters.
 */
export function buildPairingUri(
  topic: string,
  symKeyP: Uint8Array,
  relayUrl: string,
  expiryTimestamp?: number,
): string {
  if (typeof topic !== 'string' || !PAIRING_TOPIC_PATTERN.test(topic)) {
    throw inputError('topic', 'must be 32 bytes as 64 lower-case hex digits')
  }
  if (!(symKeyP instanceof Uint8Array) || symKeyP.length !== 32) {
    throw inputError('symKeyP', 'must be a Uint8Array of exactly 32 bytes')
  }
  const problem = relayUrlProblem(relayUrl)
  if (problem !== null) throw inputError('relayUrl', problem)
  if (
    expiryTimestamp !== undefined &&
    (!Number.isSafeInteger(expiryTimestamp) || expiryTimestamp < 0)
  ) {
    throw inputError('expiryTimestamp', 'must be a non-negative integer (Unix seconds)')
  }
  const uri =
    `${PAIRING_URI_SCHEME}:${topic}@${SCOPE_PAIRING_VERSION}` +
    `?relay-url=${encodeURIComponent(relayUrl)}` +
    `&symKey=${bytesToHex(symKeyP)}` +
    `&relay-protocol=${RELAY_PROTOCOL}` +
    (expiryTimestamp === undefined ? '' : `&expiryTimestamp=${expiryTimestamp}`)
  if (uri.length > MAX_PAIRING_URI_LENGTH) {
    throw inputError('relayUrl', `makes the URI longer than ${MAX_PAIRING_URI_LENGTH} characters`)
  }
  return uri
}
