import type { ChainNamespace } from '../../src/registry/types'
import type { ErrorData } from '../shared/error-data'

/** A wallet connection as plain data (`walletId` is `null` rather than `undefined`, to survive JSON). */
export interface ConnectionData {
  walletId: string | null
  connectorId: string
  namespace: ChainNamespace
  chainId: string
  /** Active account first. */
  accounts: string[]
}

/**
 * Input of the connect machine: the connector's id (the connector itself is bound to its actors).
 */
export interface ConnectInput {
  /** The connector's id, for display and logs (the connector itself stays out of context). */
  connectorId: string
}

/** The connect machine's context: the connector id, the JSON-safe connection and the last error. */
export interface ConnectContext {
  connectorId: string
  connection: ConnectionData | null
  error: ErrorData | null
  /** A remote wallet's pairing URI (WalletConnect's `wc:`) while `connecting`; null otherwise. */
  pairingUri: string | null
}

/**
 * The events the connect machine takes: connect, retry, reset, disconnect, and the connector's
 * account, chain and disconnect reports.
 */
export type ConnectEvent =
  /** Ask the wallet to connect. */
  | { type: 'CONNECT' }
  /** Restore the connection without a prompt (the wallet's standing authorization). */
  | { type: 'RECONNECT' }
  /** Connect again after a rejection or failure. */
  | { type: 'RETRY' }
  /** Back to idle from `rejected` / `failed`, or give up while connecting. */
  | { type: 'RESET' }
  /** Disconnect a connected wallet. */
  | { type: 'DISCONNECT' }
  /** The wallet switched accounts (an empty list means it disconnected). */
  | { type: 'WALLET.ACCOUNTS_CHANGED'; accounts: string[] }
  /** The wallet switched chains. */
  | { type: 'WALLET.CHAIN_CHANGED'; chainId: string }
  /** The wallet ended the connection itself. */
  | { type: 'WALLET.DISCONNECTED' }
  /** A remote-wallet connector reports the URI the wallet pairs from (while connecting). */
  | { type: 'WALLET.PAIRING_URI'; uri: string }

/** Events the `watchWallet` actor sends back to the machine. */
export type WalletWatchEvent = Exclude<
  Extract<ConnectEvent, { type: `WALLET.${string}` }>,
  { type: 'WALLET.PAIRING_URI' }
>

/** The event the `watchPairingUri` actor sends back. */
export type PairingUriEvent = Extract<ConnectEvent, { type: 'WALLET.PAIRING_URI' }>
