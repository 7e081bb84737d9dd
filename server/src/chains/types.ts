/** What the routes need from a chain: balances and signature checks. Implemented per namespace. */

export interface BalanceReadRequest {
  /** CAIP-2 chain id, already checked against the project's enabled networks. */
  chainId: string
  /** `native`, an EVM token contract, or a Solana mint. */
  tokenAddress: string
  account: string
  /** When absent the reader asks the chain (ERC-20 `decimals()`, SPL mint decimals, native 18 / 9). */
  decimals?: number
}

export interface BalanceReadResult {
  raw: bigint
  decimals: number
  blockNumber?: bigint
}

/** One query's answer in a batch: its result, or the error a single read would have thrown. */
export type BalanceOutcome =
  | { ok: true; result: BalanceReadResult }
  | { ok: false; error: ChainInputError | UpstreamError }

export interface SignatureCheck {
  chainId: string
  /** The connected wallet address recorded on the session. */
  address: string
  /** The exact message that was signed (the session envelope). */
  message: string
  signature: string
  /** Solana: base58 public key that signed; must equal `address`. */
  publicKey?: string
}

/** Failures a reader raises; the routes map them to 422 / 502 without a 500. */
export class ChainInputError extends Error {
  override readonly name: string = 'ChainInputError'
}
export class UpstreamError extends Error {
  override readonly name: string = 'UpstreamError'
}
/** The node's answer was larger than the chain's `maxResponseBytes` (502 UPSTREAM_TOO_LARGE). */
export class UpstreamTooLargeError extends UpstreamError {
  override readonly name = 'UpstreamTooLargeError'
}
/**
 * A contract read ran out of the gas it was given (`eth_call` carries explicit gas): the token
 * burns more than a balance read may (422 GAS_LIMIT_EXCEEDED).
 */
export class GasLimitExceededError extends ChainInputError {
  override readonly name = 'GasLimitExceededError'
}

/** A balance read on a chain configured without an `rpcUrl` (docs/chains.md quotes the message). */
export const noRpcUrl = (chainId: string): UpstreamError =>
  new UpstreamError(`no rpcUrl configured for ${chainId}: balance reads need one`)

export interface ChainAdapter {
  readonly namespace: 'eip155' | 'solana'
  /** Throws `ChainInputError` for a malformed address or token, `UpstreamError` for RPC failures/timeouts. */
  readBalance(request: BalanceReadRequest): Promise<BalanceReadResult>
  /**
   * Reads many balances of this chain in as few upstream calls as the chain allows (EVM: one
   * Multicall3 call at one pinned block). Never rejects: each query gets its own outcome, in order.
   */
  readBalances(requests: readonly BalanceReadRequest[]): Promise<BalanceOutcome[]>
  /**
   * How many upstream calls `readBalances(requests)` makes if asked now (its plan: malformed
   * queries and answers already cached cost nothing), so a batch is charged before it runs.
   */
  upstreamCalls?(requests: readonly BalanceReadRequest[]): number
  /** Resolves true only for a valid signature by `address` over `message`. Never throws on bad input. */
  verifySignature(check: SignatureCheck): Promise<boolean>
  /** Whether `address` is well-formed for this namespace. */
  isValidAddress(address: string): boolean
  /**
   * A transaction was mined at `blockNumber` touching `accounts` (its sender, its recipient, the
   * parties of its ERC-20 Transfer logs): the per-block cache ends for them, and every read from
   * now is pinned to that block or a later one (no upstream call of its own: the block number
   * comes from the receipt the transaction service read).
   */
  settled?(touch: SettledTransaction): void
  /** Lets go of long-lived connections (an EVM chain's WebSocket), if any. */
  close?(): void
}

/** A mined transaction's block and the accounts whose balances it changed. */
export interface SettledTransaction {
  blockNumber: bigint
  /** Addresses as the chain writes them (any case for EVM). */
  accounts: readonly string[]
}
