/** What `getBalance` reads: chain (CAIP-2), token (`native` or an address), account, decimals. */
export interface TokenBalanceQuery {
  /** CAIP-2 chain id, e.g. `eip155:1`; read there whatever chain the wallet is on. */
  chainId: string
  /** `native`, an ERC-20 contract or a Solana mint. */
  tokenAddress: string
  account: string
  /** Decimals of the token (0..255); when omitted the backend determines them. */
  decimals?: number
}

/** A balance as `getBalance` returns it: `raw` in the smallest unit (bigint), `decimals`, `chainId`. */
export interface TokenBalance {
  /** Balance in the token's smallest unit. */
  raw: bigint
  /** The query's `decimals` when given, else the backend's. */
  decimals: number
  chainId: string
  /** Block the balance was read at (EVM chains). */
  blockNumber?: bigint
}
