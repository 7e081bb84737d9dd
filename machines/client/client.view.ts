import type { AnyActorRef, SnapshotFrom } from 'xstate'
import type { AppError } from '../../src/errors/app-error'
import { type ErrorData, toAppError } from '../shared/error-data'
import { requireSnapshot } from '../shared/snapshot-argument'
import {
  type TransactionSnapshot,
  type TransactionView,
  transactionView,
} from '../transaction/transaction.view'
import type { ClientMachine } from './client.machine'
import type { ClientTag, ConnectionKind, OperationKind } from './client.types'

/** The root actor's snapshot. */
export type ClientSnapshot = SnapshotFrom<ClientMachine>

/** Where the client stands, for a UI: no state names to match. */
export type ClientStatus =
  | 'idle'
  | 'selecting'
  | 'pairing'
  | 'disconnected'
  | 'connecting'
  /** `resume()` restores the last desktop connection without a prompt. */
  | 'reconnecting'
  | 'awaitingWallet'
  | 'connected'
  | 'signing'
  /** `switchChain()`: the wallet is asked to switch (or add) the chain. */
  | 'switchingChain'
  | 'awaitingSignature'
  | 'disconnecting'
  /** The root actor stopped (`actor.stop()`, or a fault no chart handled): the next call starts a fresh one. */
  | 'stopped'

/** A typed, render-ready view of the client (see `toClientView`). */
export interface ClientView {
  status: ClientStatus
  isConnected: boolean
  /**
   * A flow is in progress, or the wallet is still asked for a transaction (also one whose
   * `sendTransaction` was given up with `cancel()` / `disconnect()`: the wallet may still send it).
   * While busy, wallet calls are refused with `WALLET_BUSY`.
   */
  isBusy: boolean
  /** `connect()` would start a connection now. */
  canConnect: boolean
  /** The last flow failed and can be tried again (`connect()` / `signMessage()`). */
  canRetry: boolean
  /** `cancel()` would end a pending flow. */
  canCancel: boolean
  canSign: boolean
  /** The flow in progress. */
  pending: OperationKind | null
  /**
   * The last flow's error (also after a cancellation: `ABORTED`), as an `AppError`:
   * `isAppError(view.error, 'USER_REJECTED')` tells a rejection. `message` is its one-line reason
   * (`shortMessage`), with `status`, `backendCode` and `retryAfterMs` when the backend gave them;
   * the same error (one object) for as long as the flow's error stays.
   */
  error: AppError | null
  walletId: string | null
  connectionKind: ConnectionKind | null
  address: string | null
  accounts: readonly string[]
  chainId: string | null
  /**
   * Whether the project enables the connected chain (`chainId` among its config's networks): false
   * when the wallet is on a chain the project does not serve (offer `switchChain`). `undefined`
   * while not connected or while the config is not known (not read yet, or unreachable).
   */
  chainSupported: boolean | undefined
  /** The universal link the wallet was opened with (mobile), e.g. to show "open the wallet again". */
  walletUrl: string | null
  /**
   * While `pairing`: the pairing URI to show as a QR code (`pairingQrSvg`) or deep link, until the
   * wallet answers. It holds the pairing key: show it, never log it.
   */
  pairingUri: string | null
  /**
   * The last transaction (`sendTransaction`, `resumeTransaction`): its stage (`awaitingWallet`,
   * `pending`, `confirmed`, …), hash and confirmations; null before the first.
   */
  transaction: TransactionView | null
}

/** One `AppError` per error of the context: views of the same snapshot share it (`===`). */
const appErrors = new WeakMap<ErrorData, AppError>()

function errorOf(data: ErrorData | null): AppError | null {
  // A snapshot from app code may carry none (`toClientView` refuses no context shape beyond that).
  if (typeof data !== 'object' || data === null) return null
  const known = appErrors.get(data)
  if (known) return known
  const error = toAppError(data)
  appErrors.set(data, error)
  return error
}

function transactionOf(snapshot: ClientSnapshot): TransactionView | null {
  const child = (snapshot.children as Record<string, AnyActorRef | undefined>).transaction
  if (typeof child?.getSnapshot !== 'function') return null
  const childSnapshot = child.getSnapshot() as TransactionSnapshot | undefined
  return childSnapshot?.context ? transactionView(childSnapshot) : null
}

function linkAwaitsWallet(snapshot: ClientSnapshot): boolean {
  const child = (snapshot.children as Record<string, AnyActorRef | undefined>).universalLink
  const childSnapshot = child?.getSnapshot() as { hasTag?: (tag: string) => boolean } | undefined
  return childSnapshot?.hasTag?.('awaitingWallet') === true
}

function statusOf(snapshot: ClientSnapshot): ClientStatus {
  if (snapshot.status !== 'active') return 'stopped'
  if (snapshot.matches('selecting')) return 'selecting'
  if (snapshot.matches({ relay: 'pairing' })) return 'pairing'
  if (snapshot.matches({ relay: 'signing' })) return 'awaitingSignature'
  if (snapshot.matches({ relay: 'disconnecting' })) return 'disconnecting'
  if (snapshot.matches({ wallet: 'connecting' })) return 'connecting'
  if (snapshot.matches({ wallet: 'reconnecting' })) return 'reconnecting'
  if (snapshot.matches({ wallet: 'switchingChain' })) return 'switchingChain'
  if (snapshot.matches({ wallet: 'signing' })) return 'signing'
  if (snapshot.matches({ wallet: 'disconnecting' })) return 'disconnecting'
  if (snapshot.matches({ link: { flow: 'connecting' } }))
    return linkAwaitsWallet(snapshot) ? 'awaitingWallet' : 'connecting'
  if (snapshot.matches({ link: { flow: 'signing' } }))
    return linkAwaitsWallet(snapshot) ? 'awaitingSignature' : 'signing'
  if (snapshot.hasTag('connected')) return 'connected'
  if (snapshot.hasTag('selected')) return 'disconnected'
  return 'idle'
}

/**
 * The view of a root snapshot: a pure function (the same snapshot gives an equal view), in the
 * spirit of zag's `connect`. UIs render from it and never match state names.
 * @throws `INVALID_CONFIG` when `snapshot` is not an actor snapshot (`getSnapshot()`).
 */
export function toClientView(snapshot: ClientSnapshot): ClientView {
  requireSnapshot(snapshot, 'toClientView: snapshot')
  return clientView(snapshot)
}

/** `toClientView` without the argument check, for the `Client` (it passes its root's snapshot). */
export function clientView(snapshot: ClientSnapshot): ClientView {
  const { context } = snapshot
  // A stopped root keeps the tags of its last state: it shows none of them (no connection, nothing
  // busy or pending); the Client starts a fresh root with the next call.
  const active = snapshot.status === 'active'
  const tagged = (tag: ClientTag) => active && snapshot.hasTag(tag)
  // The connection counts only in a connected state (a stale one is never shown).
  const connection = tagged('connected') ? context.connection : null
  const isConnected = connection !== null
  const transaction = transactionOf(snapshot)
  // The wallet asked for a transaction is busy, also after its flow was given up (it may still send).
  const isBusy =
    tagged('busy') ||
    (active && (context.pending === 'transaction' || transaction?.stage === 'awaitingWallet'))
  const selected = tagged('selected')
  return {
    status: statusOf(snapshot),
    isConnected,
    isBusy,
    canConnect: !isBusy && !isConnected,
    canRetry: !isBusy && context.error !== null && (selected || context.walletId !== null),
    canCancel: tagged('cancellable') || (active && context.pending === 'transaction'),
    canSign: isConnected && !isBusy,
    // A transaction the wallet sent is still pending on chain until its receipt settles.
    pending: active ? (context.pending ?? (transaction?.isActive ? 'transaction' : null)) : null,
    error: errorOf(context.error),
    walletId: context.connector?.walletId ?? context.walletId,
    connectionKind: context.connector?.kind ?? null,
    address: connection?.accounts[0] ?? null,
    accounts: connection?.accounts ?? [],
    chainId: connection?.chainId ?? null,
    chainSupported:
      connection && context.projectChains
        ? context.projectChains.includes(connection.chainId)
        : undefined,
    walletUrl: active ? context.walletUrl : null,
    pairingUri: active ? (context.relay?.uri ?? context.walletPairingUri) : null,
    transaction,
  }
}
