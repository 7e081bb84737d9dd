import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { buildPairingUri } from './build-pairing-uri'
import type { Pairing } from './types'
import { pairingError, relayUrlProblem } from './validate'

/**
 * Draws a new pairing: a random 32-byte topic (lower-case hex) and a random 32-byte `symKeyP`, both
 * from the platform CSPRNG (`crypto.getRandomValues`), and the URI to show as QR code or deep link.
 *
 * @throws AppError `INVALID_CONFIG` when `relayUrl` is not a `ws://` or `wss://` URL (checked before
 * any randomness is drawn), or for a bad `expiryTimestamp` (Unix seconds, written into the URI). Throws the platform's error when no `crypto.getRandomValues` exists.
 */
export function createPairing(
  relayUrl: string,
  options: { expiryTimestamp?: number } = {},
): Pairing {
  const problem = relayUrlProblem(relayUrl)
  if (problem !== null) throw pairingError('Invalid pairing URI input', 'relayUrl', problem)
  const pairingTopic = bytesToHex(randomBytes(32))
  const symKeyP = randomBytes(32)
  const uri = buildPairingUri(pairingTopic, symKeyP, relayUrl, options.expiryTimestamp)
  return {
    pairingTopic,
    symKeyP,
    uri,
    ...(options.expiryTimestamp === undefined ? {} : { expiryTimestamp: options.expiryTimestamp }),
  }
}
