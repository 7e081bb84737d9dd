import { invalidArgument as invalid } from '../errors/arguments'

/**
 * The message a wallet signs for a session: JSON with the keys in the fixed order session, nonce,
 * walletAddress, timestamp (milliseconds). The backend rebuilds it with this same function.
 *
 * @throws AppError `INVALID_CONFIG` naming the argument when `session`, `nonce` or `walletAddress`
 * is not a string, or `timestamp` is not a finite number.
 */
export function buildSignedMessageEnvelope(
  session: string,
  nonce: string,
  walletAddress: string,
  timestamp: number,
): string {
  const texts = { session, nonce, walletAddress }
  for (const field of ['session', 'nonce', 'walletAddress'] as const) {
    if (typeof texts[field] !== 'string') throw invalid(field, 'must be a string')
  }
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) {
    throw invalid('timestamp', 'must be a finite number (milliseconds)')
  }
  return JSON.stringify({ session, nonce, walletAddress, timestamp })
}

/** How far a signed timestamp may stray from server time: 5 minutes (a literal: bundlers drop it when unused). */
export const SIGNATURE_TIMESTAMP_TOLERANCE_MS = 300_000
