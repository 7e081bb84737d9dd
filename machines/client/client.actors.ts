import { type AnyActorLogic, fromPromise } from 'xstate'
import type { TokenBalance, TokenBalanceQuery } from '../../src/balance'
import type { ConnectConfig } from '../../src/config'
import type { IWalletConnector, RequestArgs } from '../../src/connectors/types'
import { AppError } from '../../src/errors/app-error'
import { createConnectActors } from '../connect/connect.actors'
import { connectMachine } from '../connect/connect.machine'
import type { PairingMachine } from '../pairing/pairing.machine'
import { createSignActors } from '../sign/sign.actors'
import { signMachine } from '../sign/sign.machine'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import type { LoadConnectorInput, LoadedConnector } from './client.types'

/** The outside world of the root machine, as the `Client` provides it. */
export interface ClientEnvironment {
  /** Loads and builds the connector for `input` and makes it the current one. */
  loadConnector(input: LoadConnectorInput): Promise<LoadedConnector>
  /** The connector `loadConnector` made current (null before). */
  connector(): IWalletConnector | null
  readConfig(): Promise<ConnectConfig>
  readBalance(query: TokenBalanceQuery): Promise<TokenBalance>
  /** The universal-link machine, provided (possibly a `createLazyLogic` stand-in). */
  universalLink: UniversalLinkMachine
  /** The pairing machine (`pair()`), provided (possibly a `createLazyLogic` stand-in). */
  pairing: PairingMachine
  /** Told every secret value a wallet answers with (signatures), for redaction by value. */
  onSecret?: (value: string) => void
}

const noConnector = (): never => {
  throw new AppError('NOT_CONNECTED', 'No wallet connector is selected.')
}

/** Collects the strings of a wallet answer (a signature, `{ signature, publicKey }`, …). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) strings(item, out)
  return out
}

/**
 * The root machine's actors by name: `loadConnector`; `connection` and `sign` (the `connect` and
 * `sign` machines bound to whichever connector is current); `universalLink`; `pairing`; `readConfig` and
 * `readBalance`. A Solana `signTransaction` answer without a `signature` field (an extension's
 * `{ signedTransaction }`) reaches the sign machine as its JSON, which the facade parses back.
 */
export function createClientActors(env: ClientEnvironment) {
  const current = (): IWalletConnector => env.connector() ?? noConnector()
  const proxy: IWalletConnector = {
    get id() {
      return current().id
    },
    isAvailable: () => current().isAvailable(),
    connect: () => current().connect(),
    getAccounts: () => current().getAccounts(),
    disconnect: () => current().disconnect(),
    subscribe: (listener) => current().subscribe?.(listener) ?? (() => {}),
    async request<T>(args: RequestArgs): Promise<T> {
      const answer = await current().request<unknown>(args)
      for (const value of strings(answer)) env.onSecret?.(value)
      if (
        args.method === 'solana_signTransaction' &&
        typeof answer === 'object' &&
        answer !== null &&
        typeof (answer as { signature?: unknown }).signature !== 'string'
      ) {
        const json = JSON.stringify(answer)
        env.onSecret?.(json)
        return { signature: json } as T
      }
      return answer as T
    },
  }
  return {
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(({ input }) =>
      env.loadConnector(input),
    ),
    connection: connectMachine.provide({ actors: createConnectActors(proxy) }),
    sign: signMachine.provide({ actors: createSignActors(proxy) }),
    universalLink: env.universalLink,
    pairing: env.pairing,
    readConfig: fromPromise<ConnectConfig>(() => env.readConfig()),
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(({ input }) =>
      env.readBalance(input),
    ),
  }
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
