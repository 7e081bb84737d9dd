import {
  decodeErrorResult,
  type Hash,
  type Hex,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { TransactionFeed } from './feed'
import type { TransactionReport } from './report'

/** Blocks searched for the transaction that took a replaced one's nonce, at most. */
const REPLACEMENT_SEARCH_BLOCKS = 256n

/**
 * Where an EVM transaction stands at `head`: its receipt (confirmed / reverted), else the pending
 * transaction (remembered in `feed`: sender and nonce), else, when a remembered sender has used
 * the nonce, the transaction that did (`unknown` + `replacedBy`), else `unknown`.
 */
export async function readEvmStatus(
  client: PublicClient,
  feed: TransactionFeed,
  chainId: string,
  hash: Hash,
  head: bigint,
): Promise<TransactionReport> {
  const receipt = await client
    .getTransactionReceipt({ hash })
    .catch(orNull(TransactionReceiptNotFoundError))
  if (receipt) {
    const confirmations = head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 1
    if (receipt.status === 'success') {
      return { status: 'confirmed', blockNumber: receipt.blockNumber, confirmations }
    }
    const revertReason = await readRevertReason(client, hash, receipt.blockNumber)
    return {
      status: 'reverted',
      blockNumber: receipt.blockNumber,
      confirmations,
      ...(revertReason === undefined ? {} : { revertReason }),
    }
  }
  const pending = await client.getTransaction({ hash }).catch(orNull(TransactionNotFoundError))
  if (pending) {
    if ((await feed.recall(chainId, hash)) === undefined) {
      await feed.remember(chainId, hash, {
        from: pending.from.toLowerCase(),
        nonce: pending.nonce,
        seenAtBlock: head.toString(),
      })
    }
    return { status: 'pending' }
  }
  const seen = await feed.recall(chainId, hash)
  if (!seen) return { status: 'unknown' }
  if (seen.replacedBy) return { status: 'unknown', replacedBy: seen.replacedBy }
  const used = await client.getTransactionCount({ address: seen.from as Hex, blockTag: 'latest' })
  if (used <= seen.nonce) return { status: 'unknown' }
  const replacedBy = await findByNonce(
    client,
    seen.from,
    seen.nonce,
    BigInt(seen.seenAtBlock),
    head,
  )
  if (replacedBy === undefined) return { status: 'unknown' }
  await feed.remember(chainId, hash, { ...seen, replacedBy })
  return { status: 'unknown', replacedBy }
}

/** The transaction of `from` with `nonce` mined in `from`..`to` (newest first), if any. */
async function findByNonce(
  client: PublicClient,
  from: string,
  nonce: number,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Hash | undefined> {
  const floor =
    toBlock - REPLACEMENT_SEARCH_BLOCKS > fromBlock
      ? toBlock - REPLACEMENT_SEARCH_BLOCKS
      : fromBlock
  for (let number = toBlock; number >= floor && number >= 0n; number--) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    const found = block.transactions.find(
      (tx) => tx.from.toLowerCase() === from && tx.nonce === nonce,
    )
    if (found) return found.hash
  }
  return undefined
}

/**
 * Replays a reverted transaction on the state before its block and decodes the node's answer
 * (`Error(string)`, `Panic(uint256)`); undefined when the node gives no reason.
 */
async function readRevertReason(
  client: PublicClient,
  hash: Hash,
  blockNumber: bigint,
): Promise<string | undefined> {
  try {
    const tx = await client.getTransaction({ hash })
    await client.call({
      account: tx.from,
      to: tx.to,
      data: tx.input,
      value: tx.value,
      gas: tx.gas,
      blockNumber: blockNumber > 0n ? blockNumber - 1n : blockNumber,
    })
    return undefined
  } catch (error) {
    const data = revertData(error)
    if (!data) return undefined
    try {
      const decoded = decodeErrorResult({ data })
      if (decoded.errorName === 'Error') return String(decoded.args?.[0])
      return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
    } catch {
      return undefined
    }
  }
}

/** The revert data somewhere in viem's error chain. */
function revertData(error: unknown): Hex | undefined {
  let current: unknown = error
  for (let depth = 0; current && depth < 8; depth++) {
    const data = (current as { data?: unknown }).data
    if (typeof data === 'string' && /^0x[0-9a-fA-F]{8,}$/.test(data)) return data as Hex
    if (data && typeof data === 'object' && typeof (data as { data?: unknown }).data === 'string') {
      return (data as { data: Hex }).data
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** A not-found error of the given class becomes null; anything else is thrown on. */
function orNull(kind: abstract new (...args: never[]) => Error) {
  return (error: unknown): null => {
    if (error instanceof kind) return null
    throw error
  }
}
