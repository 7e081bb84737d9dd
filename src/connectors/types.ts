import type { Caip2ChainId, ChainNamespace, WalletId } from '../registry/types'

/** Arguments of an EIP-1193 (or Solana-connector) request. */
export interface RequestArgs {
  method: string
  params?: readonly unknown[] | Record<string, unknown>
}

/** The EIP-1193 provider surface the library relies on. */
export interface Eip1193Provider {
  request(args: RequestArgs): Promise<unknown>
  on?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/** What a connector reports after a successful `connect()`. */
export interface WalletConnection {
  /** Filled by `walletIdForConnectorId(connectorId)`; undefined for `injected` and `relay`. */
  walletId: WalletId | undefined
  connectorId: string
  namespace: ChainNamespace
  chainId: Caip2ChainId
  /** Account addresses, the active one first. */
  accounts: string[]
}

/** Changes a connected wallet reports; the connect machine reacts to them. */
export type ConnectorEvent =
  | { type: 'accountsChanged'; accounts: string[] }
  | { type: 'chainChanged'; chainId: Caip2ChainId }
  | { type: 'disconnect' }
  /** A remote-wallet connector's pairing URI while the wallet is asked (WalletConnect's `wc:`). */
  | { type: 'displayUri'; uri: string }

/**
 * What every connector implements: availability, connect, requests, accounts, disconnect and
 * wallet-side events.
 */
export interface IWalletConnector {
  /** Stable connector id, e.g. `injected`, `eip6963:io.metamask`, `solana:phantom`. */
  readonly id: string
  isAvailable(): boolean
  connect(): Promise<WalletConnection>
  /**
   * Restores the connection without prompting (the `Client`'s `resume()` after a reload): the
   * connection when the wallet still authorizes this site, `null` when it does not (or is locked).
   * Connectors without it are never reconnected silently.
   */
  reconnect?(): Promise<WalletConnection | null>
  request<T>(args: RequestArgs): Promise<T>
  getAccounts(): string[]
  disconnect(): Promise<void>
  /** EIP-1193 connectors only. */
  getProvider?(): Eip1193Provider | undefined
  /** Subscribe to wallet-side changes; returns the unsubscribe function. */
  subscribe?(listener: (event: ConnectorEvent) => void): () => void
}
