import { assign, type DoneActorEvent, type ErrorActorEvent, fromPromise, setup } from 'xstate'
import type { ErrorData } from '../shared/error-data'
import { notProvided } from '../shared/not-provided'
import {
  backoffDelay,
  initialContext,
  intervalDelay,
  isGoneFailure,
  isTransientFailure,
  nextPollDelay,
  toPollFailure,
} from './session-polling.logic'
import type {
  CreatedSession,
  CreateSessionParams,
  FetchResultInput,
  FetchResultOutput,
  PollFailure,
  SessionPollingContext,
  SessionPollingEvent,
  SessionPollingInput,
  SessionPollingOutput,
} from './session-polling.types'

type AnyEvent = SessionPollingEvent | { type: string }
const doneOutput = <T>(event: AnyEvent) => (event as DoneActorEvent<T>).output
const fetched = (event: AnyEvent) => doneOutput<FetchResultOutput>(event)
const failure = (event: AnyEvent, context: SessionPollingContext): PollFailure =>
  toPollFailure((event as ErrorActorEvent).error, context)
/** When the event reports its observation time (done or error of an actor). */
const observedAt = (event: AnyEvent, context: SessionPollingContext): number => {
  const e = event as Partial<DoneActorEvent<{ at?: unknown }> & ErrorActorEvent>
  const at = e.output?.at ?? (e.error as { at?: unknown } | undefined)?.at
  return typeof at === 'number' ? at : context.clock
}

function errorData(code: ErrorData['code'], message: string, from?: ErrorData | null): ErrorData {
  const data: ErrorData = { code, message }
  if (from?.status !== undefined) data.status = from.status
  if (from?.backendCode !== undefined) data.backendCode = from.backendCode
  return data
}

// The poll loop's transitions, shared by `waiting` and `connected`: every answer is first checked
// for an end (in this order), and every failed fetch is sorted into give up, wait, or fail.
const ENDS_ON_RESULT = [
  {
    guard: 'isSignedTargetReached',
    target: '#sessionPolling.signed',
    actions: 'recordResult',
  },
  {
    guard: 'isOtherTargetReached',
    target: '#sessionPolling.complete',
    actions: 'recordResult',
  },
  {
    guard: 'isRejected',
    target: '#sessionPolling.rejected',
    actions: ['recordResult', 'assignRejected'],
  },
  {
    guard: 'isFailedStatus',
    target: '#sessionPolling.failed',
    actions: ['recordResult', 'assignFailedStatus'],
  },
  {
    guard: 'isExpiredStatus',
    target: '#sessionPolling.expired',
    actions: ['recordResult', 'assignSessionExpired'],
  },
  {
    guard: 'isPastDeadline',
    target: '#sessionPolling.expired',
    actions: ['recordResult', 'assignDeadlinePassed'],
  },
  {
    guard: 'isAttemptCapReached',
    target: '#sessionPolling.expired',
    actions: ['recordResult', 'assignAttemptCapReached'],
  },
] as const

const POLL_AGAIN = { target: 'sleeping', actions: ['recordResult', 'scheduleNextPoll'] } as const

const ON_FETCH_ERROR = [
  {
    guard: 'isSessionGone',
    target: '#sessionPolling.expired',
    actions: ['recordFailure', 'assignGone'],
  },
  {
    guard: 'isPastDeadline',
    target: '#sessionPolling.expired',
    actions: ['recordFailure', 'assignDeadlinePassed'],
  },
  {
    guard: 'isAttemptCapReached',
    target: '#sessionPolling.expired',
    actions: ['recordFailure', 'assignAttemptCapReached'],
  },
  {
    guard: 'isRateLimited',
    target: 'sleeping',
    actions: ['recordFailure', 'scheduleRateLimitWait'],
  },
  {
    guard: 'isTransient',
    target: 'sleeping',
    actions: ['recordFailure', 'scheduleBackoff'],
  },
  {
    target: '#sessionPolling.failed',
    actions: ['recordFailure', 'assignFetchFailure'],
  },
] as const

/**
 * The generic-session polling chart. Pure: the `createSession` and `fetchResult` actors are provided
 * (see `createSessionPollingActors`), the clock and the jitter arrive in their outputs, and the
 * session token never enters the context.
 *
 * starting → creating → waiting (fetching ↔ sleeping) → connected (fetching ↔ sleeping) → signed;
 * `complete` when the target is `connected`; terminal `rejected`, `failed`, `expired`, `cancelled`.
 */
export const sessionPollingMachine = setup({
  types: {} as {
    context: SessionPollingContext
    events: SessionPollingEvent
    input: SessionPollingInput
    output: SessionPollingOutput
    tags: 'resumable' | 'polling'
  },
  actors: {
    createSession: fromPromise<CreatedSession, CreateSessionParams>(
      notProvided('createSession', 'machine.provide or the factory'),
    ),
    fetchResult: fromPromise<FetchResultOutput, FetchResultInput>(
      notProvided('fetchResult', 'machine.provide or the factory'),
    ),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    isSignedTargetReached: ({ context, event }) => {
      const { result } = fetched(event)
      return context.target === 'signed' && (result.status === 'signed' || result.signed)
    },
    isOtherTargetReached: ({ context, event }) => {
      const { result } = fetched(event)
      if (context.target === 'transaction') return result.txSignature !== null
      return context.target === 'connected' && (result.connected || result.signed)
    },
    isConnected: ({ event }) => fetched(event).result.connected,
    isRejected: ({ event }) => fetched(event).result.status === 'rejected',
    isFailedStatus: ({ event }) => fetched(event).result.status === 'failed',
    isExpiredStatus: ({ event }) => fetched(event).result.status === 'expired',
    isPastDeadline: ({ context, event }) => observedAt(event, context) >= context.deadline,
    isAttemptCapReached: ({ context }) => context.attempts + 1 >= context.maxAttempts,
    isSessionGone: ({ context, event }) => isGoneFailure(failure(event, context)),
    isRateLimited: ({ context, event }) => failure(event, context).status === 429,
    isTransient: ({ context, event }) => isTransientFailure(failure(event, context)),
  },
  actions: {
    assignCreatedSession: assign(({ context, event }) => {
      const { session, at } = doneOutput<CreatedSession>(event)
      return {
        session: { ...session },
        clock: at,
        deadline:
          session.expiresAt === undefined
            ? context.deadline
            : Math.min(context.deadline, session.expiresAt),
      }
    }),
    assignCreateError: assign(({ context, event }) => {
      const f = failure(event, context)
      return { clock: f.at, error: errorData(f.code, f.message, f) }
    }),
    recordResult: assign(({ context, event }) => {
      const { result, at } = fetched(event)
      return {
        result: { ...result },
        clock: at,
        attempts: context.attempts + 1,
        failures: 0,
        lastError: null,
        deadline:
          result.expiresAt === undefined
            ? context.deadline
            : Math.min(context.deadline, result.expiresAt),
      }
    }),
    recordFailure: assign(({ context, event }) => {
      const f = failure(event, context)
      const { at: _at, jitter: _jitter, ...data } = f
      return { clock: f.at, attempts: context.attempts + 1, lastError: data }
    }),
    scheduleNextPoll: assign(({ context, event }) => ({
      nextDelayMs: nextPollDelay(context.interval, fetched(event)),
    })),
    scheduleBackoff: assign(({ context, event }) => {
      const failures = context.failures + 1
      return { failures, nextDelayMs: backoffDelay(failures, failure(event, context).jitter) }
    }),
    scheduleRateLimitWait: assign(({ context, event }) => {
      const f = failure(event, context)
      const normal = intervalDelay(context.interval, f.jitter)
      if (f.retryAfterMs === undefined) {
        const failures = context.failures + 1
        return { failures, nextDelayMs: Math.max(normal, backoffDelay(failures, f.jitter)) }
      }
      return { nextDelayMs: Math.max(normal, f.retryAfterMs) }
    }),
    assignRejected: assign(({ event }) => {
      const { result } = fetched(event)
      return {
        error: {
          code: 'USER_REJECTED' as const,
          message: 'The user rejected the request in the wallet.',
          ...(result.errorCode ? { backendCode: result.errorCode } : {}),
        },
      }
    }),
    assignFailedStatus: assign(({ event }) => {
      const { result } = fetched(event)
      return {
        error: {
          code: 'SESSION_FAILED' as const,
          message: `The wallet reported a failure${result.errorCode ? ` (${result.errorCode})` : ''}.`,
          ...(result.errorCode ? { backendCode: result.errorCode } : {}),
        },
      }
    }),
    assignSessionExpired: assign(({ context }) => ({
      error: errorData(
        'SESSION_EXPIRED',
        'The session expired before it completed.',
        context.lastError,
      ),
    })),
    assignGone: assign(({ context, event }) => ({
      error: errorData(
        'SESSION_EXPIRED',
        'The session expired before it completed.',
        failure(event, context),
      ),
    })),
    assignDeadlinePassed: assign(({ context }) => ({
      error: errorData(
        'SESSION_EXPIRED',
        `Polling passed its deadline${context.lastError ? ` (last error: ${context.lastError.message})` : ''}.`,
        context.lastError,
      ),
    })),
    assignAttemptCapReached: assign(({ context }) => ({
      error: errorData(
        'SESSION_EXPIRED',
        `Polling stopped after ${context.maxAttempts} attempts.`,
        context.lastError,
      ),
    })),
    assignFetchFailure: assign(({ context, event }) => {
      const { at: _at, jitter: _jitter, ...data } = failure(event, context)
      return { error: data }
    }),
    assignCancelled: assign({
      error: { code: 'ABORTED' as const, message: 'Polling was cancelled.' },
    }),
  },
  delays: {
    /** The chosen wait, clamped so the last lookup happens at the deadline, not after it. */
    pollDelay: ({ context }) =>
      Math.max(0, Math.min(context.nextDelayMs, context.deadline - context.clock)),
  },
}).createMachine({
  id: 'sessionPolling',
  context: ({ input }) => initialContext(input),
  initial: 'starting',
  on: {
    CANCEL: { target: '.cancelled', actions: 'assignCancelled' },
  },
  states: {
    starting: {
      description: 'Uses the given session, or creates one.',
      always: [{ guard: 'hasSession', target: 'waiting' }, { target: 'creating' }],
    },
    creating: {
      invoke: {
        id: 'createSession',
        src: 'createSession',
        input: ({ context }) => context.create ?? { caip2Chain: '' },
        onDone: { target: 'waiting', actions: 'assignCreatedSession' },
        onError: { target: 'failed', actions: 'assignCreateError' },
      },
    },
    waiting: {
      description: 'Session pending: the wallet has not connected yet.',
      tags: ['resumable', 'polling'],
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'fetchResult',
            src: 'fetchResult',
            input: ({ context }) => ({
              sessionId: context.session?.sessionId ?? '',
              deadline: context.deadline,
            }),
            onDone: [
              ...ENDS_ON_RESULT,
              {
                guard: 'isConnected',
                target: '#sessionPolling.connected.sleeping',
                actions: ['recordResult', 'scheduleNextPoll'],
              },
              POLL_AGAIN,
            ],
            onError: ON_FETCH_ERROR,
          },
        },
        sleeping: {
          after: { pollDelay: 'fetching' },
          on: { POLL_NOW: 'fetching' },
        },
      },
    },
    connected: {
      description: 'The wallet connected; waiting for its verified signature (or transaction).',
      tags: ['resumable', 'polling'],
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'fetchResult',
            src: 'fetchResult',
            input: ({ context }) => ({
              sessionId: context.session?.sessionId ?? '',
              deadline: context.deadline,
            }),
            onDone: [...ENDS_ON_RESULT, POLL_AGAIN],
            onError: ON_FETCH_ERROR,
          },
        },
        sleeping: {
          after: { pollDelay: 'fetching' },
          on: { POLL_NOW: 'fetching' },
        },
      },
    },
    signed: { type: 'final', description: 'The backend verified the signature.' },
    complete: {
      type: 'final',
      description: 'The target `connected` (or `transaction`: a txSignature) was reached.',
    },
    rejected: { type: 'final' },
    failed: { type: 'final' },
    expired: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }): SessionPollingOutput =>
    context.error === null && context.result !== null && context.session !== null
      ? { ok: true, result: context.result, session: context.session }
      : {
          ok: false,
          error: context.error ?? {
            code: 'SESSION_FAILED',
            message: 'Polling ended without a result.',
          },
          result: context.result,
          session: context.session,
        },
})

/** The session-polling statechart's type (`typeof sessionPollingMachine`). */
export type SessionPollingMachine = typeof sessionPollingMachine
