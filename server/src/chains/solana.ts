import { DEFAULT_TIMEOUT_MS } from './defaults'
import { isSolanaAddress } from './solana-address'
import { readSolanaBalance } from './solana-balance'
import { readSolanaBalances, solanaUpstreamCalls } from './solana-batch'
import { createSolanaRpc } from './solana-rpc'
import { verifySolanaSignature } from './solana-signature'
import { type ChainAdapter, ChainInputError } from './types'

export interface SolanaAdapterOptions {
  /** `solana:<genesis hash prefix>`. */
  chainId: string
  /** Needed for balances only; signatures are checked offline. */
  rpcUrl?: string
  /** Per JSON-RPC request; default `DEFAULT_TIMEOUT_MS` (3 s). */
  timeoutMs?: number
  fetch?: typeof fetch
}

export function createSolanaAdapter(options: SolanaAdapterOptions): ChainAdapter {
  if (!/^solana:[1-9A-HJ-NP-Za-km-z]{1,32}$/.test(options.chainId)) {
    throw new ChainInputError(`not a solana chain id: ${options.chainId}`)
  }
  const rpc = options.rpcUrl
    ? createSolanaRpc({
        url: options.rpcUrl,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        fetch: options.fetch,
      })
    : undefined
  return {
    namespace: 'solana',
    isValidAddress: isSolanaAddress,
    verifySignature: async (check) => verifySolanaSignature(check),
    readBalance: (request) => readSolanaBalance(rpc, request),
    readBalances: (requests) => readSolanaBalances(rpc, options.chainId, requests),
    upstreamCalls: (requests) => (rpc ? solanaUpstreamCalls(requests) : 0),
  }
}
