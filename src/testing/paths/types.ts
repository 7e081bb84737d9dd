import type { ClientTimeouts } from '../../../machines/client/client.types'
import type { ClientStatus, ClientView } from '../../../machines/client/client.view'
import type { Client } from '../../client/client'
import type { BackendFault } from '../doubles/answers'
import type { ClientPathWorld } from './world'

/** The flows a path can take: a desktop wallet, a mobile universal link, a wallet paired over the relay. */
export type ClientFlow = 'desktop' | 'universalLink' | 'pairing'

/** The public methods a user action calls (what the UI's handler does). */
export type UserActionType =
  | 'selectWallet'
  | 'connect'
  | 'signMessage'
  | 'cancel'
  | 'disconnect'
  | 'pair'
  | 'resume'
  | 'switchChain'
  | 'sendTransaction'

/**
 * A user action: the app performs it through its own UI; the UI's handler does what
 * `run(client)` does (and does not wait for the flow to end: the path's next steps end it).
 */
export interface UserAction {
  kind: 'user'
  type: UserActionType
  description: string
  /** `switchChain`: the chain asked for (the UI offers a way to ask for it). */
  chainId?: string
  run(client: Client): Promise<unknown>
}

/** What the wallet does: answers the prompt it shows, or acts on its own. */
export interface WalletStep {
  kind: 'wallet'
  behaviour: 'approve' | 'reject' | 'error' | 'changeAccount' | 'changeChain' | 'lock'
  description: string
}

/**
 * The backend or the relay fails where the Client reads it, played by the runner: `config` and
 * `balance` — `GET /config` / `GET /balances` answer with `fault` (the read rejects with an
 * `AppError`), then the backend is back and the same read succeeds; `relaySocket` — the relay
 * drops the dApp's socket (the relay client opens a new one). The chart has no transition for
 * those: the view after is the one before, and the path goes on with the next step from there.
 * `sessions` — the user connects over a universal link and `POST /sessions` answers with `fault`:
 * the flow fails before the wallet is opened (`connect()` rejects with `BACKEND_ERROR`, the view
 * shows it), and the next connect finds the backend back.
 */
export interface FaultStep {
  kind: 'fault'
  fault: BackendFault
  at: 'config' | 'balance' | 'relaySocket' | 'sessions'
  description: string
}

/** Nobody answers until the named timeout has passed. */
export interface TimeStep {
  kind: 'time'
  timeout: keyof ClientTimeouts
  description: string
}

/**
 * The page reloads: a new `Client` on the same stores, `resume()` called, the UI mounted again.
 * `reconnect`: the connection store keeps a desktop connection, and `resume()` restores it
 * silently (`authorized`: the wallet still grants the site its accounts; `locked`: it locked
 * meanwhile). Without it the stores keep nothing to restore.
 */
export interface ReloadStep {
  kind: 'reload'
  description: string
  reconnect?: 'authorized' | 'locked'
}

/** A step of a path: a user action, a wallet step, a backend or relay fault, a named timeout, or a reload. */
export type ClientStep = UserAction | WalletStep | FaultStep | TimeStep | ReloadStep

/** A step of a path and what the UI must show once it is done. */
export type ClientPathStep = ClientStep & {
  /** The view the chart gives after the step (compare with `sameClientView`). */
  expected: ClientView
  /** The statuses the view passes through during the step, the last one `expected.status`. */
  through: ClientStatus[]
}

/** One generated path: a flow from a fresh page. */
export interface ClientPath {
  /** The steps in words, e.g. `desktop: connect → the wallet rejects`. */
  description: string
  flow: ClientFlow
  /** The view before the first step (a fresh `Client`). */
  initial: ClientView
  steps: ClientPathStep[]
  /**
   * The world the path was generated for (`getClientPaths({ world })`): `runClientPath` plays it
   * with that world's wallet, chains and phone wallet. Absent: the default world.
   */
  world?: ClientPathWorld
}
