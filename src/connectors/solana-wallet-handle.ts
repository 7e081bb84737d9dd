/**
 * What the Solana connector needs from a wallet, whichever way the wallet is reached (the Wallet
 * Standard or a legacy `window` provider). Errors are the wallet's own; the connector normalises them.
 */
export interface SolanaWalletHandle {
  /**
   * Base58 addresses, the active one first. `silent`: no prompt; no address (an empty list) when
   * the wallet does not already trust this site.
   */
  connect(options?: { silent?: boolean }): Promise<string[]>
  disconnect(): Promise<void>
  /** The ed25519 signature of `message` by `address`. */
  signMessage(address: string, message: Uint8Array): Promise<Uint8Array>
  /** The serialized transaction with `address`'s signature filled in. */
  signTransaction(address: string, transaction: Uint8Array, chain: string): Promise<Uint8Array>
  /** Signs `transaction` as `address` and has the wallet broadcast it: its first signature. */
  signAndSendTransaction(
    address: string,
    transaction: Uint8Array,
    chain: string,
  ): Promise<Uint8Array>
  /**
   * Reports account changes: a list (possibly empty) when the accounts change, `null` when the wallet
   * ended the connection. Returns the function that stops watching.
   */
  watch(listener: (accounts: string[] | null) => void): () => void
}
