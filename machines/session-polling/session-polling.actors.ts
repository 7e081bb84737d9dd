import { fromPromise } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import type { GenericWalletSessionClient } from '../../src/session/client'
import { toErrorData } from '../shared/error-data'
import type {
  CreatedSession,
  CreateSessionParams,
  FetchResultInput,
  FetchResultOutput,
  PollFailure,
} from './session-polling.types'

/** The part of `GenericWalletSessionClient` the polling actors use. */
export type SessionPollingClient = Pick<GenericWalletSessionClient, 'createSession' | 'getResult'>

/**
 * Where the actors keep session tokens, keyed by session id, so the token never enters the machine's
 * context, events or snapshots. A persisting flow (universal links) may back it with its store.
 */
export interface SessionTokenVault {
  get(sessionId: string): string | undefined
  set(sessionId: string, token: string): void
  delete(sessionId: string): void
}

/** An in-memory vault (one per actor by default). */
export function createMemoryTokenVault(): SessionTokenVault {
  const tokens = new Map<string, string>()
  return {
    get: (id) => tokens.get(id),
    set: (id, token) => void tokens.set(id, token),
    delete: (id) => void tokens.delete(id),
  }
}

/** Sources of time and randomness; injectable for tests. */
export interface PollingEnvironment {
  /** Default `Date.now`. */
  now?: () => number
  /** Default `Math.random` (jitter only, not a secret). */
  random?: () => number
}

/**
 * The I/O actors of `sessionPollingMachine`, bound to a client and a token vault:
 * `createSession` creates the session and stores its token; `fetchResult` makes one lookup. Both
 * report the time (`at`) and a jitter draw; failures are thrown as JSON-safe `PollFailure`s.
 */
export function createSessionPollingActors(
  client: SessionPollingClient,
  vault: SessionTokenVault,
  env: PollingEnvironment = {},
) {
  const now = env.now ?? Date.now
  const random = env.random ?? Math.random
  const fail = (error: unknown): PollFailure => ({
    ...toErrorData(error, 'BACKEND_ERROR'),
    at: now(),
    jitter: random(),
  })
  return {
    createSession: fromPromise<CreatedSession, CreateSessionParams>(async ({ input }) => {
      try {
        const { sessionToken, ...session } = await client.createSession(input.caip2Chain, {
          ...(input.walletSlug === undefined ? {} : { walletSlug: input.walletSlug }),
          ...(input.intent === undefined ? {} : { intent: input.intent }),
        })
        vault.set(session.sessionId, sessionToken)
        return { session, at: now() }
      } catch (error) {
        throw fail(error)
      }
    }),
    fetchResult: fromPromise<FetchResultOutput, FetchResultInput>(async ({ input }) => {
      try {
        const token = vault.get(input.sessionId)
        if (token === undefined) {
          throw new AppError('INVALID_CONFIG', 'No session token is known for this session.')
        }
        const result = await client.getResult(input.sessionId, token)
        return { result, at: now(), jitter: random() }
      } catch (error) {
        throw fail(error)
      }
    }),
  }
}
