import { type Address, createPublicClient, http, isAddress, type PublicClient } from 'viem'
import { createBlockCache } from './block-cache'
import { createBlockClock } from './block-clock'
import { DEFAULT_TIMEOUT_MS } from './defaults'
import { createEvmBatchReader } from './evm-batch'
import { verifyEvmSignature } from './evm-signature'
import { MULTICALL3_ADDRESS } from './multicall3'
import { type ChainAdapter, ChainInputError } from './types'
import { createWsRpc, webSocketFirst } from './ws-rpc'

export interface EvmAdapterOptions {
  /** `eip155:<decimal chain id>`. */
  chainId: string
  /** Needed for balances and for contract-wallet (ERC-1271/6492) signatures (or `wsUrl`). */
  rpcUrl?: string
  /**
   * `ws(s)://`: reads go over one persistent WebSocket (lower latency per call, ws-rpc.ts), with
   * `rpcUrl` as the HTTP fallback when the socket cannot carry a request.
   */
  wsUrl?: string
  /** How long the WebSocket rests after a fault (reads go to `rpcUrl` meanwhile); default 5 s. */
  wsRestAfterFaultMs?: number
  /** Per HTTP request; default `DEFAULT_TIMEOUT_MS` (3 s). */
  timeoutMs?: number
  fetch?: typeof fetch
  /**
   * Multicall3's address on this chain; default the canonical `MULTICALL3_ADDRESS`. `null`: the
   * chain has none, read with parallel calls. (An address without code is found out on the first
   * batch and read in parallel from then on.)
   */
  multicall3?: string | null
  /** The chain's block time in ms, for the block-number cache (block-clock.ts); measured when absent. */
  blockTimeMs?: number
}

export function createEvmAdapter(options: EvmAdapterOptions): ChainAdapter {
  if (!/^eip155:[1-9][0-9]{0,31}$/.test(options.chainId)) {
    throw new ChainInputError(`not an eip155 chain id: ${options.chainId}`)
  }
  const multicall3 = options.multicall3 === undefined ? MULTICALL3_ADDRESS : options.multicall3
  if (multicall3 !== null && !isAddress(multicall3)) {
    throw new ChainInputError(`multicall3 of ${options.chainId} is not an address: ${multicall3}`)
  }
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const overHttp = options.rpcUrl
    ? http(options.rpcUrl, { timeout, retryCount: 1, fetchFn: options.fetch })
    : undefined
  const ws = options.wsUrl
    ? createWsRpc({
        url: options.wsUrl,
        timeoutMs: timeout,
        ...(options.wsRestAfterFaultMs === undefined
          ? {}
          : { restAfterFaultMs: options.wsRestAfterFaultMs }),
      })
    : undefined
  const transport = ws ? webSocketFirst(ws, overHttp) : overHttp
  // cacheTime 0: the block clock decides how long a block number is reused.
  const client: PublicClient | undefined = transport
    ? createPublicClient({ cacheTime: 0, transport })
    : undefined
  const reader = createEvmBatchReader({
    chainId: options.chainId,
    client,
    multicall3: multicall3 as Address | null,
    cache: createBlockCache(),
    clock: createBlockClock({
      fetchLatest: () => client!.getBlockNumber({ cacheTime: 0 }),
      ...(options.blockTimeMs === undefined ? {} : { blockTimeMs: options.blockTimeMs }),
    }),
  })

  return {
    namespace: 'eip155',
    isValidAddress: (address) => typeof address === 'string' && isAddress(address),
    verifySignature: (check) => verifyEvmSignature(check, client),
    readBalance: async (request) => {
      const [outcome] = await reader.readAll([request])
      if (!outcome!.ok) throw outcome!.error
      return outcome!.result
    },
    readBalances: (requests) => reader.readAll(requests),
    upstreamCalls: (requests) => reader.upstreamCalls(requests),
    settled: (touch) => reader.settled(touch),
    close: () => ws?.close(),
  }
}
