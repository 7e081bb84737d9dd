import { createHash } from 'node:crypto'
import type { TransactionStatus, TransactionStatusResponse } from 'scope-connect/wire'
import type { SeenTransaction } from './feed'

/** What a reader found out about one transaction at one head. */
export interface TransactionReport {
  status: TransactionStatus
  blockNumber?: bigint
  confirmations?: number
  replacedBy?: string
  revertReason?: string
  /** A pending (or replaced, searched) EVM transaction's sender and nonce: never answered. */
  seen?: SeenTransaction
}

export function toStatusResponse(
  chainId: string,
  hash: string,
  report: TransactionReport,
): TransactionStatusResponse {
  return {
    chainId,
    hash,
    status: report.status,
    ...(report.blockNumber === undefined ? {} : { blockNumber: report.blockNumber.toString() }),
    ...(report.confirmations === undefined ? {} : { confirmations: report.confirmations }),
    ...(report.replacedBy === undefined ? {} : { replacedBy: report.replacedBy }),
    ...(report.revertReason === undefined ? {} : { revertReason: report.revertReason }),
  }
}

/**
 * The answer's entity tag: a short hash of the answer itself, so it changes with the status, each
 * new confirmation and a found replacement, and with nothing else.
 */
export function statusResponseEtag(response: TransactionStatusResponse): string {
  return `"${createHash('sha256').update(JSON.stringify(response)).digest('base64url').slice(0, 16)}"`
}
