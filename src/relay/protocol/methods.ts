/**
 * The session protocol's JSON-RPC methods, sealed in envelopes on the pairing and session topics
 * (after WalletConnect v2's `wc_session*`, but ours: `scr_session*`). See docs/pairing.md.
 */
export const SESSION_METHODS = {
  /** dApp → wallet, pairing topic. Result: the approval; error 4001: rejected. */
  propose: 'scr_sessionPropose',
  /** dApp → wallet, session topic: a wallet RPC call (`personal_sign`, …). */
  request: 'scr_sessionRequest',
  /** Either side, session topic. Result `true`. */
  ping: 'scr_sessionPing',
  /** Either side, session topic: the session ends. Result `true`. */
  delete: 'scr_sessionDelete',
  /**
   * Wallet → dApp, session topic: the wallet's accounts on a chain changed (`accountsChanged`; the
   * session's accounts for that chain are the new list, the first the active one). Result `true`.
   */
  event: 'scr_sessionEvent',
} as const
export type SessionMethod = (typeof SESSION_METHODS)[keyof typeof SESSION_METHODS]

/** The wallet RPC methods a session request may carry. */
export const WALLET_REQUEST_METHODS = {
  personalSign: 'personal_sign',
  signTypedDataV4: 'eth_signTypedData_v4',
  solanaSignMessage: 'solana_signMessage',
  solanaSignTransaction: 'solana_signTransaction',
  /** EVM: sign and broadcast; the wallet answers the transaction hash. */
  sendTransaction: 'eth_sendTransaction',
} as const
export type WalletRequestMethod =
  (typeof WALLET_REQUEST_METHODS)[keyof typeof WALLET_REQUEST_METHODS]

/**
 * JSON-RPC error codes inside session responses. 4001/4100/4200 are EIP-1193's (so a wallet's
 * provider error passes through unchanged); 5xxx are the session protocol's.
 */
export const SESSION_ERROR_CODES = {
  /** The user rejected the proposal or the request. Becomes `USER_REJECTED`. */
  USER_REJECTED: 4001,
  /** The account or chain is not part of the session. */
  UNAUTHORIZED: 4100,
  /** The wallet does not serve this method. */
  UNSUPPORTED_METHOD: 4200,
  /** The proposal asked for namespaces the wallet cannot serve. */
  UNSUPPORTED_NAMESPACES: 5100,
  /** The proposal's expiry passed before the wallet answered. */
  PROPOSAL_EXPIRED: 5200,
  /** Params that do not match the method's shape. */
  INVALID_PARAMS: -32602,
  /** Anything else that went wrong in the wallet. */
  INTERNAL_ERROR: -32603,
} as const

/** The reason codes of `scr_sessionDelete`. */
export const SESSION_DELETE_CODES = {
  /** The user (or app) disconnected. */
  USER_DISCONNECTED: 6000,
  /** The session reached its expiry. */
  EXPIRED: 6100,
} as const
