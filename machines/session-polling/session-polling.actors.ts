import { fromPromise } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import { requireFunction, requireObject } from '../../src/errors/arguments'
import type { GenericWalletSessionClient } from '../../src/session/client'
import type { GenericSessionResult } from '../../src/session/types'
import { toErrorData } from '../shared/error-data'
import { longPollWaitMs } from './session-polling.logic'
import type {
  CreatedSession,
  CreateSessionParams,
  FetchResultInput,
  FetchResultOutput,
  PollFailure,
} from './session-polling.types'

/**
 * The part of `GenericWalletSessionClient` the polling actors use. With `watchResult` they
 * long-poll when the backend offers it (`X-Long-Poll-Max-Ms`); without it they poll.
 */
export type SessionPollingClient = Pick<GenericWalletSessionClient, 'createSession' | 'getResult'> &
  Partial<Pick<GenericWalletSessionClient, 'watchResult'>>

/** What the actors remember of a session between lookups (never in the machine's context). */
interface Watched {
  etag: string | undefined
  result: GenericSessionResult
  longPollMaxMs: number | undefined
}

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
 *
 * Long-poll: when the client has `watchResult` and the backend's last answer offered a long-poll,
 * `fetchResult` sends the last ETag and waits up to the offer (capped by the machine's deadline);
 * the backend answers as soon as the session changes. It reports news (`pushed`: the first answer
 * or a new state; the machine looks again at once) and how long it was held (`heldMs`; the
 * interval is shortened by it), see `nextPollDelay`. Otherwise (an older backend, a client
 * without `watchResult`) it is one plain lookup at the interval.
 * @throws `INVALID_CONFIG` when `client`, `vault` or `env` is not an object, or `env.now` /
 * `env.random` is given and not a function.
 */
export function createSessionPollingActors(
  client: SessionPollingClient,
  vault: SessionTokenVault,
  env: PollingEnvironment = {},
) {
  const fn = 'createSessionPollingActors'
  // (checked as unknown: the parameters keep their types)
  requireObject(client as unknown, `${fn}: client`)
  requireObject(vault as unknown, `${fn}: vault`)
  requireObject(env as unknown, `${fn}: env`)
  requireFunction(env.now, `${fn}: env.now`, true)
  requireFunction(env.random, `${fn}: env.random`, true)
  const now = env.now ?? Date.now
  const random = env.random ?? Math.random
  const fail = (error: unknown): PollFailure => ({
    ...toErrorData(error, 'BACKEND_ERROR'),
    at: now(),
    jitter: random(),
  })
  const watched = new Map<string, Watched>()
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
        if (!client.watchResult) {
          const result = await client.getResult(input.sessionId, token)
          return { result, at: now(), jitter: random() }
        }
        const known = watched.get(input.sessionId)
        const started = now()
        const waitMs =
          known?.longPollMaxMs !== undefined && known.etag !== undefined
            ? longPollWaitMs(known.longPollMaxMs, input.deadline, started)
            : 0
        // Not aborted when the machine stops: the backend ends the wait within LONG_POLL_MAX_MS
        // (at once when it shuts down), and Node's fetch opens a fresh, request-less connection
        // after an abort, which keeps a server's close() waiting until its header timeout.
        const answer = await client.watchResult(
          input.sessionId,
          token,
          waitMs > 0 && known ? { etag: known.etag, waitMs } : {},
        )
        const result = answer.changed ? answer.result : known?.result
        if (!result) throw new AppError('BACKEND_ERROR', 'The backend answered 304 to a lookup.')
        watched.set(input.sessionId, {
          etag: answer.etag,
          result,
          longPollMaxMs: answer.longPollMaxMs,
        })
        const at = now()
        const pushed =
          answer.longPollMaxMs !== undefined &&
          answer.changed &&
          (known === undefined || answer.etag !== known.etag)
        return { result, at, jitter: random(), heldMs: waitMs > 0 ? at - started : 0, pushed }
      } catch (error) {
        throw fail(error)
      }
    }),
  }
}
