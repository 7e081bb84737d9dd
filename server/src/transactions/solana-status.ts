import type { SolanaRpc } from '../chains/solana-rpc'
import type { TransactionReport } from './report'
import { reportAt, type ScanHeads } from './tracker'

/** Signatures one `getSignatureStatuses` call may carry (the node's limit). */
export const SIGNATURE_STATUSES_MAX = 256

interface SignatureStatus {
  slot: number
  err: unknown
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null
}

/**
 * Where a Solana transaction stands at slot `head`, from `getSignatureStatuses` (history
 * searched): unseen → `unknown`, `processed` → `pending`, `confirmed`/`finalized` → `confirmed`
 * (or `reverted` with an `err`), the slot as `blockNumber`. Solana has no nonce replacement.
 */
export async function readSolanaStatus(
  rpc: SolanaRpc,
  signature: string,
  head: bigint,
): Promise<TransactionReport> {
  const answer = await rpc<{ value: (SignatureStatus | null)[] }>('getSignatureStatuses', [
    [signature],
    { searchTransactionHistory: true },
  ])
  return solanaReport(answer.value?.[0], head)
}

/**
 * Every tracked signature brought to slot `head` at once: one `getSignatureStatuses` per 256 of
 * those not settled yet (unknown or processed), whatever the number of waiters; the settled ones
 * only get their confirmations counted again (no call).
 */
export function createSolanaHeadScan(rpc: SolanaRpc): ScanHeads {
  return async (tracked, _from, head) => {
    const open = [...tracked.entries()].filter(
      ([, entry]) => entry.report !== undefined && !entry.stale && entry.head < head,
    )
    const unsettled = open
      .filter(
        ([, entry]) => entry.report!.status === 'pending' || entry.report!.status === 'unknown',
      )
      .map(([signature]) => signature)
    const chunks: string[][] = []
    for (let index = 0; index < unsettled.length; index += SIGNATURE_STATUSES_MAX) {
      chunks.push(unsettled.slice(index, index + SIGNATURE_STATUSES_MAX))
    }
    const answers = await Promise.all(
      chunks.map((chunk) =>
        rpc<{ value: (SignatureStatus | null)[] }>('getSignatureStatuses', [chunk]),
      ),
    )
    const statuses = new Map<string, SignatureStatus | null | undefined>()
    chunks.forEach((chunk, index) => {
      chunk.forEach((signature, at) => {
        statuses.set(signature, answers[index]!.value?.[at])
      })
    })
    for (const [signature, entry] of open) {
      entry.report = statuses.has(signature)
        ? solanaReport(statuses.get(signature), head)
        : reportAt(entry.report!, head)
      entry.head = head
    }
  }
}

function solanaReport(status: SignatureStatus | null | undefined, head: bigint): TransactionReport {
  if (!status) return { status: 'unknown' }
  if (status.confirmationStatus === 'processed') return { status: 'pending' }
  const slot = BigInt(status.slot)
  const confirmations = head >= slot ? Number(head - slot + 1n) : 1
  if (status.err !== null && status.err !== undefined) {
    return {
      status: 'reverted',
      blockNumber: slot,
      confirmations,
      revertReason: JSON.stringify(status.err),
    }
  }
  return { status: 'confirmed', blockNumber: slot, confirmations }
}

export async function readSolanaSlot(rpc: SolanaRpc): Promise<bigint> {
  return BigInt(await rpc<number | string>('getSlot', [{ commitment: 'confirmed' }]))
}
