import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 32 random bytes, base64url: the bearer credential of one session. */
export const newSessionToken = (): string => randomBytes(32).toString('base64url')

/** Only this hash is stored, so a store dump does not hand out live sessions. */
export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex')

/** Constant time: compares fixed-length hashes, never the raw strings. */
export function sessionTokenMatches(token: string, storedHash: string): boolean {
  const given = createHash('sha256').update(token, 'utf8').digest()
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === given.length && timingSafeEqual(given, stored)
}

/** The token of `Authorization: Bearer <token>`, or undefined when the header is absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)
  return match?.[1]
}
