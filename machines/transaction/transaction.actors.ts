import { assign, fromPromise } from 'xstate'
import { requireFunction, requireObject } from '../../src/errors/arguments'
import { toErrorData } from '../shared/error-data'
import { walletErrorData } from '../shared/wallet-error-data'
import { transactionMachine } from './transaction.machine'
import type {
  ReadStatusInput,
  StatusRead,
  TransactionContext,
  TransactionDeadlines,
  TransactionRequestData,
  TransactionTimeouts,
} from './transaction.types'

/** The outside world of the transaction machine. */
export interface TransactionEnvironment {
  /** Asks the wallet to sign and broadcast; resolves with the hash (EVM) or signature (Solana). */
  send(request: TransactionRequestData, signal: AbortSignal): Promise<string>
  /** One GET /transactions, long-polled against `input.last` (see `createTransactionStatusReader`). */
  readStatus(input: ReadStatusInput, signal: AbortSignal): Promise<StatusRead>
  /** The clock of the deadlines (ms since the epoch). Default `Date.now`. */
  now?: () => number
}

/**
 * The machine's actors: `requestTransaction` (errors as wallet error data: `USER_REJECTED` for a
 * 4001, `WALLET_ERROR` otherwise) and `readStatus` (errors as `RPC_ERROR` data unless coded).
 */
export function createTransactionActors(env: TransactionEnvironment) {
  return {
    requestTransaction: fromPromise<string, TransactionRequestData>(async ({ input, signal }) => {
      try {
        return await env.send(input, signal)
      } catch (error) {
        throw walletErrorData(error)
      }
    }),
    readStatus: fromPromise<StatusRead, ReadStatusInput>(async ({ input, signal }) => {
      try {
        return await env.readStatus(input, signal)
      } catch (error) {
        throw toErrorData(error, 'RPC_ERROR')
      }
    }),
  }
}

type DeadlineName = keyof TransactionDeadlines
const DELAY_OF: Record<DeadlineName, keyof TransactionTimeouts> = {
  wallet: 'walletAnswerMs',
  receipt: 'receiptMs',
  notSeen: 'notSeenMs',
}

/** What is left of a wait at `now`; never more than its timeout (a deadline restored from another page). */
const remainingMs = (context: TransactionContext, name: DeadlineName, now: number): number => {
  const at = context.deadlines[name]
  const length = context.timeouts[DELAY_OF[name]]
  return at === null ? length : Math.min(length, Math.max(0, at - now))
}

/**
 * The clock of the chart: `armDeadline` records when a wait ends (kept when set, so a resumed
 * machine keeps its deadlines), and the delays wait for what is left of it.
 */
export function transactionTimekeeping(
  now: () => number,
): Pick<Parameters<typeof transactionMachine.provide>[0], 'actions' | 'delays'> {
  return {
    actions: {
      armDeadline: assign(({ context }, name: DeadlineName) =>
        context.deadlines[name] !== null
          ? {}
          : {
              deadlines: {
                ...context.deadlines,
                [name]: now() + context.timeouts[DELAY_OF[name]],
              },
            },
      ),
    },
    delays: {
      walletAnswerMs: ({ context }) => remainingMs(context, 'wallet', now()),
      receiptMs: ({ context }) => remainingMs(context, 'receipt', now()),
      notSeenMs: ({ context }) => remainingMs(context, 'notSeen', now()),
    },
  }
}

/**
 * The transaction machine with its actors bound to `env`, its waits timed by `env.now`.
 * @throws `INVALID_CONFIG` when `env` is not an object or `env.now` is given and not a function.
 */
export function provideTransaction(env: TransactionEnvironment) {
  requireObject(env, 'provideTransaction: env')
  requireFunction(env.now, 'provideTransaction: env.now', true)
  return transactionMachine.provide({
    actors: createTransactionActors(env),
    ...transactionTimekeeping(env.now ?? (() => Date.now())),
  })
}
