import type { Caip2ChainId } from '../registry/types'

/** One call of an EIP-5792 batch (`wallet_sendCalls`). */
export interface TransactionCall {
  to?: string | null
  value?: bigint
  data?: string
}

/**
 * What `client.sendTransaction` asks the wallet to send. EVM: `to`, `value`, `data` and the gas
 * and fee fields of `eth_sendTransaction` (the wallet fills what is left out), or `calls` for a
 * batch (`wallet_sendCalls`, EIP-5792, when the wallet's `wallet_getCapabilities` answers).
 * Solana: `transaction`, serialized and base64, for the wallet's `signAndSendTransaction`.
 */
export interface SendTransactionParameters {
  to?: string | null
  value?: bigint
  data?: string
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  nonce?: number
  /** A batch of calls (EIP-5792); not with `to` / `data`. */
  calls?: readonly TransactionCall[]
  /** Solana: the serialized transaction, base64. */
  transaction?: string
  /** The chain; default the connection's. */
  chainId?: Caip2ChainId
  /** Confirmations `wait()` waits for; default `ClientOptions.transactions.confirmations` or 1. */
  confirmations?: number
}

/** What `wait()` settles with: the transaction mined with its wanted confirmations. */
export interface TransactionReceiptSummary {
  status: 'confirmed'
  chainId: string
  /** The hash (EVM) or signature (Solana). */
  hash: string
  /** The block (EVM) or slot (Solana) it is in. */
  blockNumber: bigint
  /** Blocks on top of it, its own included, when `wait()` settled. */
  confirmations: number
}

/** A transaction the wallet sent: its hash at once, its receipt through the backend. */
export interface TransactionHandle {
  hash: string
  chainId: string
  /**
   * Settles once the backend reads the wanted confirmations (no RPC in the dApp).
   * @throws AppError `TRANSACTION_REVERTED` (the reason in the message when the node gives one),
   * `TRANSACTION_REPLACED` (the replacement's hash in `details[0].reason`), `TRANSACTION_DROPPED`,
   * `TIMEOUT` (`receiptMs`), `RPC_ERROR` / `UNSUPPORTED_CHAIN` (the backend's reads failed
   * `MAX_STATUS_FAILURES` times in a row), `ABORTED` (another transaction replaced the watcher).
   */
  wait(): Promise<TransactionReceiptSummary>
}
