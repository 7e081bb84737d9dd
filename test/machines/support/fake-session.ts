import { AppError } from '../../../src/errors'
import type { GenericSession, GenericSessionResult } from '../../../src/session/types'

export const SESSION_ID = 'sess_BBBBBBBBBBBBBBBBBBBBBB'
export const TOKEN = 'tok_secret_TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT'
export const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const SIGNATURE = `0x${'cd'.repeat(65)}`

export function result(
  status: GenericSessionResult['status'],
  extra: Partial<GenericSessionResult> = {},
): GenericSessionResult {
  const connected = status === 'connected' || status === 'signed'
  return {
    sessionId: SESSION_ID,
    status,
    connected,
    signed: status === 'signed',
    walletAddress: connected ? ADDRESS : null,
    signature: status === 'signed' ? SIGNATURE : null,
    txSignature: null,
    errorCode:
      status === 'rejected' ? 'USER_REJECTED' : status === 'failed' ? 'WALLET_ERROR' : null,
    ...extra,
  }
}

export const http = (status: number, backendCode: string, retryAfterMs?: number) =>
  new AppError('BACKEND_ERROR', `HTTP ${status} ${backendCode}`, {
    status,
    backendCode,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  })
export const network = () => new AppError('BACKEND_ERROR', 'fetch failed (ECONNREFUSED)')

type Step = GenericSessionResult | AppError | (() => GenericSessionResult | AppError)

/**
 * A session client whose `getResult` answers from a script (the last step repeats) and records the
 * fake-clock time and token of every call.
 */
export function scriptedClient(steps: Step[]) {
  const calls: { at: number; token: string }[] = []
  let created = 0
  return {
    calls,
    get created() {
      return created
    },
    async createSession(): Promise<GenericSession> {
      created += 1
      return {
        sessionId: SESSION_ID,
        nonce: 'n'.repeat(32),
        sessionToken: TOKEN,
        expiresAt: Date.now() + 600_000,
      }
    },
    async getResult(sessionId: string, token: string): Promise<GenericSessionResult> {
      if (sessionId !== SESSION_ID) throw http(404, 'SESSION_NOT_FOUND')
      calls.push({ at: Date.now(), token })
      const raw = steps[Math.min(calls.length - 1, steps.length - 1)]
      const step = typeof raw === 'function' ? raw() : raw
      if (step instanceof Error) throw step
      return { ...(step as GenericSessionResult), expiresAt: Date.now() + 600_000 }
    },
  }
}

/** Gaps between consecutive calls, in ms of the fake clock. */
export const gaps = (calls: { at: number }[]) => calls.slice(1).map((c, i) => c.at - calls[i]!.at)
