import { type AnyActorLogic, assign, fromPromise } from 'xstate'
import type { TokenBalance, TokenBalanceQuery, TokenBalanceResult } from '../../src/balance'
import type { ConnectConfig } from '../../src/config'
import { requireFunction, requireObject } from '../../src/errors/arguments'
import type { ConnectMachine } from '../connect/connect.machine'
import type { PairingMachine } from '../pairing/pairing.machine'
import type { SignMachine } from '../sign/sign.machine'
import type { TransactionMachine } from '../transaction/transaction.machine'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import { clientMachine } from './client.machine'
import type {
  ClientContext,
  ClientTimeouts,
  LoadConnectorInput,
  LoadedConnector,
} from './client.types'

/** The outside world of the root machine, as the `Client` provides it. */
export interface ClientEnvironment {
  /** Loads and builds the connector for `input` and makes it the current one. */
  loadConnector(input: LoadConnectorInput): Promise<LoadedConnector>
  readConfig(): Promise<ConnectConfig>
  readBalance(query: TokenBalanceQuery): Promise<TokenBalance>
  /** Asks the connected wallet to switch to `chainId`; rejects with the wallet's error. */
  switchChain(chainId: string): Promise<void>
  readBalances(queries: readonly TokenBalanceQuery[]): Promise<TokenBalanceResult[]>
  /** The `connect` machine bound to the current connector (`createWalletMachines`), or its stand-in. */
  connection: ConnectMachine
  /** The `sign` machine bound to the current connector (`createWalletMachines`), or its stand-in. */
  sign: SignMachine
  /** The universal-link machine, provided (possibly a `createLazyLogic` stand-in). */
  universalLink: UniversalLinkMachine
  /** The pairing machine (`pair()`), provided (possibly a `createLazyLogic` stand-in). */
  pairing: PairingMachine
  /**
   * The transaction machine, provided (a `createLazyLogic` stand-in until the first transaction).
   * Optional: without it, `SEND_TRANSACTION` spawns a child that fails at once.
   */
  transaction?: TransactionMachine
  /** The clock of the waits' deadlines (ms since the epoch). Default `Date.now`. */
  now?: () => number
}

/**
 * The root machine's actors by name: `loadConnector`; `connection` and `sign` (the `connect` and
 * `sign` machines of `createWalletMachines`, or stand-ins for them); `universalLink`; `pairing`;
 * `readConfig`, `readBalance`, `readBalances` and `switchChain`.
 * @throws `INVALID_CONFIG` when `env` is not an object.
 */
export function createClientActors(env: ClientEnvironment) {
  requireObject(env, 'createClientActors: env')
  return clientActors(env)
}

/** `createClientActors` without the argument check (the `Client`'s own callers pass an object). */
function clientActors(env: ClientEnvironment) {
  return {
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(({ input }) =>
      env.loadConnector(input),
    ),
    connection: env.connection,
    sign: env.sign,
    universalLink: env.universalLink,
    pairing: env.pairing,
    ...(env.transaction ? { transaction: env.transaction } : {}),
    readConfig: fromPromise<ConnectConfig>(() => env.readConfig()),
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(({ input }) =>
      env.readBalance(input),
    ),
    switchChain: fromPromise<{ chainId: string }, { chainId: string }>(async ({ input }) => {
      await env.switchChain(input.chainId)
      return { chainId: input.chainId }
    }),
    readBalances: fromPromise<TokenBalanceResult[], readonly TokenBalanceQuery[]>(({ input }) =>
      env.readBalances(input),
    ),
  }
}

type WaitDelay = keyof Pick<ClientTimeouts, 'walletAnswerMs' | 'signatureMs'>

/**
 * What is left at `now` of the current flow's wait (its deadline), or the whole delay; never more
 * than the delay itself (a deadline restored from another page whose wall clock was ahead).
 */
const remainingMs = (context: ClientContext, delay: WaitDelay, now: number): number =>
  context.deadline?.flow === context.flow
    ? Math.min(context.timeouts[delay], Math.max(0, context.deadline.at - now))
    : context.timeouts[delay]

/**
 * The implementations of the chart that read a clock: `armDeadline` records when the current
 * wait ends, and the `walletAnswerMs` / `signatureMs` delays wait only for what is left of it (so
 * a restored root keeps its deadline). The chart itself keeps no clock.
 */
export function clientTimekeeping(
  now: () => number,
): Pick<Parameters<typeof clientMachine.provide>[0], 'actions' | 'delays'> {
  return {
    actions: {
      armDeadline: assign(({ context }, delay: WaitDelay) =>
        context.deadline?.flow === context.flow
          ? {}
          : { deadline: { flow: context.flow, at: now() + context.timeouts[delay] } },
      ),
    },
    delays: {
      walletAnswerMs: ({ context }) => remainingMs(context, 'walletAnswerMs', now()),
      signatureMs: ({ context }) => remainingMs(context, 'signatureMs', now()),
    },
  }
}

/**
 * The root machine with its actors bound to `env`, its waits timed by `env.now` (default `Date.now`).
 * @throws `INVALID_CONFIG` when `env` is not an object or `env.now` is given and not a function.
 */
export function provideClient(env: ClientEnvironment) {
  requireObject(env, 'provideClient: env')
  requireFunction(env.now, 'provideClient: env.now', true)
  return bindClient(env)
}

/**
 * `provideClient` without the argument checks, for the `Client` (its environment is built by the
 * library): the checks stay out of the `Client`'s bundle.
 */
export function bindClient(env: ClientEnvironment) {
  return clientMachine.provide({
    actors: clientActors(env),
    ...clientTimekeeping(env.now ?? (() => Date.now())),
  })
}

/**
 * An actor logic that stands in for one loaded later (by dynamic import): every call is delegated
 * to the logic given to `set`. The root machine is created up front with it, so the universal-link
 * machine's code loads only with the universal-link connector (the pairing machine's with the first
 * `pair()` or `resume()`); it must be `set` before the root
 * enters a state that invokes it, or restores a snapshot that contains it.
 */
export function createLazyLogic<T extends AnyActorLogic>(name: string) {
  let inner: AnyActorLogic | null = null
  const need = (): AnyActorLogic => {
    if (inner) return inner
    throw new Error(`The "${name}" logic is not loaded yet.`)
  }
  const logic: AnyActorLogic = {
    config: undefined,
    transition: (snapshot, event, scope) => need().transition(snapshot, event, scope),
    start: (snapshot, scope) => need().start?.(snapshot, scope),
    getInitialSnapshot: (scope, input) => need().getInitialSnapshot(scope, input),
    getPersistedSnapshot: (snapshot, options) => need().getPersistedSnapshot(snapshot, options),
    restoreSnapshot: (snapshot, scope) => {
      const target = need()
      return target.restoreSnapshot ? target.restoreSnapshot(snapshot, scope) : snapshot
    },
  }
  return {
    logic: logic as T,
    set(value: T) {
      inner = value
    },
    loaded: () => inner as T | null,
  }
}
