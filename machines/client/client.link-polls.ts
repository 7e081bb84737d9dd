import type { AnyActorRef } from 'xstate'
import type { ErrorData } from '../shared/error-data'
import type { LinkPollTrouble } from './client.types'

/**
 * Issue 27 (small ones): a universal-link flow whose result polls kept failing until the root's
 * deadline must not end as "The wallet did not answer in time": the wallet may have answered and
 * the backend (or the way to it) lost the answer. These read the poller's state from the
 * `universalLink` child's snapshot (public snapshot data only: `children`, `context`) and build the
 * timeout's message. Neither reads a secret: only counts and HTTP status codes reach the message.
 */

/** The poller's counters, as far as they are known (its context is JSON; nothing else is read). */
interface PollContext {
  failures?: unknown
  lastError?: Partial<ErrorData> | null
}

/** What the last failed poll met, without the backend's words (a message could carry anything). */
function describeFailure(error: Partial<ErrorData>): string {
  const status = error.status
  if (typeof status !== 'number') return 'no answer from the backend'
  if (status >= 200 && status < 300) return `an invalid answer (HTTP ${status})`
  return `HTTP ${status}`
}

/**
 * The trouble of the `universalLink` child's poll in progress: how many polls in a row failed and
 * what the last one met; null while the last poll succeeded (or none runs).
 */
export function linkPollTrouble(linkSnapshot: {
  children?: Record<string, AnyActorRef | undefined>
}): LinkPollTrouble | null {
  const poll = linkSnapshot.children?.poll?.getSnapshot() as { context?: PollContext } | undefined
  const lastError = poll?.context?.lastError
  if (!lastError) return null
  const failures = poll?.context?.failures
  return {
    failed: typeof failures === 'number' && failures > 0 ? failures : 1,
    last: describeFailure(lastError),
  }
}

/**
 * The pairing's relay connection is down (its `relayError`, cleared when online): what the last
 * attempt met (`HTTP 503` from the relay token's backend, or `the relay did not answer`); null while
 * it is not known to fail.
 */
export function relayDownReason(pairingContext: {
  relayError?: Partial<ErrorData> | null
}): string | null {
  const error = pairingContext.relayError
  if (!error) return null
  return typeof error.status === 'number' ? describeFailure(error) : 'the relay did not answer'
}

/**
 * The `TIMEOUT` of a relay wait: `walletMessage` while the relay connection is up, else that the
 * relay did not deliver the wallet's `what` (`answer to the pairing`, `signature`).
 */
export function relayTimeoutError(
  down: string | null | undefined,
  what: string,
  walletMessage: string,
): ErrorData {
  if (!down) return { code: 'TIMEOUT', message: walletMessage }
  return {
    code: 'TIMEOUT',
    message: `The relay did not deliver the wallet's ${what} in time (the connection to the relay is down; last: ${down}).`,
  }
}

/**
 * The `TIMEOUT` of a universal-link wait: `walletMessage` when the polls succeeded ("pending")
 * up to the deadline, else what did not answer: the backend, with the polls that failed.
 */
export function linkTimeoutError(
  trouble: LinkPollTrouble | null | undefined,
  what: 'answer' | 'signature',
  walletMessage: string,
): ErrorData {
  if (!trouble) return { code: 'TIMEOUT', message: walletMessage }
  const polls = trouble.failed === 1 ? '1 poll failed' : `${trouble.failed} polls failed`
  return {
    code: 'TIMEOUT',
    message: `The backend did not return the wallet's ${what} in time (${polls}; last: ${trouble.last}).`,
  }
}
