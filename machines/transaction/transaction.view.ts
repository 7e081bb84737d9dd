import type { SnapshotFrom } from 'xstate'
import type { ErrorData } from '../shared/error-data'
import { requireSnapshot } from '../shared/snapshot-argument'
import type { TransactionMachine } from './transaction.machine'
import type { TransactionOutcome } from './transaction.types'

/** A snapshot of the transaction machine. */
export type TransactionSnapshot = SnapshotFrom<TransactionMachine>

/** Where a transaction stands, for a UI: no state names to match. */
export type TransactionStage =
  | 'awaitingWallet'
  | 'submitted'
  | 'pending'
  | 'confirming'
  | 'retrying'
  | TransactionOutcome

/** A render-ready view of a transaction (see `toTransactionView`). */
export interface TransactionView {
  stage: TransactionStage
  /** Still moving (not in a final state). */
  isActive: boolean
  chainId: string
  /** The hash (EVM) or signature (Solana), once the wallet answered. */
  hash: string | null
  blockNumber: string | null
  confirmations: number
  confirmationsWanted: number
  replacedBy: string | null
  revertReason: string | null
  error: ErrorData | null
}

function stageOf(snapshot: TransactionSnapshot): TransactionStage {
  if (snapshot.output) return snapshot.output.outcome
  if (snapshot.matches('awaitingWallet') || snapshot.matches('starting')) return 'awaitingWallet'
  if (snapshot.matches('backoff')) return 'retrying'
  if (snapshot.matches({ watching: 'pending' })) return 'pending'
  if (snapshot.matches({ watching: 'confirming' })) return 'confirming'
  return 'submitted'
}

/** The view of a transaction snapshot: a pure function of it. * @throws `INVALID_CONFIG` when `snapshot` is not an actor snapshot (`getSnapshot()`).
 */
export function toTransactionView(snapshot: TransactionSnapshot): TransactionView {
  requireSnapshot(snapshot, 'toTransactionView: snapshot')
  return transactionView(snapshot)
}

/** `toTransactionView` without the argument check (the root's view passes its child's snapshot). */
export function transactionView(snapshot: TransactionSnapshot): TransactionView {
  const { context } = snapshot
  return {
    stage: stageOf(snapshot),
    isActive: snapshot.status === 'active',
    chainId: context.chainId,
    hash: context.hash,
    blockNumber: context.read?.blockNumber ?? null,
    confirmations: context.read?.confirmations ?? 0,
    confirmationsWanted: context.confirmationsWanted,
    replacedBy: context.read?.replacedBy ?? null,
    revertReason: context.read?.revertReason ?? null,
    error: context.error,
  }
}
