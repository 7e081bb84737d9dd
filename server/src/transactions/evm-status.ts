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

/** A mined transaction's receipt as first read: immutable while its block stays canonical. */
interface MinedReceipt {
  blockHash: string
  blockNumber: bigint
  success: boolean
  revertReason?: string
}

/** Receipts kept per reader, so each new head costs one call per waited transaction. */
export type ReceiptCache = Map<string, MinedReceipt>
const RECEIPT_CACHE_MAX = 10_000

/**
 * Where an EVM transaction stands at `head`, for one `eth_getTransactionByHash` per call: pending
 * (its sender and nonce remembered in `feed`), or mined (its receipt read once per block hash, so
 * a reorg that moves it reads it again), else, when a remembered sender has used the nonce, the
 * transaction that did (`unknown` + `replacedBy`), else `unknown`.
 */
export async function readEvmStatus(
  client: PublicClient,
  feed: TransactionFeed,
  receipts: ReceiptCache,
  chainId: string,
  hash: Hash,
  head: bigint,
): Promise<TransactionReport> {
  const tx = await client.getTransaction({ hash }).catch(orNull(TransactionNotFoundError))
  if (tx && tx.blockNumber === null) {
    if ((await feed.recall(chainId, hash)) === undefined) {
      await feed.remember(chainId, hash, {
        from: tx.from.toLowerCase(),
        nonce: tx.nonce,
        seenAtBlock: head.toString(),
      })
    }
    return { status: 'pending' }
  }
  if (tx) {
    const key = `${chainId} ${hash}`
    let mined = receipts.get(key)
    if (!mined || mined.blockHash !== tx.blockHash) {
      const receipt = await client
        .getTransactionReceipt({ hash })
        .catch(orNull(TransactionReceiptNotFoundError))
      // Mined but its receipt not served yet (a node catching up): still pending for the caller.
      if (!receipt) return { status: 'pending' }
      const success = receipt.status === 'success'
      const revertReason = success
        ? undefined
        : await readRevertReason(client, hash, receipt.blockNumber)
      mined = {
        blockHash: receipt.blockHash,
        blockNumber: receipt.blockNumber,
        success,
        ...(revertReason === undefined ? {} : { revertReason }),
      }
      receipts.delete(key)
      receipts.set(key, mined)
      if (receipts.size > RECEIPT_CACHE_MAX) receipts.delete(receipts.keys().next().value as string)
    }
    const confirmations = head >= mined.blockNumber ? Number(head - mined.blockNumber + 1n) : 1
    if (mined.success) return { status: 'confirmed', blockNumber: mined.blockNumber, confirmations }
    return {
      status: 'reverted',
      blockNumber: mined.blockNumber,
      confirmations,
      ...(mined.revertReason === undefined ? {} : { revertReason: mined.revertReason }),
    }
  }
  const seen = await feed.recall(chainId, hash)
  if (!seen) return { status: 'unknown' }
  if (seen.replacedBy) return { status: 'unknown', replacedBy: seen.replacedBy }
  const used = await client.getTransactionCount({ address: seen.from as Hex, blockTag: 'latest' })
  if (used <= seen.nonce) return { status: 'unknown' }
  // Up to the latest block, not `head` (a watcher's, up to an interval old): the replacement may
  // be in a newer one. Asked raw: viem would join a head read already in flight.
  const latest = BigInt(await client.request({ method: 'eth_blockNumber' }))
  const toBlock = latest > head ? latest : head
  const replacedBy = await findByNonce(
    client,
    seen.from,
    seen.nonce,
    BigInt(seen.seenAtBlock),
    toBlock,
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
