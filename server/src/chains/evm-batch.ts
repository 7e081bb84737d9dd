import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  encodeAbiParameters,
  isAddress,
  type PublicClient,
} from 'viem'
import {
  addressCallData,
  BALANCE_OF_SELECTOR,
  type Call,
  type CallResult,
  DECIMALS_CALL_DATA,
} from './aggregate3-codec'
import type { BlockCache } from './block-cache'
import type { BlockClock } from './block-clock'
import { checkDecimals } from './decimals'
import {
  aggregate3,
  blockNumberCall,
  ethBalanceCall,
  GAS_PER_READ,
  Multicall3MissingError,
} from './multicall3'
import { readBatch } from './read-batch'
import {
  type BalanceOutcome,
  type BalanceReadRequest,
  ChainInputError,
  GasLimitExceededError,
  noRpcUrl,
  type SettledTransaction,
  UpstreamError,
  UpstreamTooLargeError,
} from './types'

const NATIVE_DECIMALS = 18

export interface EvmBatchReaderOptions {
  chainId: string
  client: PublicClient | undefined
  clock: BlockClock
  cache: BlockCache
  /** Where Multicall3 lives, or null when the chain has none (reads go out as parallel calls). */
  multicall3: Address | null
}

/** A query that passed its checks: what to read, and the cache key of the answer. */
interface Planned {
  key: string
  account: Address
  token: Address | undefined
  decimals: number | undefined
}

/**
 * Reads EVM balances at one pinned block: the block number in hand (kept for a fraction of a
 * block, see block-clock.ts), then every query not already answered at that block in one
 * Multicall3 `aggregate3` `eth_call` (native balances through its `getEthBalance`, ERC-20s
 * through `balanceOf`, and `decimals()` once per token when a query has none). With no number in
 * hand, the one call goes to `latest` and names its block itself (Multicall3's `getBlockNumber`
 * first): one upstream call either way. Without Multicall3 the
 * same calls go out in parallel. A chain whose Multicall3 address turns out to hold no code is
 * remembered and read in parallel from then on.
 */
export function createEvmBatchReader(options: EvmBatchReaderOptions) {
  const { chainId, client, clock, cache } = options
  let multicall3 = options.multicall3

  const readAll = (requests: readonly BalanceReadRequest[]): Promise<BalanceOutcome[]> =>
    readBatch(
      requests,
      plan,
      async (live) => {
        if (!client) {
          throw noRpcUrl(chainId)
        }
        const answers = await readAtLatest(client, live)
        return (item) => answers.get(item.key)!
      },
      (error) => (error instanceof ChainInputError ? error : toUpstreamError(error)),
    )

  /**
   * The upstream calls `readAll(requests)` makes if asked now: none for queries that fail their
   * checks or are answered at the block in hand; one `aggregate3` with Multicall3; without it one
   * call per read (a balance per query, a `decimals()` per token asked without decimals) and an
   * `eth_blockNumber` when no block number is in hand.
   */
  function upstreamCalls(requests: readonly BalanceReadRequest[]): number {
    if (!client) return 0
    const items = new Map<string, Planned>()
    for (const request of requests) {
      try {
        const item = plan(request)
        items.set(item.key, item)
      } catch {
        // A malformed query is answered without the node.
      }
    }
    const fresh = clock.fresh()
    const missing = [...items.values()].filter(
      (item) => fresh === undefined || !cache.get(fresh, item.key),
    )
    if (missing.length === 0) return 0
    if (multicall3) return 1
    return readsFor(missing).list.length + (fresh === undefined ? 1 : 0)
  }

  async function readAtLatest(
    rpc: PublicClient,
    queries: readonly Planned[],
  ): Promise<Map<string, BalanceOutcome>> {
    if (multicall3 && clock.fresh() === undefined) {
      const unpinned = await readUnpinned(rpc, multicall3, queries)
      if (unpinned) return unpinned
    }
    const blockNumber = await clock.latest()
    const answers = new Map<string, BalanceOutcome>()
    const missing = new Map<string, Planned>()
    for (const item of queries) {
      const cached = cache.get(blockNumber, item.key)
      if (cached) answers.set(item.key, { ok: true, result: cached })
      else missing.set(item.key, item)
    }
    if (missing.size === 0) return answers
    const items = [...missing.values()]
    const reads = readsFor(items)
    const results = await run(rpc, reads.list, blockNumber)
    for (const item of items) {
      const outcome = decode(item, reads, results, blockNumber)
      if (outcome.ok) cache.set(blockNumber, item.key, outcome.result)
      answers.set(item.key, outcome)
    }
    return answers
  }

  /**
   * With no block number in hand: one aggregate3 at `latest` whose first call is Multicall3's
   * getBlockNumber, so the batch names its own block (one upstream call, not two) and the block
   * clock learns it. Undefined when the chain turns out to have no Multicall3.
   */
  async function readUnpinned(
    rpc: PublicClient,
    at: Address,
    queries: readonly Planned[],
  ): Promise<Map<string, BalanceOutcome> | undefined> {
    const items = [...new Map(queries.map((item) => [item.key, item])).values()]
    const reads = readsFor(items)
    const calls = [blockNumberCall(at), ...reads.list.map((read) => toCall(at, read))]
    let results: CallResult[]
    try {
      results = await aggregate3(rpc, at, calls, undefined)
    } catch (error) {
      if (!(error instanceof Multicall3MissingError)) throw error
      multicall3 = null
      return undefined
    }
    const blockNumber = decodeUint(results[0]!, 'getBlockNumber')
    clock.record(blockNumber)
    const readResults = results.slice(1)
    const answers = new Map<string, BalanceOutcome>()
    for (const item of items) {
      const outcome = decode(item, reads, readResults, blockNumber)
      if (outcome.ok) cache.set(blockNumber, item.key, outcome.result)
      answers.set(item.key, outcome)
    }
    return answers
  }

  /** The reads of a batch: one balance per query, one decimals() per token that needs it. */
  function readsFor(items: readonly Planned[]) {
    const list: Read[] = []
    const balanceAt = new Map<string, number>()
    const decimalsAt = new Map<Address, number>()
    for (const item of items) {
      balanceAt.set(item.key, list.length)
      list.push(
        item.token
          ? { target: item.token, callData: addressCallData(BALANCE_OF_SELECTOR, item.account) }
          : { native: item.account },
      )
      if (item.token && item.decimals === undefined && !decimalsAt.has(item.token)) {
        decimalsAt.set(item.token, list.length)
        list.push({ target: item.token, callData: DECIMALS_CALL_DATA })
      }
    }
    return { list, balanceAt, decimalsAt }
  }

  /** One aggregate3 call through Multicall3, or one upstream call per read without it. */
  async function run(
    rpc: PublicClient,
    reads: readonly Read[],
    blockNumber: bigint,
  ): Promise<ReadResult[]> {
    const at = multicall3
    if (at) {
      const calls = reads.map((read) => toCall(at, read))
      try {
        return await aggregate3(rpc, at, calls, blockNumber)
      } catch (error) {
        if (!(error instanceof Multicall3MissingError)) throw error
        multicall3 = null
      }
    }
    return Promise.all(reads.map((read) => readOne(rpc, read, blockNumber)))
  }

  function plan(request: BalanceReadRequest): Planned {
    const account = checkAddress(request.account, 'account')
    const token =
      request.tokenAddress === 'native'
        ? undefined
        : checkAddress(request.tokenAddress, 'tokenAddress')
    const decimals = checkDecimals(request.decimals)
    const key = JSON.stringify([
      token?.toLowerCase() ?? 'native',
      account.toLowerCase(),
      decimals ?? null,
    ])
    return { key, account, token, decimals }
  }

  function decode(
    item: Planned,
    calls: ReturnType<typeof readsFor>,
    results: readonly ReadResult[],
    blockNumber: bigint,
  ): BalanceOutcome {
    try {
      const balance = results[calls.balanceAt.get(item.key)!]!
      if (!item.token) {
        const raw = decodeUint(balance, 'getBalance')
        return {
          ok: true,
          result: { raw, decimals: item.decimals ?? NATIVE_DECIMALS, blockNumber },
        }
      }
      const raw = decodeTokenBalance(balance, item.token)
      const decimals =
        item.decimals ??
        decodeTokenDecimals(results[calls.decimalsAt.get(item.token)!]!, item.token)
      return { ok: true, result: { raw, decimals, blockNumber } }
    } catch (error) {
      if (error instanceof ChainInputError || error instanceof UpstreamError) {
        return { ok: false, error }
      }
      return { ok: false, error: toUpstreamError(error) }
    }
  }

  function decodeTokenBalance(result: ReadResult, token: Address): bigint {
    if (result.outOfGas) throw gasExceeded(token)
    if (!result.success) {
      throw new ChainInputError(
        `tokenAddress is not an ERC-20 token: balanceOf(address) failed at ${token}`,
      )
    }
    if (result.returnData === '0x') {
      throw new ChainInputError(
        `tokenAddress is not a contract on ${chainId} (balanceOf answered no data at ${token}: no code there, or not an ERC-20)`,
      )
    }
    const raw = firstWord(result.returnData)
    if (raw === undefined) {
      throw new ChainInputError(
        `tokenAddress is not an ERC-20 token: balanceOf(address) answered malformed data at ${token}`,
      )
    }
    return raw
  }

  function decodeTokenDecimals(result: CallResult, token: Address): number {
    const decimals = result.success ? firstWord(result.returnData) : undefined
    // Not a uint8: the token has no usable decimals().
    if (decimals !== undefined && decimals <= 255n) return Number(decimals)
    throw new ChainInputError(
      `tokenAddress has no decimals(): pass decimals (0..255) with the query for ${token}`,
    )
  }

  /**
   * A transaction mined at `touch.blockNumber`: the block clock takes that number (so the next read
   * is pinned to it, or to a later one, not to the block in hand before the receipt), and the
   * cached balances of the accounts it touched end. Costs no upstream call.
   */
  function settled(touch: SettledTransaction): void {
    const accounts = new Set(touch.accounts.map((account) => account.toLowerCase()))
    if (accounts.size === 0) return
    cache.settle(touch.blockNumber, (key) => accounts.has((JSON.parse(key) as string[])[1]!))
    clock.record(touch.blockNumber)
  }

  return { readAll, upstreamCalls, settled }
}

/** A native balance (Multicall3's getEthBalance, or eth_getBalance), or a contract call. */
type Read = { native: Address } | Call

/** A call's answer; `outOfGas` when a read of its own ran out of its `GAS_PER_READ`. */
type ReadResult = CallResult & { outOfGas?: true }

const gasExceeded = (token: Address) =>
  new GasLimitExceededError(
    `tokenAddress burns more than ${GAS_PER_READ} gas in balanceOf(address): not read at ${token}`,
  )

/** A node's refusal of an `eth_call` that ran out of the gas it was given. */
function isOutOfGas(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at.cause) {
    const text = `${at.message} ${(at as { details?: unknown }).details ?? ''}`
    if (/out ?of ?gas|gas required exceeds/i.test(text)) return true
  }
  return false
}

const toCall = (multicall3: Address, read: Read): Call =>
  'native' in read ? ethBalanceCall(multicall3, read.native) : read

/** The first 32-byte word of an answer as a uint256 (as an ABI decoder reads one), if it has one. */
function firstWord(data: string): bigint | undefined {
  return data.length >= 66 && /^0x[0-9a-fA-F]+$/.test(data) ? BigInt(data.slice(0, 66)) : undefined
}

/**
 * A read as its own upstream call, answered in aggregate3's shape: a revert is `success: false`
 * (the caller's input), a transport failure rejects (UpstreamError).
 */
async function readOne(rpc: PublicClient, read: Read, blockNumber: bigint): Promise<ReadResult> {
  if ('native' in read) {
    const raw = await rpc.getBalance({ address: read.native, blockNumber })
    return { success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [raw]) }
  }
  try {
    const { data } = await rpc.call({
      to: read.target,
      data: read.callData,
      blockNumber,
      gas: GAS_PER_READ,
    })
    return { success: true, returnData: data ?? '0x' }
  } catch (error) {
    if (isOutOfGas(error)) return { success: false, returnData: '0x', outOfGas: true }
    const reverted =
      error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)
    if (reverted) return { success: false, returnData: '0x' }
    throw error
  }
}

function decodeUint(result: CallResult, what: string): bigint {
  if (!result.success || result.returnData.length !== 66) {
    throw new UpstreamError(`EVM RPC read failed: ${what} answered malformed data`)
  }
  return BigInt(result.returnData)
}

function checkAddress(value: string, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value)) {
    throw new ChainInputError(`${field} is not a valid EVM address: ${String(value)}`)
  }
  return value
}

/** viem errors carry a one-line `shortMessage`; the full message includes request bodies. */
function toUpstreamError(error: unknown): UpstreamError | GasLimitExceededError {
  if (error instanceof UpstreamError) return error
  // viem wraps what its fetch threw (the upstream guard's size cap) in errors of its own.
  for (let at = error; at instanceof Error; at = at.cause) {
    if (at instanceof UpstreamTooLargeError) return at
  }
  if (isOutOfGas(error)) {
    return new GasLimitExceededError(
      `a token in the batch burns more than ${GAS_PER_READ} gas per read: the batch's eth_call ran out of its gas, not read`,
    )
  }
  const short =
    error && typeof error === 'object' && 'shortMessage' in error
      ? String(error.shortMessage)
      : error instanceof Error
        ? error.message
        : String(error)
  return new UpstreamError(`EVM RPC read failed: ${short}`, { cause: error })
}
