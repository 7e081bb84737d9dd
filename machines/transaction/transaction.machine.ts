import { assign, fromPromise, setup } from 'xstate'
import type { AppErrorCode } from '../../src/errors/app-error'
import { type ErrorData, toErrorData } from '../shared/error-data'
import { finalStateOutput } from '../shared/final-state'
import { notProvided } from '../shared/not-provided'
import { walletErrorData } from '../shared/wallet-error-data'
import {
  DEFAULT_TRANSACTION_TIMEOUTS,
  MAX_STATUS_FAILURES,
  type ReadStatusInput,
  type StatusRead,
  type TransactionContext,
  type TransactionDeadlines,
  type TransactionEvent,
  type TransactionInput,
  type TransactionOutcome,
  type TransactionRequestData,
  type TransactionSummary,
} from './transaction.types'

const errorOf = ({ event }: { event: { error: unknown } }) => event.error
const outputOf = <T>({ event }: { event: { output: T } }) => event.output
const err = (code: AppErrorCode, message: string): ErrorData => ({ code, message })

/** The output of the final state `outcome`: the transaction ends so, with its receipt summary. */
const ended =
  (outcome: TransactionOutcome) =>
  ({ context }: { context: TransactionContext }): TransactionSummary => ({
    outcome,
    chainId: context.chainId,
    hash: context.hash,
    blockNumber: context.read?.blockNumber ?? null,
    confirmations: context.read?.confirmations ?? 0,
    replacedBy: context.read?.replacedBy ?? null,
    revertReason: context.read?.revertReason ?? null,
    error: context.error,
  })

/** The deadline a named wait runs to. */
type DeadlineName = keyof TransactionDeadlines

/**
 * A transaction from the wallet's answer to its receipt. Pure: `requestTransaction` (the wallet
 * signs and broadcasts; resolves with the hash) and `readStatus` (one long-polled
 * GET /transactions through the backend: no RPC in the dApp) are provided, and so is the clock
 * (`armDeadline` and the delays, see `transactionTimekeeping`).
 *
 * awaitingWallet → watching (submitted → pending → confirming) → confirmed | reverted | replaced |
 * dropped; rejected / failed / aborted before the wallet answered; a failed read backs off and
 * tries again, `MAX_STATUS_FAILURES` in a row fail the transaction. Watching is `resumable`: a
 * machine started with `submitted` picks the same transaction up after a reload.
 */
export const transactionMachine = setup({
  types: {
    context: {} as TransactionContext,
    events: {} as TransactionEvent,
    input: {} as TransactionInput,
    output: {} as TransactionSummary,
    tags: {} as 'busy' | 'cancellable' | 'resumable',
  },
  actors: {
    requestTransaction: fromPromise<string, TransactionRequestData>(
      notProvided('requestTransaction'),
    ),
    readStatus: fromPromise<StatusRead, ReadStatusInput>(notProvided('readStatus')),
  },
  delays: {
    // The chart keeps no clock: `transactionTimekeeping` counts these from the deadlines.
    walletAnswerMs: ({ context }) => context.timeouts.walletAnswerMs,
    receiptMs: ({ context }) => context.timeouts.receiptMs,
    notSeenMs: ({ context }) => context.timeouts.notSeenMs,
    retryMs: ({ context }) =>
      Math.min(context.timeouts.retryMs * 2 ** Math.max(0, context.failures - 1), 30_000),
  },
  guards: {
    isSubmitted: ({ context }) => context.hash !== null,
    isUserRejection: (_, error: unknown) => walletErrorData(error).code === 'USER_REJECTED',
    isConfirmedEnough: ({ context }, read: StatusRead) =>
      read.status === 'confirmed' && read.confirmations >= context.confirmationsWanted,
    isMined: (_, read: StatusRead) => read.status === 'confirmed',
    isReverted: (_, read: StatusRead) => read.status === 'reverted',
    isReplaced: (_, read: StatusRead) => read.status === 'unknown' && read.replacedBy !== null,
    isPending: (_, read: StatusRead) => read.status === 'pending',
    /** The node showed it pending before and knows it no more. */
    isDropped: ({ context }, read: StatusRead) => read.status === 'unknown' && context.seenPending,
    tooManyFailures: ({ context }) => context.failures >= MAX_STATUS_FAILURES,
  },
  actions: {
    /** Sets deadline `name` from now, on the provided clock (no-op here: the chart keeps none). */
    armDeadline: (_, _name: DeadlineName) => {},
    assignHash: assign({ hash: (_, hash: string) => hash }),
    assignRead: assign(({ context }, read: StatusRead) => ({
      read: { ...read },
      failures: 0,
      seenPending: context.seenPending || read.status === 'pending',
    })),
    assignReadFailure: assign(({ context }, error: unknown) => ({
      failures: context.failures + 1,
      error: toErrorData(error, 'RPC_ERROR'),
    })),
    clearError: assign({ error: null }),
    assignWalletError: assign({ error: (_, error: unknown) => walletErrorData(error) }),
    assignError: assign({ error: (_, error: ErrorData) => error }),
  },
}).createMachine({
  id: 'transaction',
  context: ({ input }) => ({
    request: input.request,
    chainId: input.submitted?.chainId ?? input.request?.chainId ?? '',
    flow: input.flow ?? null,
    confirmationsWanted: Math.max(1, input.confirmations ?? 1),
    timeouts: { ...DEFAULT_TRANSACTION_TIMEOUTS, ...input.timeouts },
    deadlines: input.submitted?.deadlines ?? { wallet: null, receipt: null, notSeen: null },
    hash: input.submitted?.hash ?? null,
    read: null,
    seenPending: false,
    failures: 0,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isSubmitted', target: 'watching' }, { target: 'awaitingWallet' }],
    },
    awaitingWallet: {
      description: 'The wallet is asked to sign and broadcast the transaction.',
      tags: ['busy', 'cancellable'],
      entry: { type: 'armDeadline', params: 'wallet' },
      invoke: {
        id: 'requestTransaction',
        src: 'requestTransaction',
        input: ({ context }) => context.request as TransactionRequestData,
        onDone: {
          target: 'watching',
          actions: [
            { type: 'assignHash', params: outputOf },
            { type: 'armDeadline', params: 'receipt' },
            { type: 'armDeadline', params: 'notSeen' },
          ],
        },
        onError: [
          {
            guard: { type: 'isUserRejection', params: errorOf },
            target: 'rejected',
            actions: { type: 'assignWalletError', params: errorOf },
          },
          {
            target: 'failed',
            actions: { type: 'assignWalletError', params: errorOf },
          },
        ],
      },
      after: {
        walletAnswerMs: {
          target: 'failed',
          actions: [
            {
              type: 'assignError',
              params: err('TIMEOUT', 'The wallet did not answer the transaction in time.'),
            },
          ],
        },
      },
      on: {
        CANCEL: {
          target: 'aborted',
          actions: { type: 'assignError', params: err('ABORTED', 'Cancelled.') },
        },
      },
    },
    watching: {
      description: 'The backend is asked where the transaction stands, a long-poll per head.',
      tags: ['resumable'],
      invoke: {
        id: 'readStatus',
        src: 'readStatus',
        input: ({ context }) => ({
          chainId: context.chainId,
          hash: context.hash ?? '',
          last: context.read,
        }),
        onDone: [
          {
            guard: { type: 'isConfirmedEnough', params: outputOf },
            target: 'confirmed',
            actions: [{ type: 'assignRead', params: outputOf }, 'clearError'],
          },
          {
            guard: { type: 'isReverted', params: outputOf },
            target: 'reverted',
            actions: [
              { type: 'assignRead', params: outputOf },
              {
                type: 'assignError',
                params: ({ event }) =>
                  err(
                    'TRANSACTION_REVERTED',
                    event.output.revertReason
                      ? `The transaction reverted: ${event.output.revertReason}`
                      : 'The transaction reverted.',
                  ),
              },
            ],
          },
          {
            guard: { type: 'isReplaced', params: outputOf },
            target: 'replaced',
            actions: [
              { type: 'assignRead', params: outputOf },
              {
                type: 'assignError',
                params: ({ event }) =>
                  err(
                    'TRANSACTION_REPLACED',
                    `The transaction was replaced by ${event.output.replacedBy}.`,
                  ),
              },
            ],
          },
          {
            guard: { type: 'isDropped', params: outputOf },
            target: 'dropped',
            actions: [
              { type: 'assignRead', params: outputOf },
              {
                type: 'assignError',
                params: err('TRANSACTION_DROPPED', 'The node dropped the pending transaction.'),
              },
            ],
          },
          {
            guard: { type: 'isMined', params: outputOf },
            target: '.confirming',
            reenter: true,
            actions: [{ type: 'assignRead', params: outputOf }, 'clearError'],
          },
          {
            guard: { type: 'isPending', params: outputOf },
            target: '.pending',
            reenter: true,
            actions: [{ type: 'assignRead', params: outputOf }, 'clearError'],
          },
          {
            target: '.submitted',
            reenter: true,
            actions: [{ type: 'assignRead', params: outputOf }, 'clearError'],
          },
        ],
        onError: { target: 'backoff', actions: { type: 'assignReadFailure', params: errorOf } },
      },
      after: {
        receiptMs: {
          target: 'failed',
          actions: {
            type: 'assignError',
            params: err('TIMEOUT', 'The transaction was not confirmed in time.'),
          },
        },
      },
      initial: 'submitted',
      states: {
        submitted: {
          description: 'The wallet answered with the hash; the node has not shown it yet.',
          after: {
            notSeenMs: {
              target: '#transaction.dropped',
              actions: {
                type: 'assignError',
                params: err('TRANSACTION_DROPPED', 'The node never showed the transaction.'),
              },
            },
          },
        },
        pending: { description: 'The node holds it, not yet in a block.' },
        confirming: { description: 'In a block, with fewer confirmations than wanted.' },
        previous: { type: 'history' },
      },
    },
    backoff: {
      description: 'A status read failed: wait, then read again (the backend or node may be back).',
      tags: ['resumable'],
      always: { guard: 'tooManyFailures', target: 'failed' },
      after: {
        retryMs: { target: 'watching.previous' },
        receiptMs: {
          target: 'failed',
          actions: {
            type: 'assignError',
            params: err('TIMEOUT', 'The transaction was not confirmed in time.'),
          },
        },
      },
    },
    confirmed: { type: 'final', output: ended('confirmed') },
    reverted: { type: 'final', output: ended('reverted') },
    replaced: { type: 'final', output: ended('replaced') },
    dropped: { type: 'final', output: ended('dropped') },
    rejected: {
      type: 'final',
      description: 'The user rejected it in the wallet (USER_REJECTED).',
      output: ended('rejected'),
    },
    failed: { type: 'final', output: ended('failed') },
    aborted: { type: 'final', output: ended('aborted') },
  },
  output: finalStateOutput<TransactionSummary>(),
})

/** The type of `transactionMachine`, for `machine.provide` and the root's child. */
export type TransactionMachine = typeof transactionMachine
