import type { SolanaRpc } from '../chains/solana-rpc'
import type { TransactionReport } from './report'

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
  const status = answer.value?.[0]
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
