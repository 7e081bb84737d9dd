import { invalidArgument, isObject, requireString } from '../../src/errors/arguments'
import type { SignRequest } from './sign.types'

// Apart from the sign actors: the `Client` builds its requests up front, while the actors load
// with the first desktop connector.

/**
 * UTF-8 text as `0x…` hex, the form `personal_sign` expects.
 * @throws `INVALID_CONFIG` when `text` is not a string.
 */
export function utf8ToHex(text: string): `0x${string}` {
  requireString(text, 'utf8ToHex: text')
  return toHex(text)
}

function toHex(text: string): `0x${string}` {
  let hex = '0x'
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0')
  return hex as `0x${string}`
}

/**
 * The longest message `signMessage` signs: 65,536 characters of text, or 65,536 bytes of `raw`
 * hex (`0x` and 131,072 hex digits); longer ones are refused with `INVALID_CONFIG`.
 */
export const SIGN_MESSAGE_MAX_LENGTH = 65_536

/**
 * A message to sign: text (signed as its UTF-8 bytes), or `{ raw }`, the bytes themselves as hex
 * (EVM only), as viem's `signMessage` takes them.
 */
export type SignableMessage = string | { raw: `0x${string}` }

/**
 * `personal_sign` of `message` (text as UTF-8, or `{ raw }` bytes) by `address`.
 * @throws `INVALID_CONFIG` when `message` is neither a string nor `{ raw: string }`, or `address`
 * is not a string.
 */
export function personalSignRequest(message: SignableMessage, address: string): SignRequest {
  if (typeof message !== 'string' && !(isObject(message) && typeof message.raw === 'string'))
    throw invalidArgument('personalSignRequest: message', 'must be a string or { raw: `0x…` }')
  requireString(address, 'personalSignRequest: address')
  return signRequest(message, address)
}

/** `personalSignRequest` without the argument checks, for the `Client` (it checks `message` itself). */
export function signRequest(message: SignableMessage, address: string): SignRequest {
  const data = typeof message === 'string' ? toHex(message) : message.raw
  return { method: 'personal_sign', params: [data, address] }
}
