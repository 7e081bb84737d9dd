import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, base64url: the bearer credential of one session. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url')

/** Only this hash is stored, so a store dump does not hand out live sessions. */
export const hashSessionToken = (token: string): string => hash('sha256', token, 'hex')

/** Constant time: compares fixed-length hashes, never the raw strings. */
export function sessionTokenMatches(token: string, storedHash: string): boolean {
  // One-shot hash: it runs on every poll, and a Hash object per call costs more than the digest.
  const given = hash('sha256', token, 'buffer')
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === given.length && timingSafeEqual(given, stored)
}

/** The token of `Authorization: Bearer <token>`, or undefined when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)
  return match?.[1]
}
