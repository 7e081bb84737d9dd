import type { TransactionReport } from './report'

/**
 * A transaction some long-poll waits on, kept up to date at each new head by its chain's scan (one
 * set of chain-wide calls for every tracked transaction) rather than read again per waiter.
 */
export interface Tracked {
  /** The last report, at `head`; undefined until the first read of a waiter. */
  report?: TransactionReport
  head: bigint
  /** The scan could not tell (blocks skipped past its bound, a reorg): the next read asks the node. */
  stale: boolean
  /** Waiters following it now. */
  refs: number
  /** When `refs` last dropped to 0 (ms): kept a little, for the waiter's next long-poll. */
  releasedAt: number
}

/**
 * Brings a chain's tracked transactions from `from` (the head last scanned, undefined at the first
 * scan) to `head`, in place: new reports at `head`, or `stale`. Rejects when the node fails (the
 * entries then keep their reports, and the next head scans the range again).
 */
export type ScanHeads = (
  tracked: ReadonlyMap<string, Tracked>,
  from: bigint | undefined,
  head: bigint,
) => Promise<void>

/** Confirmations of a report mined at `blockNumber` seen from `head`. */
export function confirmationsAt(blockNumber: bigint, head: bigint): number {
  return head >= blockNumber ? Number(head - blockNumber + 1n) : 1
}

/** The report of a mined (confirmed or reverted) transaction at a newer head; others unchanged. */
export function reportAt(report: TransactionReport, head: bigint): TransactionReport {
  if (report.blockNumber === undefined || report.confirmations === undefined) return report
  return { ...report, confirmations: confirmationsAt(report.blockNumber, head) }
}
