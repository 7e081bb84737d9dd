import { type AnyActorLogic, assign, fromPromise } from 'xstate'
import type { TokenBalance, TokenBalanceQuery } from '../../src/balance'
import type { ConnectConfig } from '../../src/config'
import type { ConnectMachine } from '../connect/connect.machine'
import type { PairingMachine } from '../pairing/pairing.machine'
import type { SignMachine } from '../sign/sign.machine'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import { clientMachine, deadlineFrom, remainingMs } from './client.machine'
import type { ClientTimeouts, LoadConnectorInput, LoadedConnector } from './client.types'

/** The outside world of the root machine, as the `Client` provides it. */
export interface ClientEnvironment {
  /** Loads and builds the connector for `input` and makes it the current one. */
  loadConnector(input: LoadConnectorInput): Promise<LoadedConnector>
  readConfig(): Promise<ConnectConfig>
  readBalance(query: TokenBalanceQuery): Promise<TokenBalance>
  /** The `connect` machine bound to the current connector (`createWalletMachines`), or its stand-in. */
  connection: ConnectMachine
  /** The `sign` machine bound to the current connector (`createWalletMachines`), or its stand-in. */
  sign: SignMachine
  /** The universal-link machine, provided (possibly a `createLazyLogic` stand-in). */
  universalLink: UniversalLinkMachine
  /** The pairing machine (`pair()`), provided (possibly a `createLazyLogic` stand-in). */
  pairing: PairingMachine
  /** The clock of the waits' deadlines (ms since the epoch). Default `Date.now`. */
  now?: () => number
}

/**
 * The root machine's actors by name: `loadConnector`; `connection` and `sign` (the `connect` and
 * `sign` machines of `createWalletMachines`, or stand-ins for them); `universalLink`; `pairing`;
 * `readConfig` and `readBalance`.
 */
export function createClientActors(env: ClientEnvironment) {
  return {
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(({ input }) =>
      env.loadConnector(input),
    ),
    connection: env.connection,
    sign: env.sign,
    universalLink: env.universalLink,
    pairing: env.pairing,
    readConfig: fromPromise<ConnectConfig>(() => env.readConfig()),
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(({ input }) =>
      env.readBalance(input),
    ),
  }
}

type WaitDelay = keyof Pick<ClientTimeouts, 'walletAnswerMs' | 'signatureMs'>

/** The root machine with its actors bound to `env`, and its waits' deadlines read from `env.now`. */
export function provideClient(env: ClientEnvironment) {
  const now = env.now ?? (() => Date.now())
  return clientMachine.provide({
    actors: createClientActors(env),
    actions: {
      armDeadline: assign(({ context }, delay: WaitDelay) => deadlineFrom(context, delay, now())),
    },
    delays: {
      walletAnswerMs: ({ context }) => remainingMs(context, context.timeouts.walletAnswerMs, now()),
      signatureMs: ({ context }) => remainingMs(context, context.timeouts.signatureMs, now()),
    },
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
