/**
 * The message a wallet signs for a session: JSON with the keys in the fixed order session, nonce,
 * walletAddress, timestamp (milliseconds). The backend rebuilds it with this same function.
 */
export function buildSignedMessageEnvelope(
  session: string,
  nonce: string,
  walletAddress: string,
  timestamp: number,
): string {
  return JSON.stringify({ session, nonce, walletAddress, timestamp })
}

/** How far a signed timestamp may stray from server time: 5 minutes (a literal: bundlers drop it when unused). */
export const SIGNATURE_TIMESTAMP_TOLERANCE_MS = 300_000
