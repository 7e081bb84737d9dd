import type { PollingEnvironment } from '../../../machines/session-polling/session-polling.actors'
import { createSessionPollingActor } from '../../../machines/session-polling/session-polling.facade'
import type { PollTarget } from '../../../machines/session-polling/session-polling.types'
import { toAppError } from '../../../machines/shared/error-data'
import type { InspectionOptions } from '../../../machines/shared/inspect'
import { AppError } from '../../errors/app-error'
import { invalidArgument, isObjectLike, optionsObject } from '../../errors/arguments'
import { createLogger } from '../../logging'
import type { GenericWalletSessionClient } from '../client'
import { checkedSessionResult, checkedWatch } from '../result-answers'
import type { GenericSessionResult } from '../types'

const log = /* @__PURE__ */ createLogger('session')

/** Options of `pollGenericSessionResult`: cadence, deadline, attempt cap, target status, cancellation, updates. */
export interface PollGenericSessionOptions extends InspectionOptions, PollingEnvironment {
  /** Delay between lookups: `[min, max]` ms with jitter, or a fixed value. Default 1500–2000. */
  intervalMs?: readonly [number, number] | number
  /** Overall deadline from the call; default 600 000 ms, further capped by the session's `expiresAt`. */
  timeoutMs?: number
  /** Lookup cap; default 600. */
  maxAttempts?: number
  /** What counts as complete; default `signed` (pass `connected` for connect-only sessions). */
  until?: PollTarget
  /** Aborting rejects with `ABORTED` and stops polling at once. */
  signal?: AbortSignal
  /** Called with each result whose status differs from the previous one. Errors thrown are ignored. */
  onUpdate?: (result: GenericSessionResult) => void
  /**
   * Default `true`: long-poll when the backend offers it (and `client` has `watchResult`). `false`
   * polls at `intervalMs` only, e.g. behind a proxy that cuts requests held for 25 s.
   */
  longPoll?: boolean
}

/**
 * Repeats `client.getResult(sessionId, sessionToken)` (every 1.5–2 s by default) until the session
 * is complete, by running the `sessionPolling` machine. When the backend offers a long-poll
 * (`X-Long-Poll-Max-Ms`) and the client has `watchResult`, each lookup waits there for the next
 * change instead, so a change is seen within milliseconds; lookups still start at most once per
 * interval (the same request budget).
 *
 * Resolves with the result when the target is reached. Rejects with `AppError`:
 * `SESSION_EXPIRED` (session expired, 410, deadline or attempt cap reached), `USER_REJECTED` (status
 * `rejected`), `SESSION_FAILED` (status `failed`), `ABORTED` (`signal` aborted), `BACKEND_ERROR`
 * (a non-retryable backend answer such as 401 or 404), `WALLET_ERROR` (the result reports a wallet
 * answer that is not valid: an address, signature or transaction signature of the wrong form, see
 * docs/connectors.md). Network failures, timeouts and 5xx are retried
 * with exponential backoff (1 s … 30 s); 429 waits for `Retry-After`. `INVALID_CONFIG` (naming
 * the argument) when `client` has no `getResult()`, `sessionId` or `sessionToken` is not a
 * non-empty string, or `options` (its `signal`, `onUpdate`) is not of the documented type.
 */
export function pollGenericSessionResult(
  client: Pick<GenericWalletSessionClient, 'getResult'> &
    Partial<Pick<GenericWalletSessionClient, 'watchResult'>>,
  sessionId: string,
  sessionToken: string,
  options: PollGenericSessionOptions = {},
): Promise<GenericSessionResult> {
  return new Promise((resolve, reject) => {
    checkPollArguments(client, sessionId, sessionToken)
    options = optionsObject<PollGenericSessionOptions>(options, 'options')
    if (options.signal !== undefined && typeof options.signal?.addEventListener !== 'function') {
      throw invalidArgument('options.signal', 'must be an AbortSignal')
    }
    if (options.onUpdate !== undefined && typeof options.onUpdate !== 'function') {
      throw invalidArgument('options.onUpdate', 'must be a function')
    }
    if (options.signal?.aborted) {
      reject(new AppError('ABORTED', 'Polling was cancelled.', { cause: options.signal.reason }))
      return
    }
    const actor = createSessionPollingActor(
      {
        // The wallet's answers the backend reports are checked as every wallet answer is.
        getResult: async (id, token) => checkedSessionResult(await client.getResult(id, token)),
        ...(client.watchResult && options.longPoll !== false
          ? { watchResult: checkedWatch(client.watchResult.bind(client)) }
          : {}),
        createSession: unsupportedCreate,
      },
      {
        session: { sessionId, sessionToken },
        target: options.until ?? 'signed',
        ...(options.intervalMs === undefined ? {} : { pollIntervalMs: options.intervalMs }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
        ...(options.now === undefined ? {} : { now: options.now }),
        ...(options.random === undefined ? {} : { random: options.random }),
        ...(options.inspect === undefined ? {} : { inspect: options.inspect }),
        ...(options.sanitizeInspection === undefined
          ? {}
          : { sanitizeInspection: options.sanitizeInspection }),
      },
    )
    const onAbort = () => actor.send({ type: 'CANCEL' })
    let lastStatus: string | undefined
    actor.subscribe({
      next(snapshot) {
        const { result } = snapshot.context
        if (result && result.status !== lastStatus) {
          lastStatus = result.status
          try {
            options.onUpdate?.(result)
          } catch (error) {
            log.warn('onUpdate threw; polling continues', error)
          }
        }
        if (snapshot.status !== 'done') return
        options.signal?.removeEventListener('abort', onAbort)
        const output = snapshot.output
        if (output?.ok) resolve(output.result)
        else reject(toAppError(output?.error ?? { code: 'SESSION_FAILED', message: 'No result.' }))
      },
      error(error) {
        options.signal?.removeEventListener('abort', onAbort)
        reject(new AppError('SESSION_FAILED', 'Polling stopped unexpectedly.', { cause: error }))
      },
    })
    options.signal?.addEventListener('abort', onAbort, { once: true })
    actor.start()
  })
}

/** @throws AppError `INVALID_CONFIG` naming the first argument that is not of its type. */
function checkPollArguments(client: unknown, sessionId: unknown, sessionToken: unknown): void {
  if (!isObjectLike(client) || typeof client.getResult !== 'function') {
    throw invalidArgument('client', 'must have getResult()')
  }
  if (client.watchResult !== undefined && typeof client.watchResult !== 'function') {
    throw invalidArgument('client.watchResult', 'must be a function')
  }
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw invalidArgument('sessionId', 'must be a non-empty string')
  }
  if (typeof sessionToken !== 'string' || sessionToken === '') {
    throw invalidArgument('sessionToken', 'must be a non-empty string')
  }
}

async function unsupportedCreate(): Promise<never> {
  throw new AppError('INVALID_CONFIG', 'pollGenericSessionResult never creates sessions.')
}
