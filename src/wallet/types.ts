import type { FetchLike } from '../http/client'
import type { RelayBackoff } from '../relay/client/backoff'
import type { WebSocketConstructor } from '../relay/client/websocket'
import type { PeerMetadata, WalletRequest } from '../relay/protocol/schemas'
import type { CaipNamespaces, RelayTokenGrant, SettledNamespaces } from '../relay/types'

/** Options of `createRelayWallet`: the wallet's metadata, its app key or token source, the WebSocket implementation, timeouts. */
export interface RelayWalletOptions {
  /** How the wallet presents itself to dApps (name, url, icons). */
  metadata: PeerMetadata
  /**
   * Relay token source. Default: `POST /api/v1/connect/relay/token` on the backend that serves the
   * pairing URI's relay (derived from its `relay-url`, or `baseUrl`), with `appKey`.
   */
  getToken?: () => Promise<RelayTokenGrant>
  /** The wallet provider's app key on the backend (for the default token source). */
  appKey?: string
  /** The backend base URL for the default token source; default derived from the relay URL. */
  baseUrl?: string
  /** Default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor
  fetchImpl?: FetchLike
  /** How long `pair(uri)` waits for the dApp's proposal. Default 30 000 ms. */
  proposalWaitMs?: number
  /** Session lifetime the wallet grants. Default 7 days. */
  sessionTtlSeconds?: number
  backoff?: Partial<RelayBackoff>
  keepaliveMs?: number
  now?: () => number
}

/** The dApp's proposal, as `pair(uri)` returns it: show it to the user, then approve or reject. */
export interface SessionProposal {
  /** The proposal's JSON-RPC id. */
  readonly id: number
  /** The dApp as it describes itself (not authenticated: show the URL). */
  readonly proposer: { publicKey: string; metadata: PeerMetadata }
  readonly requiredNamespaces: CaipNamespaces
  /** ms since the epoch; approving later fails with `SESSION_EXPIRED`. */
  readonly expiresAt: number
  /**
   * Approves with the accounts the user chose. Settles the session (key agreement, session topic
   * subscribed) and answers the dApp; resolves with the session.
   * @throws AppError `INVALID_CONFIG` for namespaces without accounts or not covering a required
   * namespace, `SESSION_EXPIRED` after the proposal's expiry, `RELAY_ERROR` when it cannot be sent.
   */
  approve(params: { namespaces: SettledNamespaces }): Promise<WalletSession>
  /** Answers the dApp with a rejection (code 4001 unless given). */
  reject(reason?: { code?: number; message?: string }): Promise<void>
}

/** A settled session on the wallet side. Its topic and key stay inside the wallet client. */
export interface WalletSession {
  /** A local handle (not the topic). */
  readonly id: string
  readonly namespaces: SettledNamespaces
  readonly peer: { publicKey: string; metadata: PeerMetadata }
  /** ms since the epoch. */
  readonly expiresAt: number
}

/** A dApp request for the wallet to answer: a validated wallet call on a session. */
export type WalletSessionRequest = WalletRequest & {
  /** The JSON-RPC id. */
  id: number
  /** The CAIP-2 chain it is meant for (one of the session's). */
  chainId: string
  session: WalletSession
}

/**
 * Answers one request: return the result (`0x…` signature for `personal_sign` and
 * `eth_signTypedData_v4`, `{ signature }` for Solana), or throw to refuse (an error with `code`
 * 4001, or an `AppError` `USER_REJECTED`, tells the dApp the user rejected it).
 */
export type WalletRequestHandler = (request: WalletSessionRequest) => unknown | Promise<unknown>
