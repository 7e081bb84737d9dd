import { randomBytes } from 'node:crypto'
import type { SessionRecord } from '../../src/store/types'

export function sessionRecord(now: number, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sessionId: randomBytes(16).toString('base64url'),
    projectId: 'proj_test',
    tokenHash: randomBytes(32).toString('hex'),
    nonce: randomBytes(16).toString('hex'),
    caip2Chain: 'eip155:1',
    walletSlug: null,
    intent: 'connect',
    status: 'pending',
    walletAddress: null,
    signature: null,
    txSignature: null,
    errorCode: null,
    nonceUsed: false,
    createdAt: now,
    expiresAt: now + 600_000,
    version: 1,
    ...overrides,
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Settles to the promise's outcome, or to 'hung' if it takes longer than `boundMs`. */
export function withinBound<T>(promise: Promise<T>, boundMs = 5_000): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), boundMs)
  })
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer))
}
