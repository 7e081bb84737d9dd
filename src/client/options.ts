import type { SnapshotMigrations } from '../../machines/client/client.persistence'
import type { ClientTimeouts } from '../../machines/client/client.types'
import type { PairingStore } from '../../machines/pairing/pairing.persistence'
import type { InspectionOptions } from '../../machines/shared/inspect'
import type { TransactionTimeouts } from '../../machines/transaction/transaction.types'
import type { ConnectionStore } from '../connection/store'
import type { CoinbaseSdkOptions } from '../connectors/coinbase-sdk'
import type { MetaMaskSdkOptions } from '../connectors/metamask-sdk'
import type { IWalletConnector, WalletConnection } from '../connectors/types'
import type { WalletConnectConnectorOptions } from '../connectors/walletconnect'
import type { AppError } from '../errors/app-error'
import type { PhantomLinkPersistedState } from '../phantom-link/persisted'
import type { PartnerWalletInput } from '../registry/partners'
import type { Caip2ChainId, NetworkInfo } from '../registry/types'
import type { WebSocketConstructor } from '../relay/client/websocket'
import type { RecordStore } from '../storage/record-store'
import type { TransactionStore } from '../transaction/store'
import type { TransactionHandle } from '../transaction/types'
import type { UniversalLinkStore } from '../universal-link/store'

/** Options of `new Client(options)`: the backend, the app key, custom connectors, mobile detection, timeouts, inspection. */
export interface ClientOptions extends InspectionOptions {
  /** Backend base URL (HTTPS; HTTP only for local development hosts). */
  baseUrl: string
  /** Public client identifier, sent as `X-App-Key`. */
  appKey: string
  fetchImpl?: typeof fetch
  /** Custom connectors; `selectWallet(id)` picks one whose id (or wallet id) matches first. */
  connectors?: readonly IWalletConnector[]
  /**
   * A phone: the mobile paths (vendor SDKs, universal links) for wallets whose provider is not in the
   * page; a wallet that is (its in-app browser) is connected through that provider. Default:
   * detected from the user agent.
   */
  mobile?: boolean
  /** Chain of mobile Solana (universal-link) connections; default Solana mainnet. */
  solanaChainId?: Caip2ChainId
  /** Named timeouts (ms); see `DEFAULT_CLIENT_TIMEOUTS`. */
  timeouts?: Partial<ClientTimeouts>
  /** The universal-link flow: where it persists (default `localStorage`), how it opens links. */
  universalLink?: {
    store?: UniversalLinkStore
    openLink?: (url: string) => void
    returnUrl?: string
    dappName?: string
    pollIntervalMs?: readonly [number, number] | number
    /** Migrations of stored flows written under older record schemas, by that schema (`client.link@1`). */
    migrations?: SnapshotMigrations
  }
  /**
   * Phantom's deeplinks v1 on a phone (Phantom, Solflare: registry `phantomLink`): where the flow
   * persists across the navigation to the wallet (default `localStorage`), how links open, where
   * the wallet sends the user back (default the current page), `app_url`, and the named timeout
   * of each request (`answerMs`, default 5 minutes). `resume({ url })` takes the wallet's answer.
   */
  phantomLink?: {
    store?: RecordStore<PhantomLinkPersistedState>
    openLink?: (url: string) => void
    redirectLink?: string
    appUrl?: string
    answerMs?: number
  }
  metaMaskSdk?: MetaMaskSdkOptions
  /** Coinbase Wallet SDK options (`CoinbaseSdkConnector`), for Coinbase Wallet without its extension. */
  coinbaseSdk?: CoinbaseSdkOptions
  /**
   * WalletConnect v2 (`WalletConnectConnector` options: `projectId`, `metadata`, `relayUrl`,
   * `chains`, `importSignClient`, …). With it, `selectWallet` serves the `walletconnect` path: a
   * wallet without its extension on a desktop, a phone wallet with no SDK or deeplinks of its own
   * (`walletPaths` order), and `selectWallet('walletconnect')` (any WalletConnect wallet, by QR
   * code); the modal offers them. One connector (one sign-client) per namespace serves every
   * wallet; its code loads on first use. Checked then: `INVALID_CONFIG` naming the field.
   */
  walletConnect?: WalletConnectConnectorOptions
  /** The relay for `pair()`; default the backend's relay route (`relayUrlForBaseUrl(baseUrl)`). */
  relayUrl?: string
  /**
   * Partner wallets (they integrate `scope-connect/wallet`: `sc*` universal links and/or the `scr`
   * relay), added to the registry at construction (`registerPartnerWallets`; `INVALID_CONFIG`).
   */
  partnerWallets?: readonly PartnerWalletInput[]
  /**
   * Networks the built-in registry lacks (`defineNetwork`), added to the registry at construction
   * (`registerNetworks`; `INVALID_CONFIG`): lookups, the UI and `switchChain`'s add (4902) know them.
   * A project's custom chains come from its config (`GET /config`) without this option.
   */
  networks?: readonly NetworkInfo[]
  /** For `pair()`: default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor
  /**
   * Where the last desktop connection is kept for a silent reconnect by `resume()` (connector,
   * wallet, account, chain; no secret). Default `createBrowserConnectionStore()` (`localStorage`,
   * nothing outside a page); `createMemoryConnectionStore()` elsewhere; `null`: none.
   */
  connectionStore?: ConnectionStore | null
  /** Relay pairing (`pair()`): where a settled session persists for `resume()`, and its migrations. */
  pairing?: {
    /** Keeps the settled session (7 days); `createBrowserPairingStore()` in a page. Default: none. */
    store?: PairingStore
    /** Migrations of stored sessions written under older record schemas, by that schema (`client.relay@1`). */
    migrations?: SnapshotMigrations
  }
  /** `sendTransaction`: confirmations to wait for, named timeouts, where the one in flight is kept. */
  transactions?: {
    /** Default 1 (in the head block). */
    confirmations?: number
    /** See `DEFAULT_TRANSACTION_TIMEOUTS`. */
    timeouts?: Partial<TransactionTimeouts>
    /**
     * Keeps the transaction waiting for its receipt across a reload, for `resumeTransaction()`.
     * Default `createBrowserTransactionStore()` (`localStorage`; nothing where there is none);
     * null: none.
     */
    store?: TransactionStore | null
  }
}

/**
 * Where a resumed flow stands, at once — a universal-link flow, or a paired relay session
 * (`connected`) — and `wait()` settles with its outcome.
 */
export type ResumeResult =
  | { status: 'none'; wait(): Promise<WalletConnection | null> }
  /** A Phantom-link signature request answered: `signature()` (base58); `transaction()` for `sendTransaction`. */
  | {
      status: 'signed'
      connection: WalletConnection | null
      /** The wallet's base58 signature (at once). */
      signature(): Promise<string>
      wait(): Promise<WalletConnection | null>
      transaction?(): Promise<TransactionHandle>
    }
  /**
   * A Phantom-link answer: the wallet's error (`failed`: `USER_REJECTED` for 4001, …), or an answer
   * the flow refused (`refused`: forged, replayed, for another flow; the flow is kept).
   */
  | { status: 'failed' | 'refused'; error: AppError; wait(): Promise<WalletConnection | null> }
  | { status: 'discarded'; reason: string; wait(): Promise<WalletConnection | null> }
  | {
      status: 'awaitingWallet' | 'connected'
      connection: WalletConnection | null
      /** The connection once settled. */
      wait(): Promise<WalletConnection | null>
    }
  | {
      status: 'awaitingSignature'
      connection: WalletConnection | null
      /** The connection still open once the signature settled. */
      wait(): Promise<WalletConnection | null>
      /** The wallet's signature (base58 over the session envelope, verified by the backend). */
      signature(): Promise<string>
      /**
       * Present when the wallet is answering a `sendTransaction` (a reload while it was asked): the
       * transaction once it answers, watched as `sendTransaction` would have (`getView().transaction`
       * follows it whether or not this is called). Rejects as that call would (`USER_REJECTED`, …).
       */
      transaction?(): Promise<TransactionHandle>
    }
