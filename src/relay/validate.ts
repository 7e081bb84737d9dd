import { AppError } from '../errors'

/** 32 bytes as 64 lower-case hex digits. */
export const PAIRING_TOPIC_PATTERN = /^[0-9a-f]{64}$/

/**
 * C0 controls, space and DEL: the WHATWG URL parser silently drops or rejects these, so a relay URL
 * holding one would not be the URL the caller thinks it is.
 */
function hasControlOrSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return true
  }
  return false
}

/** An `INVALID_CONFIG` error naming the broken part in `details` and in the message. */
export function pairingError(context: string, field: string, reason: string): AppError {
  return new AppError('INVALID_CONFIG', `${context} (${field}).`, {
    details: [{ field, reason }],
  })
}

/**
 * The reason `relayUrl` is not a usable relay URL, or `null` when it is: a string beginning with
 * `ws://` or `wss://` (lower case), parseable by `URL`, with a host, without credentials, fragment,
 * whitespace or control characters, and well-formed UTF-16 (so that it can be percent-encoded).
 */
export function relayUrlProblem(relayUrl: unknown): string | null {
  if (typeof relayUrl !== 'string') return 'must be a string'
  if (!relayUrl.startsWith('ws://') && !relayUrl.startsWith('wss://')) {
    return 'must begin with ws:// or wss://'
  }
  if (hasControlOrSpace(relayUrl)) return 'must not contain whitespace or control characters'
  if (relayUrl.includes('#')) return 'must not have a fragment (WebSocket URLs cannot)'
  try {
    encodeURIComponent(relayUrl)
  } catch {
    return 'must be well-formed Unicode'
  }
  let parsed: URL
  try {
    parsed = new URL(relayUrl)
  } catch {
    return 'is not a parseable URL'
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    return 'must begin with ws:// or wss://'
  }
  if (parsed.hostname === '') return 'must name a host'
  if (parsed.username !== '' || parsed.password !== '') {
    return 'must not carry credentials (the URI is shown as a QR code)'
  }
  return null
}
