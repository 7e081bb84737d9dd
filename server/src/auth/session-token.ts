import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, base64url: the bearer credential of one session. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url')

/** Only this hash is stored, so a store dump does not hand out live sessions. */
export const hashSessionToken = (token: string): string => hash('sha256', token, 'hex')

/**
 * Constant time: compares the fixed-length hashes (hex), never the raw tokens. Callers hash the
 * presented token once with `hashSessionToken`: hex out of `crypto.hash` is also the cheapest
 * digest to get (a Buffer result costs more than decoding the hex).
 */
export function sessionTokenHashMatches(givenHash: string, storedHash: string): boolean {
  const given = Buffer.from(givenHash, 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === given.length && timingSafeEqual(given, stored)
}

/** The token of `Authorization: Bearer <token>`, or undefined when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)
  return match?.[1]
}
