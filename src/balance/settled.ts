import type { ClientView } from '../../machines/client/client.view'

/**
 * Where the balances shown must be read from after the last transaction of the view was mined: its
 * chain and the receipt's block, as `<chainId> <block>` (a stable string for a store), or null
 * while no transaction of the view has a receipt. A balance of that chain read at an older block
 * is read again (the chip, `useBalance`; docs/transactions.md, "Balances after a transaction").
 */
export function settledKey(view: Pick<ClientView, 'transaction'>): string | null {
  const transaction = view.transaction
  if (!transaction?.blockNumber || !/^\d+$/.test(transaction.blockNumber)) return null
  return `${transaction.chainId} ${transaction.blockNumber}`
}

/** A `settledKey` read back: the chain and the receipt's block. */
export function parseSettled(key: string): { chainId: string; blockNumber: bigint } {
  const at = key.lastIndexOf(' ')
  return { chainId: key.slice(0, at), blockNumber: BigInt(key.slice(at + 1)) }
}

/** Whether a balance read at `blockNumber` (unknown: undefined) is older than the settled block. */
export const readBefore = (blockNumber: bigint | undefined, settled: bigint): boolean =>
  blockNumber === undefined || blockNumber < settled
