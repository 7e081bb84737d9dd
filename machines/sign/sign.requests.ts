import type { SignRequest } from './sign.types'

// Apart from the sign actors: the `Client` builds its requests up front, while the actors load
// with the first desktop connector.

/** UTF-8 text as `0x…` hex, the form `personal_sign` expects. */
export function utf8ToHex(text: string): `0x${string}` {
  let hex = '0x'
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0')
  return hex as `0x${string}`
}

/** `personal_sign` of `message` by `address`. */
export function personalSignRequest(message: string, address: string): SignRequest {
  return { method: 'personal_sign', params: [utf8ToHex(message), address] }
}
