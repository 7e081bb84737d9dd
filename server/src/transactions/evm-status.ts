import {
  decodeErrorResult,
  type Hash,
  type Hex,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'
import type { SettledTransaction } from '../chains/types'
import type { TransactionFeed } from './feed'
import type { TransactionReport } from './report'
import { reportAt, type ScanHeads, type Tracked } from './tracker'

/**
 * Blocks one head's scan reads at most: a watcher that skipped more (a slow poll, a fast chain)
 * reads the newest ones, and the transactions it cannot vouch for are read again by their next
 * waiter (`stale`).
 */
export const MAX_BLOCKS_PER_SCAN = 8n

/**
 * Blocks one read may search for the transaction that took a replaced one's nonce. The search
 * goes forward from the block where the replaced one was seen pending and remembers how far it
 * got (`SeenTransaction.searchedTo`), so the next read goes on from there: a read never costs more
 * than this many block reads, and a range already searched is never read again.
 */
export const REPLACEMENT_SEARCH_BUDGET = 16n

/** A mined transaction's receipt as first read: immutable while its block stays canonical. */
interface MinedReceipt {
  blockHash: string
  blockNumber: bigint
  success: boolean
  revertReason?: string
}

/** Told of each receipt read: its block and the accounts whose balances it changed. */
export type OnSettled = (touch: SettledTransaction) => void

/** ERC-20 (and ERC-721) `Transfer(address,address,uint256)`'s topic. */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/**
 * The accounts a mined transaction changed the balances of: its sender (the gas, even when it
 * reverted), its recipient or created contract, and both parties of each Transfer log.
 */
export function touchedAccounts(receipt: {
  from: string
  to: string | null
  contractAddress?: string | null | undefined
  logs: readonly { topics: readonly string[] }[]
}): string[] {
  const accounts = new Set<string>([receipt.from.toLowerCase()])
  if (receipt.to) accounts.add(receipt.to.toLowerCase())
  if (receipt.contractAddress) accounts.add(receipt.contractAddress.toLowerCase())
  for (const log of receipt.logs) {
    if (log.topics[0] !== TRANSFER_TOPIC || log.topics.length < 3) continue
    for (const topic of log.topics.slice(1, 3)) {
      if (/^0x0{24}[0-9a-fA-F]{40}$/.test(topic!))
        accounts.add(`0x${topic!.slice(26).toLowerCase()}`)
    }
  }
  return [...accounts]
}

/** Receipts kept per reader, so a transaction's receipt is read once per block hash. */
export type ReceiptCache = Map<string, MinedReceipt>
const RECEIPT_CACHE_MAX = 10_000

/**
 * Where an EVM transaction stands at `head`, for one `eth_getTransactionByHash` per call: pending
 * (its sender and nonce remembered in `feed`), or mined (its receipt read once per block hash, so
 * a reorg that moves it reads it again), else, when a remembered sender has used the nonce, the
 * transaction that did (`unknown` + `replacedBy`, searched incrementally), else `unknown`.
 */
export async function readEvmStatus(
  client: PublicClient,
  feed: TransactionFeed,
  receipts: ReceiptCache,
  chainId: string,
  hash: Hash,
  head: bigint,
  onSettled?: OnSettled,
): Promise<TransactionReport> {
  const tx = await client.getTransaction({ hash }).catch(orNull(TransactionNotFoundError))
  if (tx && tx.blockNumber === null) {
    let seen = await feed.recall(chainId, hash)
    if (seen === undefined) {
      seen = { from: tx.from.toLowerCase(), nonce: tx.nonce, seenAtBlock: head.toString() }
      await feed.remember(chainId, hash, seen)
    }
    return { status: 'pending', seen }
  }
  if (tx) {
    const report = await readMinedStatus(
      client,
      receipts,
      chainId,
      hash,
      tx.blockHash,
      head,
      onSettled,
    )
    return report ?? { status: 'pending' }
  }
  const seen = await feed.recall(chainId, hash)
  if (!seen) return { status: 'unknown' }
  if (seen.replacedBy) return { status: 'unknown', replacedBy: seen.replacedBy }
  const used = await client.getTransactionCount({ address: seen.from as Hex, blockTag: 'latest' })
  if (used <= seen.nonce) return { status: 'unknown', seen }
  const searchFrom =
    seen.searchedTo === undefined ? BigInt(seen.seenAtBlock) : BigInt(seen.searchedTo) + 1n
  // Up to the latest block, not `head` (a watcher's, up to an interval old): the replacement may
  // be in a newer one. Asked raw: viem would join a head read already in flight.
  const latest = BigInt(await client.request({ method: 'eth_blockNumber' }))
  const last = latest > head ? latest : head
  // Everything up to the latest block was searched already: nothing new to read.
  if (searchFrom > last) return { status: 'unknown', seen }
  const searchTo =
    searchFrom + REPLACEMENT_SEARCH_BUDGET - 1n < last
      ? searchFrom + REPLACEMENT_SEARCH_BUDGET - 1n
      : last
  const replacedBy = await findByNonce(client, seen.from, seen.nonce, searchFrom, searchTo)
  const next =
    replacedBy === undefined
      ? { ...seen, searchedTo: searchTo.toString() }
      : { ...seen, replacedBy }
  await feed.remember(chainId, hash, next)
  if (replacedBy === undefined) return { status: 'unknown', seen: next }
  return { status: 'unknown', replacedBy }
}

/**
 * A mined transaction's status at `head` from its receipt (read only when `blockHash` is not the
 * one cached); undefined when the node does not serve the receipt yet.
 */
export async function readMinedStatus(
  client: PublicClient,
  receipts: ReceiptCache,
  chainId: string,
  hash: Hash,
  blockHash: string,
  head: bigint,
  onSettled?: OnSettled,
): Promise<TransactionReport | undefined> {
  const key = `${chainId} ${hash}`
  let mined = receipts.get(key)
  if (!mined || mined.blockHash !== blockHash) {
    const receipt = await client
      .getTransactionReceipt({ hash })
      .catch(orNull(TransactionReceiptNotFoundError))
    // Mined but its receipt not served yet (a node catching up): still pending for the caller.
    if (!receipt) return undefined
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
    onSettled?.({ blockNumber: receipt.blockNumber, accounts: touchedAccounts(receipt) })
    receipts.delete(key)
    receipts.set(key, mined)
    if (receipts.size > RECEIPT_CACHE_MAX) receipts.delete(receipts.keys().next().value as string)
  }
  return minedReport(mined, head)
}

function minedReport(mined: MinedReceipt, head: bigint): TransactionReport {
  const confirmations = head >= mined.blockNumber ? Number(head - mined.blockNumber + 1n) : 1
  if (mined.success) return { status: 'confirmed', blockNumber: mined.blockNumber, confirmations }
  return {
    status: 'reverted',
    blockNumber: mined.blockNumber,
    confirmations,
    ...(mined.revertReason === undefined ? {} : { revertReason: mined.revertReason }),
  }
}

/** The transaction of `from` with `nonce` mined in `fromBlock`..`toBlock` (oldest first), if any. */
async function findByNonce(
  client: PublicClient,
  from: string,
  nonce: number,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Hash | undefined> {
  for (let number = fromBlock; number <= toBlock; number++) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
    const found = block.transactions.find(
      (tx) => tx.from.toLowerCase() === from && tx.nonce === nonce,
    )
    if (found) return found.hash
  }
  return undefined
}

/**
 * Every tracked transaction of a chain brought to a new head at once: each new block read once
 * with its transactions (`eth_getBlockByNumber(n, true)`), matched by hash against every tracked
 * one (a receipt read for each match) and by sender and nonce against the pending ones (a
 * replacement found in the same read). Those not in the blocks only get their confirmations
 * counted again. Calls per head: one block read (more when the watcher skipped blocks, at most
 * `MAX_BLOCKS_PER_SCAN`) + the receipts of the matches, whatever the number of waiters. A block
 * whose parent is not the block scanned before it (a reorg) makes every entry `stale`.
 */
export function createEvmHeadScan(
  client: PublicClient,
  feed: TransactionFeed,
  receipts: ReceiptCache,
  chainId: string,
  onSettled?: OnSettled,
): ScanHeads {
  let last: { number: bigint; hash: string } | undefined
  return async (tracked, from, head) => {
    const open = [...tracked.entries()].filter(
      ([, entry]) => entry.report !== undefined && !entry.stale && entry.head < head,
    )
    if (open.length === 0) return
    let first = from === undefined || from >= head ? head : from + 1n
    if (head - first + 1n > MAX_BLOCKS_PER_SCAN) first = head - MAX_BLOCKS_PER_SCAN + 1n
    const byHash = new Map(open)
    const byNonce = new Map<string, [string, Tracked]>()
    for (const [hash, entry] of open) {
      const seen = entry.report!.seen
      if (entry.report!.status === 'pending' && seen) {
        byNonce.set(`${seen.from} ${seen.nonce}`, [hash, entry])
      }
    }
    const mined = new Map<string, string>()
    const replaced = new Map<string, Hash>()
    let reorg = false
    for (let number = first; number <= head; number++) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true })
      if (last && last.number === number - 1n && block.parentHash !== last.hash) reorg = true
      last = { number, hash: block.hash }
      for (const tx of block.transactions) {
        const hash = tx.hash.toLowerCase()
        const entry = byHash.get(hash)
        if (entry && entry.head < number) mined.set(hash, block.hash)
        const pending = byNonce.get(`${tx.from.toLowerCase()} ${tx.nonce}`)
        if (pending && pending[0] !== hash && pending[1].head < number) {
          replaced.set(pending[0], hash as Hash)
        }
      }
    }
    const reports = new Map(
      await Promise.all(
        [...mined].map(
          async ([hash, blockHash]) =>
            [
              hash,
              await readMinedStatus(
                client,
                receipts,
                chainId,
                hash as Hash,
                blockHash,
                head,
                onSettled,
              ),
            ] as const,
        ),
      ),
    )
    for (const [hash, entry] of open) {
      const before = entry.report!
      if (reorg || entry.head < first - 1n) {
        entry.stale = true
        continue
      }
      if (mined.has(hash)) {
        const report = reports.get(hash)
        // In a block but its receipt not served yet (a node catching up): the scans will not see
        // that block again, so the waiter's next read asks the node.
        if (!report) {
          entry.stale = true
          continue
        }
        entry.report = report
      } else if (replaced.has(hash)) {
        const replacedBy = replaced.get(hash)!
        entry.report = { status: 'unknown', replacedBy }
        if (before.seen) await feed.remember(chainId, hash, { ...before.seen, replacedBy })
      } else {
        entry.report = reportAt(before, head)
      }
      entry.head = head
    }
  }
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
