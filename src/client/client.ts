import { type AnyActorRef, createActor, type InspectionEvent, type Subscription } from 'xstate'
import { bindClient, createLazyLogic } from '../../machines/client/client.actors'
import type { ClientActor } from '../../machines/client/client.facade'
import type { RestoreCheck, SnapshotMigrations } from '../../machines/client/client.persistence'
import type {
  ClientSignRequest,
  ClientTimeouts,
  LoadConnectorInput,
  LoadedConnector,
  OperationOutcome,
} from '../../machines/client/client.types'
import { type ClientView, clientView } from '../../machines/client/client.view'
import type { ConnectMachine } from '../../machines/connect/connect.machine'
import type { PairingActor, PairingHandle } from '../../machines/pairing/pairing.facade'
import type { PairingMachine } from '../../machines/pairing/pairing.machine'
import type { PairingRestoreCheck, PairingStore } from '../../machines/pairing/pairing.persistence'
import type { SessionTokenVault } from '../../machines/session-polling/session-polling.actors'
import { monotonicClock } from '../../machines/shared/clock'
import { createDeferredInspector } from '../../machines/shared/deferred-inspector'
import { toAppError } from '../../machines/shared/error-data'
import { createGuardReport, guarded, guardStore } from '../../machines/shared/guard'
import type { InspectionOptions } from '../../machines/shared/inspect'
import { createSecretRegistry } from '../../machines/shared/secret-registry'
import type { SignMachine } from '../../machines/sign/sign.machine'
import { type SignableMessage, signRequest } from '../../machines/sign/sign.requests'
import type { TransactionMachine } from '../../machines/transaction/transaction.machine'
import type {
  TransactionSummary,
  TransactionTimeouts,
} from '../../machines/transaction/transaction.types'
import type { UniversalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import type { BalanceReader, TokenBalance, TokenBalanceQuery, TokenBalanceResult } from '../balance'
import type { ConnectConfig, ConnectConfigClient } from '../config'
import {
  CONNECTION_STORE_FORMAT,
  CONNECTION_STORE_FORMAT_VERSION,
  type ConnectionStore,
  parseStoredConnection,
  type StoredConnection,
} from '../connection/store'
import type { CoinbaseSdkOptions } from '../connectors/coinbase-sdk'
import type { MetaMaskSdkOptions } from '../connectors/metamask-sdk'
import type { IWalletConnector, RequestArgs, WalletConnection } from '../connectors/types'
import type { ServedPathOptions } from '../connectors/wallet-paths'
import type { WalletConnectConnectorOptions } from '../connectors/walletconnect'
import { typedDataJson } from '../eip3009/typed-data-json'
import { AppError, isAppError } from '../errors/app-error'
import { normalizeBaseUrl } from '../http/base-url'
import { requireNonEmpty, resolveFetch } from '../http/options'
import type { PhantomLinkPersistedState } from '../phantom-link/persisted'
import { SOLANA_MAINNET_CHAIN_ID } from '../registry/chain-ids'
import { registerNetworks } from '../registry/custom-networks'
import { type PartnerWalletInput, registerPartnerWallets } from '../registry/partners'
import type { Caip2ChainId, ChainNamespace, NetworkInfo, WalletId } from '../registry/types'
import type { WebSocketConstructor } from '../relay/client/websocket'
import type { RecordStore } from '../storage/record-store'
import type { TransactionStore } from '../transaction/store'
import type {
  SendTransactionParameters,
  TransactionHandle,
  TransactionReceiptSummary,
} from '../transaction/types'
import type { ClientLink } from '../universal-link/lazy/client-link'
import type { UniversalLinkStore } from '../universal-link/store'
import { checkParameters, loadParameterChecks } from './check'
import { guardClientOptions } from './guard-options'
import type { ClientPairingPart } from './lazy/pairing'
import type { PhantomLinkHost } from './lazy/phantom-link'
import { type ClientPairOptions, defaultRequiredNamespaces, pairMetadata } from './pairing'

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

/** A child actor of `parent` by id (the snapshot's `children`). */
function childOf(parent: AnyActorRef | undefined, id: string): AnyActorRef | undefined {
  const snapshot = parent?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> }
  return snapshot?.children?.[id]
}

function evmOnly(): AppError {
  return new AppError('UNSUPPORTED_CHAIN', 'signTypedData is for EVM (eip155) connections.')
}

const LINK_SIGN = { method: 'signMessage', payload: null } as const

function rawIsEvmOnly(): AppError {
  const reason = 'is for EVM connections: sign Solana text as a string'
  return new AppError('INVALID_CONFIG', `Invalid message.raw: ${reason}.`, {
    details: [{ field: 'message.raw', reason }],
  })
}

function detectMobile(): boolean {
  return (
    typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
  )
}

/**
 * The library's entry point: pick a wallet, connect, sign, read config and balances. It runs the
 * root statechart (`clientMachine`) in one actor: every flow — connector loading, connect, sign,
 * the universal-link flow and its session polling, config and balance reads — is a child of it.
 * Each method sends an event and settles from the root's state; every flow ends by a named timeout
 * at the latest. UIs render `getView()` and `subscribe()` to it.
 */
export class Client {
  readonly #options: ClientOptions
  /** Reports a throw of the app's own code (inspector, stores, listeners) once, through the logger. */
  readonly #report = createGuardReport()
  /** The deadlines' clock: wall time when made, then monotonic (`performance.now()`). */
  readonly #now = monotonicClock()
  #config: ConnectConfigClient | null = null
  readonly #secrets = createSecretRegistry()
  /** The universal-link flow's session tokens, made when that flow first loads. */
  #vault: SessionTokenVault | null = null
  readonly #link = createLazyLogic<UniversalLinkMachine>('universalLink')
  readonly #connection = createLazyLogic<ConnectMachine>('connection')
  readonly #signing = createLazyLogic<SignMachine>('sign')
  readonly #listeners = new Set<(view: ClientView) => void>()
  #balances: BalanceReader | null = null
  #connector: IWalletConnector | null = null
  #actor: ClientActor
  #subscription: Subscription | null = null
  #stopPersisting: (() => void) | null = null
  #linkPart: ClientLink | null = null
  /** The slots of the reads in flight: a read's id is the lowest free one (see `#read`). */
  readonly #readSlots = new Set<number>()
  readonly #pairingLogic = createLazyLogic<PairingMachine>('pairing')
  #pairingPart: ClientPairingPart | null = null
  /** The flow of the root's current `pairing` child. */
  #pairing: PairingHandle | null = null
  /** The app's inspector behind redaction, which loads on demand; one for every root actor. */
  readonly #inspect: ((event: InspectionEvent) => void) | undefined
  #pairingStore: PairingStore | null = null
  #stopPairPersisting: (() => void) | null = null
  /** The connection store (loaded on first use when the default one); what it last saved. */
  #connections: Promise<ConnectionStore | null> | null = null
  #savedConnection: string | null = null
  /** The project's chains once its config was read (read once: `#followProjectChains`). */
  #projectChains: string[] | null = null
  /** The root and flow the last read of them started in: a failed read is tried again in a later flow. */
  #projectChainsReadIn: { actor: ClientActor; flow: number } | null = null
  readonly #transactionLogic = createLazyLogic<TransactionMachine>('transaction')
  /** The built-in Phantom-link connectors, one per wallet (`resume({ url })` hands them answers). */
  readonly #phantomLinks = new Map<string, IWalletConnector>()
  /** The WalletConnect connectors of `options.walletConnect`, one per namespace, made on first use. */
  readonly #walletConnects = new Map<ChainNamespace, Promise<IWalletConnector>>()
  #transactionPart: typeof import('./lazy/transaction') | null = null
  #transactionStore: TransactionStore | null = null
  /** The hash last written to the transaction store (saved once per transaction). */
  #storedTransaction: string | null = null
  /** The root's `transaction` child this client follows (its changes reach the view's listeners). */
  #transactionChild: AnyActorRef | null = null
  #transactionFollow: Subscription | null = null

  /**
   * @throws `INVALID_CONFIG` when baseUrl or appKey is missing, baseUrl is not HTTPS, no fetch, or a
   * partner wallet or a network is not valid.
   */
  constructor(options: ClientOptions) {
    // Validated now; the HTTP client and schemas load with the first read (src/client/lazy/readers).
    normalizeBaseUrl(options?.baseUrl) // INVALID_CONFIG, not a TypeError, for no options
    // The app's stores and inspector behind guards: what they throw is logged once and dropped.
    this.#options = guardClientOptions(options, this.#report)
    requireNonEmpty(options.appKey, 'appKey')
    resolveFetch(options.fetchImpl)
    if (options.partnerWallets !== undefined) registerPartnerWallets(options.partnerWallets)
    if (options.networks !== undefined) registerNetworks(options.networks)
    this.#inspect = this.#inspector()
    this.#actor = this.#start(undefined)
    loadParameterChecks().catch(() => undefined) // so that each method's check runs at once
  }

  /** The root actor (replaced by `resume()`; `subscribe` follows it). */
  get actor(): ClientActor {
    return this.#actor
  }

  /**
   * The `connect` machine's actor of the selected desktop connector (a child of the root actor).
   * @throws `WALLET_NOT_FOUND` before a desktop connector is selected.
   */
  get connectActor(): import('xstate').ActorRefFrom<ConnectMachine> {
    const ref = childOf(this.#actor, 'connection')
    if (ref) return ref as import('xstate').ActorRefFrom<ConnectMachine>
    throw new AppError('WALLET_NOT_FOUND', 'No wallet selected yet: call selectWallet or connect.')
  }

  /**
   * The flow of the current relay pairing — from `pair()`, or the session `resume()` restored (then
   * its `uri` is null) — while the root is in its relay flow; else null.
   */
  get pairing(): PairingHandle | null {
    return this.#relayFlow()
  }

  /**
   * What this client serves beyond the built-in paths, for `isServedPath(path, options)`:
   * `walletConnect` once that option is set. The connect modal offers a wallet by these.
   */
  servedPathOptions(): ServedPathOptions {
    return { walletConnect: this.#options.walletConnect !== undefined }
  }

  /** The selected connector, if any. */
  get connector(): IWalletConnector | null {
    return this.#connector
  }

  /** The current view (`toClientView` of the root snapshot). */
  getView(): ClientView {
    return clientView(this.#actor.getSnapshot())
  }

  /** Calls `listener` with the view now and on every change, across root replacements (`resume`). */
  subscribe(listener: (view: ClientView) => void): () => void {
    this.#listeners.add(listener)
    guarded(this.#report, 'a subscribe() listener', () => listener(this.getView()), undefined)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Chooses the connector for a wallet: a custom connector with that id first; else, on desktop and
   * wherever the wallet's provider is in the page (a wallet's in-app browser on a phone), EIP-6963 /
   * injected (EVM) or the Wallet Standard (Solana); on a phone outside the wallet, its SDK (MetaMask,
   * Coinbase) or the universal link (`walletPaths`). `walletId` is a built-in slug, `eip6963:{rdns}`
   * (any wallet that announces itself) or `wallet-standard:{name}` (any Solana Wallet Standard
   * wallet): see `resolveWalletInfo`. The connector's code is loaded on demand (a dynamic import).
   * Ends any pending flow (`ABORTED`). @throws `WALLET_NOT_FOUND` (unknown wallet),
   * `UNSUPPORTED_CHAIN`, `WALLET_UNAVAILABLE`, `TIMEOUT` (`connectorLoadMs`), `ABORTED`.
   */
  async selectWallet(
    walletId: WalletId,
    options: { namespace: ChainNamespace },
  ): Promise<IWalletConnector> {
    const checking = checkParameters('selectWallet', walletId, options)
    if (checking) await checking
    await this.#run({
      type: 'SELECT_WALLET',
      walletId,
      namespace: options.namespace,
      connect: false,
    })
    return this.#connector as IWalletConnector
  }

  /**
   * Connects the selected connector (the first custom one, else the injected wallet, when none was
   * selected). Resolves at once when already connected.
   * @throws `USER_REJECTED`; `WALLET_UNAVAILABLE`, `WALLET_ERROR`; `TIMEOUT` (`walletAnswerMs`);
   * `ABORTED` (`cancel()`, `disconnect()`, another wallet selected); over a universal link
   * `SESSION_EXPIRED`, `SESSION_FAILED`, `BACKEND_ERROR`.
   */
  async connect(): Promise<WalletConnection> {
    this.#live()
    const view = this.getView()
    if (view.isConnected) return this.getConnection() as WalletConnection
    // A wallet being selected: connect it once loaded (not the default connector).
    if (view.pending === 'select') await this.#wait(this.#actor.getSnapshot().context.flow)
    if (this.getView().pending === 'connect')
      await this.#wait(this.#actor.getSnapshot().context.flow)
    else if (this.getView().isConnected) return this.getConnection() as WalletConnection
    else if (this.#actor.getSnapshot().hasTag('selected')) await this.#run({ type: 'CONNECT' })
    else await this.#run({ type: 'SELECT_WALLET', walletId: null, namespace: null, connect: true })
    const connection = this.getConnection()
    if (connection) return connection
    throw new AppError('NOT_CONNECTED', 'The wallet disconnected.')
  }

  /**
   * Pairs a wallet over the relay (QR code or deep link), end-to-end encrypted: the root invokes the
   * `pairing` machine as its child. Resolves once the pairing URI exists (show `flow.uri`, or the
   * view's `pairingUri`, as a QR code: `pairingQrSvg` from `scope-connect/qr`); `flow.approval`
   * settles when the wallet answers, and from then on `getConnection`, `signMessage`,
   * `signTypedData` and `disconnect` go over the paired session. Ends any pending flow (`ABORTED`),
   * and a previous pairing; `cancel()` while pairing rejects the approval with `ABORTED`. The
   * pairing machine and the relay client load on first use. With a store (`options.store` or
   * `ClientOptions.pairing.store`) the settled session survives a reload: see `resume()`.
   * @throws `INVALID_CONFIG` (no metadata outside a page, a bad relay URL or proposal).
   */
  async pair(options: ClientPairOptions = {}): Promise<PairingHandle> {
    const checking = checkParameters('pair', options)
    if (checking) await checking
    const metadata = pairMetadata(options)
    const part = await this.#loadPairing()
    const begun = part.begin({
      requiredNamespaces: defaultRequiredNamespaces(options),
      metadata,
      ...(options.proposalTtlSeconds === undefined
        ? {}
        : { proposalTtlSeconds: options.proposalTtlSeconds }),
    })
    // A new pairing replaces any paired session, stored ones too: should this pairing fail, no
    // stale session may come back at the next resume().
    this.#pairingStore?.clear()
    this.#pairingStore = options.store
      ? guardStore(options.store, 'pair({ store })', this.#report)
      : (this.#options.pairing?.store ?? null)
    this.#pairingStore?.clear()
    this.#persistPairing(this.#live())
    this.#actor.send({ type: 'PAIR', input: begun.input, uri: begun.uri })
    return this.#pairedFlow(
      begun.input.pairingId,
      begun.uri,
      this.#actor.getSnapshot().context.flow,
    )
  }

  /** The current connection (a connector's, else a settled pairing's), or null. */
  getConnection(): WalletConnection | null {
    const snapshot = this.#actor.getSnapshot()
    const connection = snapshot.context.connection
    if (!connection || snapshot.status !== 'active' || !snapshot.hasTag('connected')) return null
    return {
      ...connection,
      walletId: connection.walletId ?? undefined,
      chainId: connection.chainId as Caip2ChainId,
    }
  }

  /**
   * Ends the pending flow, if any: its promise rejects with `ABORTED`, a universal-link flow is
   * stopped and its stored state cleared. A connection in place stays (see `disconnect`). A
   * transaction the wallet is asked for is given up, not taken back: the wallet may still send it,
   * and `getView().transaction` follows its answer (see `sendTransaction`).
   */
  cancel(): void {
    // A transaction awaiting its wallet is cancelled through the root too (its child ends ABORTED).
    if (this.getView().canCancel) this.#actor.send({ type: 'CANCEL' })
    if (!this.#actor.getSnapshot().hasTag('resumable')) this.#options.universalLink?.store?.clear()
  }

  /**
   * Ends any pending flow (`ABORTED`) and the connection — a paired relay session is deleted (the
   * wallet is told); clears the stored universal-link flow and paired session.
   */
  async disconnect(): Promise<void> {
    const view = this.getView()
    if (view.isConnected && !view.isBusy) await this.#run({ type: 'DISCONNECT' })
    else if (view.canCancel) this.#actor.send({ type: view.isConnected ? 'DISCONNECT' : 'CANCEL' })
    this.#options.universalLink?.store?.clear()
    await this.#forgetConnection()
  }

  /**
   * Asks the connected desktop wallet to switch to `chainId` (`wallet_switchEthereumChain`, a root
   * `switchChain` flow); a wallet that does not know the chain (4902) is asked to add it with the
   * network registry's parameters (`wallet_addEthereumChain`: a built-in network, one of the
   * `networks` option, or the project's own chain from its config, read then), then to switch. Resolves once the
   * wallet has switched; the view's `chainId` and `chainSupported` follow (also when the user
   * switches in the wallet: `chainChanged`). Resolves at once when already on `chainId`.
   * @throws `NOT_CONNECTED` (no connection); `WALLET_BUSY` (the wallet is answering another
   * request: a signature, a chain switch, a transaction); `UNSUPPORTED_CHAIN` (not
   * `eip155:<decimal>`, a Solana, relay or universal-link connection, or a chain neither the wallet
   * nor the registry knows); `USER_REJECTED` (the switch or the addition declined);
   * `WALLET_ERROR`; `TIMEOUT` (`walletAnswerMs`); `ABORTED` (`cancel()`, `disconnect()`).
   */
  async switchChain(chainId: Caip2ChainId): Promise<void> {
    const checking = checkParameters('switchChain', chainId)
    if (checking) await checking
    const connection = this.#connected()
    if (!/^eip155:[1-9][0-9]*$/.test(chainId))
      throw new AppError('UNSUPPORTED_CHAIN', `Not an EVM chain id (eip155:<decimal>): ${chainId}`)
    if (connection.namespace !== 'eip155' || this.getView().connectionKind !== 'wallet')
      throw new AppError(
        'UNSUPPORTED_CHAIN',
        'switchChain is for EVM wallets connected in this browser; switch in the wallet app.',
      )
    if (connection.chainId === chainId) return
    await this.#run({ type: 'SWITCH_CHAIN', chainId })
  }

  /**
   * Signs `message` with the connected wallet: `personal_sign` on EVM (hex signature), Solana
   * `signMessage` (base58 signature). Over a universal link the wallet signs the backend session's
   * envelope, which the backend verifies, and `message` is not used; the flow returns to connected.
   * `message` is text (1 to `SIGN_MESSAGE_MAX_LENGTH` = 65,536 characters, signed as UTF-8) or,
   * on EVM, `{ raw }`: the bytes as hex (1 to 65,536 bytes).
   * A desktop wallet's signature resolves only if its active account did not change while it was
   * asked (`accountsChanged`): else `ACCOUNT_CHANGED`, and the view has the new account.
   * @throws `INVALID_CONFIG` (an empty, too long or non-text message, `raw` not hex or on Solana,
   * the field in `details`; nothing is sent), `NOT_CONNECTED`, `WALLET_BUSY` (another wallet
   * request pending: one at a time), `ACCOUNT_CHANGED`, `USER_REJECTED`, `WALLET_ERROR` (also an
   * answer that is no signature), `TIMEOUT` (`signatureMs`), `ABORTED`.
   */
  async signMessage(message: SignableMessage): Promise<string> {
    const checking = checkParameters('signMessage', message)
    if (checking) await checking
    const connection = this.#connected()
    if (typeof message !== 'string' && connection.namespace !== 'eip155') throw rawIsEvmOnly()
    const paired = this.#relayFlow()
    if (paired) {
      return typeof message !== 'string' || connection.namespace === 'eip155'
        ? paired.signMessage(message)
        : paired.signSolanaMessage(message)
    }
    const request =
      connection.namespace === 'eip155'
        ? signRequest(message, connection.accounts[0] ?? '')
        : { method: 'solana_signMessage', params: { message } }
    return this.#sign({ request, link: { method: 'signMessage', payload: null } })
  }

  /**
   * EVM only: `eth_signTypedData_v4` of EIP-712 typed data (`{ domain, types, primaryType, message }`;
   * bigints travel as decimal strings), with the connected wallet or over a paired session.
   * @throws `NOT_CONNECTED`, `WALLET_BUSY` (another wallet request pending), `UNSUPPORTED_CHAIN`
   * on Solana, `ACCOUNT_CHANGED` (as `signMessage`), `USER_REJECTED`, `WALLET_ERROR`,
   * `TIMEOUT` (`signatureMs`), `ABORTED`.
   */
  async signTypedData(typedData: object): Promise<string> {
    const checking = checkParameters('signTypedData', typedData)
    if (checking) await checking
    const connection = this.#connected()
    if (connection.namespace !== 'eip155') throw evmOnly()
    const paired = this.#relayFlow()
    if (paired) return paired.signTypedData(typedData)
    const params = [connection.accounts[0] ?? '', typedDataJson(typedData)]
    return this.#sign({
      request: { method: 'eth_signTypedData_v4', params },
      link: { method: 'signMessage', payload: null },
    })
  }

  /**
   * Solana only: asks the wallet to sign a serialized transaction (base64). Returns the wallet's
   * answer (`{ signedTransaction }` from extensions, `{ signature }` over a universal link).
   * @throws `NOT_CONNECTED`, `WALLET_BUSY` (another wallet request pending), `UNSUPPORTED_CHAIN`
   * on EVM, `ACCOUNT_CHANGED` (as `signMessage`), `USER_REJECTED`, `WALLET_ERROR`, `TIMEOUT`,
   * `ABORTED`.
   */
  async signTransaction<T = { signedTransaction?: string; signature?: string }>(
    transaction: string,
  ): Promise<T> {
    const checking = checkParameters('signTransaction', transaction)
    if (checking) await checking
    const connection = this.#connected()
    if (connection.namespace !== 'solana') {
      throw new AppError('UNSUPPORTED_CHAIN', 'signTransaction is for Solana connections.')
    }
    if (this.#actor.getSnapshot().matches('link')) {
      const signature = await this.#sign({
        request: { method: 'solana_signTransaction', params: { transaction } },
        link: { method: 'signTransaction', payload: toBase64Url(transaction) },
      })
      return { signature } as T
    }
    const answer = await this.#sign({
      request: { method: 'solana_signTransaction', params: { transaction } },
      link: { method: 'signTransaction', payload: null },
    })
    return (answer.startsWith('{') ? JSON.parse(answer) : { signature: answer }) as T
  }

  /**
   * Continues after a reload: a paired relay session (from `ClientOptions.pairing.store`), else a
   * mobile universal-link flow after the wallet sent the user back. Returns at once where the
   * restored flow stands — `none`, `discarded` (with the reason; the record is cleared),
   * `awaitingWallet`, `awaitingSignature` or `connected` — and `wait()` to await its outcome. A
   * restored wait keeps its deadline (`walletAnswerMs`, `signatureMs` from when it began). Never
   * throws; a record of another machine definition is migrated (see `universalLink.migrations`,
   * `pairing.migrations`) or discarded. First, Phantom's deeplinks: the wallet's answer on `url`
   * (default `location.href` in a page) continues the stored flow: `connected`, `signed`,
   * `failed` (the wallet's error) or `refused` (a forged, replayed or foreign answer; the flow is
   * kept); see docs/phantom.md.
   */
  async resume(options: { url?: string } = {}): Promise<ResumeResult> {
    const none = async () => null
    const linked = await this.#resumePhantomLink(options.url)
    if (linked) return linked
    const paired = await this.#resumePairing()
    if (paired?.status === 'connected') return paired
    const store = await this.#store()
    const stored = store.load()
    if (stored === null) {
      // A record the store could not read (not JSON, not an envelope) is discarded with its reason.
      const reason = store.discarded?.() ?? null
      const nothing: ResumeResult =
        reason === null
          ? { status: 'none', wait: none }
          : { status: 'discarded', reason, wait: none }
      return (await this.#reconnect()) ?? paired ?? nothing
    }
    let check: RestoreCheck
    try {
      check = (await this.#loadLink()).check(stored)
    } catch (error) {
      check = { ok: false, reason: `the flow could not be loaded: ${String(error)}` }
    }
    if (!check.ok) {
      store.clear()
      return { status: 'discarded', reason: check.reason, wait: none }
    }
    this.#replace(check.snapshot)
    this.#linkPart?.pollNow(this.#actor)
    const view = this.getView()
    const flow = this.#actor.getSnapshot().context.flow
    const pending = this.#actor.getSnapshot().context.pending !== null
    // One wait for the restored flow, shared by wait() and signature() (created on first use).
    let outcome: Promise<OperationOutcome | null> | undefined
    const settled = () => {
      outcome ??= pending ? this.#wait(flow) : Promise.resolve(null)
      return outcome
    }
    const wait = async () => {
      await settled()
      return this.getConnection()
    }
    const connection = this.getConnection()
    if (view.status === 'awaitingSignature' || view.status === 'signing') {
      const signature = async () => (await settled())?.signature ?? ''
      const sign = this.#actor.getSnapshot().context.sign
      if (sign?.request.method !== 'solana_signAndSendTransaction') {
        return { status: 'awaitingSignature', connection, wait, signature }
      }
      // The wallet is answering a sendTransaction: once it does, watch it as that call would have.
      let sent: Promise<TransactionHandle> | undefined
      const transaction = () => {
        sent ??= signature().then(async (hash) =>
          this.#watchSent(
            await this.#loadTransaction(),
            connection?.chainId ?? '',
            hash,
            this.#options.transactions?.confirmations ?? 1,
          ),
        )
        return sent
      }
      void transaction().catch(() => {}) // the view follows it without the app asking
      return { status: 'awaitingSignature', connection, wait, signature, transaction }
    }
    return { status: view.isConnected ? 'connected' : 'awaitingWallet', connection, wait }
  }

  /**
   * Restores the stored desktop connection without a prompt (a root `reconnect` flow): `connected`;
   * `none` when the wallet no longer authorizes this site (locked, revoked); `discarded` when the
   * reconnect failed otherwise; null when nothing is stored. The record goes unless `connected`.
   */
  async #reconnect(): Promise<ResumeResult | null> {
    const none = async () => null
    const store = await this.#connectionStore()
    // What a custom store answers is checked as the package's stores check it.
    const stored = parseStoredConnection(store?.load() ?? null)
    if (!store || stored === null) return null
    if (!this.getView().isConnected) {
      try {
        await this.#run({
          type: 'RECONNECT',
          walletId: stored.walletId,
          namespace: stored.namespace,
          connectorId: stored.connectorId,
        })
      } catch (error) {
        await this.#forgetConnection()
        if (isAppError(error, 'NOT_CONNECTED')) return { status: 'none', wait: none }
        const reason = isAppError(error) ? `${error.code}: ${error.shortMessage}` : String(error)
        return {
          status: 'discarded',
          reason: `the wallet did not reconnect (${reason})`,
          wait: none,
        }
      }
    }
    const connection = this.getConnection()
    return { status: 'connected', connection, wait: async () => this.getConnection() }
  }

  /** Restores the paired session of the pairing store, if any: `connected`, `discarded` or null (none). */
  async #resumePairing(): Promise<ResumeResult | null> {
    const none = async () => null
    const store = this.#options.pairing?.store
    const stored = store?.load() ?? null
    if (!store || stored === null) return null
    let check: PairingRestoreCheck
    try {
      check = (await this.#loadPairing()).check(stored)
    } catch (error) {
      check = { ok: false, reason: `the pairing could not be loaded: ${String(error)}` }
    }
    if (!check.ok) {
      store.clear()
      return { status: 'discarded', reason: check.reason, wait: none }
    }
    this.#pairingStore = store
    this.#replace(check.snapshot)
    this.#pairedFlow(check.pairingId, null, this.#actor.getSnapshot().context.flow)
    const connection = this.getConnection()
    return { status: 'connected', connection, wait: async () => this.getConnection() }
  }

  /**
   * Sends a transaction with the connected wallet and returns once the wallet answered: `hash` at
   * once, `wait()` for the receipt, read by the backend (`GET /transactions`, long-polled and
   * woken by new blocks: the dApp needs no RPC endpoint). EVM over an injected, EIP-6963 or SDK
   * connector (`eth_sendTransaction`; `calls` as one EIP-5792 `wallet_sendCalls` batch) and over
   * a paired relay session (`eth_sendTransaction` as a session request); Solana through the
   * Wallet Standard (`signAndSendTransaction`) and over a universal link (a `signTransaction`
   * link; the wallet sends it and answers `/callback/transaction` with its signature). The `transaction` machine runs it as a child of
   * the root (`getView().transaction`); a sent transaction is kept in `transactions.store` until
   * its receipt, for `resumeTransaction()` after a reload. One transaction is watched at a time:
   * the next one's `wait()` replaces it (the earlier `wait()` rejects with `ABORTED`).
   * The parameters are checked before anything is sent (`SendTransactionParameters`): `value`,
   * `gas` and the fee fields non-negative bigints, `to` an address, `data` hex, `nonce` a safe
   * non-negative integer. A `chainId` other than the connection's is refused (`INVALID_CONFIG`,
   * field `chainId`): call `switchChain(chainId)` first. Over a paired relay session the chain
   * goes with the request, and any chain of the session may be named.
   * One wallet request at a time: while the wallet is asked the view is busy and other wallet
   * calls reject with `WALLET_BUSY`. `cancel()` / `disconnect()` before the wallet answered reject
   * this call with `ABORTED`, but the wallet may still send it (an EIP-1193 request cannot be taken
   * back): the `transaction` child keeps waiting, `getView().transaction` follows a hash the wallet
   * answers, and the view stays busy until the wallet answered (docs/transactions.md).
   * The wallet's answer is bounded by `transactions.timeouts.walletAnswerMs`, else by the
   * client's `timeouts.walletAnswerMs`, else 300 000 ms.
   * @throws `INVALID_CONFIG` (a request of the wrong shape, or for another chain; the field in
   * `details`), `NOT_CONNECTED`, `WALLET_BUSY`, `USER_REJECTED`, `WALLET_ERROR`, `TIMEOUT`
   * (`walletAnswerMs`), `ABORTED` (`cancel()`, `disconnect()` before the wallet answers).
   */
  async sendTransaction(params: SendTransactionParameters): Promise<TransactionHandle> {
    const checking = checkParameters('sendTransaction', params)
    if (checking) await checking
    const connection = this.#connected()
    const part = await this.#loadTransaction()
    const request = part.toTransactionRequestData(params, connection)
    const settings = this.#options.transactions
    const confirmations = params.confirmations ?? settings?.confirmations ?? 1
    const paired = this.#relayFlow()
    if (paired) {
      if (request.transaction !== null || request.calls.length !== 1) {
        throw new AppError('INVALID_CONFIG', 'Over the relay: one EVM call per transaction.')
      }
      // The paired session's own flow asks the wallet (cancel() → ABORTED); then it is watched.
      const hash = await paired.request<string>({
        method: 'eth_sendTransaction',
        params: [part.evmTransactionObject(request)],
        chainId: request.chainId,
      })
      return this.#watchSent(part, request.chainId, hash, confirmations)
    }
    part.requireConnectionChain(request, connection)
    if (this.#actor.getSnapshot().matches('link')) {
      if (request.transaction === null) {
        throw new AppError(
          'INVALID_CONFIG',
          'Over a universal link: a serialized Solana transaction.',
        )
      }
      // The link flow opens the wallet (intent `transaction`, cancel() → ABORTED); the wallet
      // sends it and answers `/callback/transaction` with its signature, which is then watched.
      const hash = await this.#sign({
        request: {
          method: 'solana_signAndSendTransaction',
          params: { transaction: request.transaction },
        },
        link: { method: 'signTransaction', payload: toBase64Url(request.transaction) },
      })
      return this.#watchSent(part, request.chainId, hash, confirmations)
    }
    // The wallet's answer is bounded by `timeouts.walletAnswerMs` unless `transactions.timeouts` sets it.
    const walletAnswerMs = this.#options.timeouts?.walletAnswerMs
    const timeouts =
      walletAnswerMs === undefined ? settings?.timeouts : { walletAnswerMs, ...settings?.timeouts }
    const outcome = await this.#run({
      type: 'SEND_TRANSACTION',
      input: { request, confirmations, ...(timeouts ? { timeouts } : {}) },
    })
    return this.#transactionHandle(request.chainId, outcome.signature ?? '')
  }

  /** Watches a transaction a flow of the root sent (relay or universal link) until its receipt. */
  #watchSent(
    part: typeof import('./lazy/transaction'),
    chainId: string,
    hash: string,
    confirmations: number,
  ): TransactionHandle {
    this.#live().send({
      type: 'WATCH_TRANSACTION',
      input: part.watchInput(
        { chainId, hash },
        confirmations,
        this.#options.transactions?.timeouts,
        this.#now(),
      ),
    })
    return this.#transactionHandle(chainId, hash)
  }

  /**
   * Picks up the transaction `sendTransaction` left waiting for its receipt before a reload (from
   * `transactions.store`): the same hash, its deadlines kept. Null when none is stored (or its
   * receipt deadline passed). Needs no wallet: the backend reads the receipt. Never throws.
   */
  async resumeTransaction(): Promise<TransactionHandle | null> {
    const part = await this.#loadTransaction()
    // What a custom store answers is checked too: a record with a garbage hash is not watched.
    const record = part.parseTransactionRecord(this.#transactionStore?.load() ?? null)
    if (!record) {
      this.#transactionStore?.clear()
      return null
    }
    if (record.deadlines.receipt !== null && record.deadlines.receipt <= Date.now()) {
      this.#transactionStore?.clear()
      return null
    }
    this.#storedTransaction = record.hash
    this.#live().send({
      type: 'WATCH_TRANSACTION',
      input: part.watchInput(
        record,
        record.confirmations,
        this.#options.transactions?.timeouts,
        this.#now(),
        record.deadlines,
      ),
    })
    return this.#transactionHandle(record.chainId, record.hash)
  }

  /** Loads the transaction part once (a dynamic import): its machine, the store. */
  async #loadTransaction(): Promise<typeof import('./lazy/transaction')> {
    if (this.#transactionPart) return this.#transactionPart
    const part = await import('./lazy/transaction')
    const { baseUrl, appKey, fetchImpl, transactions } = this.#options
    this.#transactionLogic.set(
      part.createClientTransaction({
        baseUrl,
        appKey,
        ...(fetchImpl ? { fetchImpl } : {}),
        connector: () => this.#connector,
        now: this.#now,
      }),
    )
    this.#transactionStore =
      transactions?.store === undefined ? part.createBrowserTransactionStore() : transactions.store
    this.#transactionPart = part
    return part
  }

  /** The handle of the transaction `hash`: `wait()` follows the root's `transaction` child. */
  #transactionHandle(chainId: string, hash: string): TransactionHandle {
    let settled: Promise<TransactionReceiptSummary> | undefined
    return {
      chainId,
      hash,
      wait: () => {
        settled ??= this.#waitTransaction(hash)
        return settled
      },
    }
  }

  #waitTransaction(hash: string): Promise<TransactionReceiptSummary> {
    return new Promise((resolve, reject) => {
      let subscription: { unsubscribe(): void } | undefined
      const check = (): boolean => {
        const child = childOf(this.#actor, 'transaction')
        const snapshot = child?.getSnapshot() as
          | { status: string; context: { hash: string | null }; output?: TransactionSummary }
          | undefined
        if (!snapshot || snapshot.context.hash !== hash) {
          reject(new AppError('ABORTED', 'Another transaction replaced this one.'))
          return true
        }
        if (snapshot.status !== 'done' || !snapshot.output) return false
        const summary = snapshot.output
        if (summary.outcome === 'confirmed') {
          resolve({
            status: 'confirmed',
            chainId: summary.chainId,
            hash,
            blockNumber: BigInt(summary.blockNumber ?? '0'),
            confirmations: summary.confirmations,
          })
        } else {
          const error = summary.error ?? {
            code: 'TRANSACTION_DROPPED' as const,
            message: `The transaction ended ${summary.outcome}.`,
          }
          reject(
            summary.replacedBy
              ? new AppError(error.code, error.message, {
                  details: [{ field: 'replacedBy', reason: summary.replacedBy }],
                })
              : toAppError(error),
          )
        }
        return true
      }
      if (check()) return
      const actor = this.#actor
      subscription = actor.subscribe({
        next: () => {
          if (check()) subscription?.unsubscribe()
        },
        error: () => {
          reject(new AppError('ABORTED', 'The client stopped.'))
        },
      })
      // Child snapshots do not always change the root's: follow the child itself too.
      const child = childOf(actor, 'transaction')
      const own = child?.subscribe({
        next: () => {
          if (check()) {
            own?.unsubscribe()
            subscription?.unsubscribe()
          }
        },
        complete: () => {
          check()
          subscription?.unsubscribe()
        },
        error: () => {
          reject(new AppError('ABORTED', 'The transaction watcher stopped.'))
        },
      })
    })
  }

  /**
   * Follows the root's `transaction` child (a spawned child's changes do not change the root's
   * snapshot): the view's listeners hear each of them, and the store keeps the transaction while
   * it waits for its receipt and forgets it once settled.
   */
  #keepTransaction(): void {
    const child = childOf(this.#actor, 'transaction')
    if ((child ?? null) !== this.#transactionChild) {
      this.#transactionFollow?.unsubscribe()
      this.#transactionChild = child ?? null
      const changed = () => {
        this.#notify()
        this.#keepTransaction()
      }
      this.#transactionFollow =
        child?.subscribe({ next: changed, complete: changed, error: () => {} }) ?? null
    }
    const store = this.#transactionStore
    if (!store) return
    const snapshot = child?.getSnapshot() as
      | {
          status: string
          hasTag(tag: string): boolean
          context: {
            chainId: string
            hash: string | null
            confirmationsWanted: number
            deadlines: { wallet: number | null; receipt: number | null; notSeen: number | null }
          }
        }
      | undefined
    const waiting = snapshot?.status === 'active' && snapshot.hasTag('resumable')
    if (waiting && snapshot.context.hash !== null) {
      if (this.#storedTransaction === snapshot.context.hash) return
      const part = this.#transactionPart
      if (!part) return
      store.save({
        format: part.TRANSACTION_RECORD_FORMAT,
        formatVersion: part.TRANSACTION_RECORD_VERSION,
        chainId: snapshot.context.chainId,
        hash: snapshot.context.hash,
        confirmations: snapshot.context.confirmationsWanted,
        deadlines: { ...snapshot.context.deadlines },
        savedAt: Date.now(),
      })
      this.#storedTransaction = snapshot.context.hash
    } else if (snapshot?.status === 'done' && this.#storedTransaction === snapshot.context.hash) {
      store.clear()
      this.#storedTransaction = null
    }
  }

  /**
   * The project's enabled networks and wallets (a `readConfig` actor of the system).
   * @throws `RPC_ERROR`; `ABORTED` when its root goes meanwhile (`resume()` restoring a flow).
   */
  loadConfig(): Promise<ConnectConfig> {
    return this.#read<ConnectConfig>((id) => ({ type: 'READ_CONFIG', id })).then((config) => {
      // A read whose root was replaced meanwhile (`resume()`) completes without a config.
      if (config) this.#learnProjectChains(config)
      return config
    })
  }

  /** The view's `chainSupported` needs the project's chains: the config, read once per Client. */
  #learnProjectChains(config: ConnectConfig): void {
    this.#projectChains = config.networks.map((network) => network.networkId)
    this.#followProjectChains(this.#actor)
  }

  /**
   * Once connected, gives the root the project's chains: from the config read before, else read
   * now (once; a failed read leaves `chainSupported` unknown and is tried again in the next flow).
   */
  #followProjectChains(actor: ClientActor): void {
    const snapshot = actor.getSnapshot()
    if (snapshot.status !== 'active' || snapshot.context.projectChains !== null) return
    const chainIds = this.#projectChains
    if (chainIds) {
      // Not from inside the root's own update: on the next microtask.
      queueMicrotask(() => {
        if (actor.getSnapshot().context.projectChains === null)
          actor.send({ type: 'PROJECT.CHAINS', chainIds })
      })
      return
    }
    const tried = this.#projectChainsReadIn
    if (!snapshot.hasTag('connected') || actor !== this.#actor) return
    if (tried?.actor === actor && tried.flow === snapshot.context.flow) return
    this.#projectChainsReadIn = { actor, flow: snapshot.context.flow }
    // A read sent from inside the root's update would start after this call returns.
    queueMicrotask(() => {
      if (actor === this.#actor) this.loadConfig().catch(() => undefined)
    })
  }

  /**
   * A token balance read by the backend (a `readBalance` actor). @throws `INVALID_CONFIG` (a query of
   * the wrong shape), `UNSUPPORTED_CHAIN`, `RPC_ERROR`; `ABORTED` when its root goes meanwhile
   * (`resume()` restoring a flow).
   */
  async getBalance(query: TokenBalanceQuery): Promise<TokenBalance> {
    const checking = checkParameters('getBalance', query)
    if (checking) await checking
    return this.#read<TokenBalance>((id) => ({ type: 'READ_BALANCE', id, query }))
  }

  /**
   * Many balances of any chains read by the backend (a `readBalances` actor; `POST /balances`, one
   * request per 100 queries), in query order, each a `success` or its own `failure`
   * (`UNSUPPORTED_CHAIN`, `RPC_ERROR`). @throws `RPC_ERROR` when a request fails as a whole;
   * `ABORTED` when its root goes meanwhile (`resume()` restoring a flow).
   */
  async getBalances(queries: readonly TokenBalanceQuery[]): Promise<TokenBalanceResult[]> {
    const checking = checkParameters('getBalances', queries)
    if (checking) await checking
    return this.#read<TokenBalanceResult[]>((id) => ({ type: 'READ_BALANCES', id, queries }))
  }

  /**
   * Runs a read as a child `read.<slot>` of the root. Slots are reused once a read settles: XState
   * caches the transitions it finds per event type for good, so ever-new ids (and with them ever-new
   * `xstate.done.actor.read.<id>` types) would grow that cache with every read.
   */
  #read<T>(event: (id: string) => Parameters<ClientActor['send']>[0]): Promise<T> {
    let slot = 0
    while (this.#readSlots.has(slot)) slot++
    const id = `read.${slot}`
    this.#live().send(event(id))
    const ref = childOf(this.#actor, id)
    if (!ref) return Promise.reject(new AppError('RPC_ERROR', 'The read did not start.'))
    this.#readSlots.add(slot)
    return new Promise<T>((resolve, reject) => {
      ref.subscribe({
        complete: () => {
          this.#readSlots.delete(slot)
          // A read stopped with its root (replaced by `resume()`, or stopped) has no output.
          const snapshot = ref.getSnapshot()
          if (snapshot.status === 'done') resolve(snapshot.output as T)
          else reject(new AppError('ABORTED', 'The read was stopped with its root.'))
        },
        error: (error) => {
          this.#readSlots.delete(slot)
          reject(error)
        },
      })
    })
  }

  async #sign(request: ClientSignRequest): Promise<string> {
    const outcome = await this.#run({ type: 'SIGN', ...request })
    return outcome.signature ?? ''
  }

  /** The paired session's flow, while the root is in its relay flow. */
  #relayFlow(): PairingHandle | null {
    return this.#actor.getSnapshot().matches('relay') ? this.#pairing : null
  }

  /**
   * The `PairingHandle` of the root's `pairing` child: its requests are `RELAY.REQUEST` events of the
   * root (which settles them, with `signatureMs`), its approval is the root's `pair` flow `flow`.
   */
  #pairedFlow(pairingId: string, uri: string | null, flow: number): PairingHandle {
    const part = this.#pairingPart as ClientPairingPart
    const child = childOf(this.#actor, 'pairing') as PairingActor
    const approval = this.#wait(flow).then(() => {
      const session = child.getSnapshot().context.session
      if (session) return session
      throw new AppError('NOT_CONNECTED', 'The relay session has ended.')
    })
    approval.catch(() => undefined)
    const pairing = part.flow(child, pairingId, uri, {
      submit: (requestId, method) => this.#run({ type: 'RELAY.REQUEST', requestId, method }),
      approval,
      disconnect: () => this.disconnect(),
      stop: () => {
        if (this.#actor.getSnapshot().matches({ relay: 'pairing' })) this.cancel()
      },
    })
    this.#pairing = pairing
    return pairing
  }

  /** The connection a wallet call goes through: one wallet request at a time (`WALLET_BUSY`). */
  #connected(): WalletConnection {
    const connection = this.getConnection()
    if (!connection) throw new AppError('NOT_CONNECTED', 'Connect a wallet first.')
    if (!this.getView().canSign)
      throw new AppError(
        'WALLET_BUSY',
        'The wallet is answering another request (a signature, a chain switch or a transaction): one at a time.',
      )
    return connection
  }

  /** Sends the event that starts a flow and settles with that flow's outcome. */
  async #run(event: Parameters<ClientActor['send']>[0]): Promise<OperationOutcome> {
    const before = this.#live().getSnapshot().context.flow
    this.#actor.send(event)
    const flow = this.#actor.getSnapshot().context.flow
    if (flow === before) throw new AppError('NOT_CONNECTED', `${event.type} is not possible now.`)
    return this.#wait(flow)
  }

  /**
   * The outcome of flow `flow`: the root settles every flow (success, error, `TIMEOUT`, `ABORTED`),
   * so this always ends; a flow replaced without an outcome (root replaced) is `ABORTED`.
   */
  #wait(flow: number): Promise<OperationOutcome> {
    return new Promise((resolve, reject) => {
      const actor = this.#actor
      const check = (): boolean => {
        const snapshot = actor.getSnapshot()
        const { outcome, flow: current } = snapshot.context
        if (outcome?.flow === flow) {
          if (outcome.error) reject(toAppError(outcome.error))
          else resolve(outcome)
          return true
        }
        if (current !== flow || snapshot.status !== 'active' || actor !== this.#actor) {
          reject(new AppError('ABORTED', 'The flow was replaced.'))
          return true
        }
        return false
      }
      if (check()) return
      // Both listeners go once the flow settles: a long-lived Client keeps none per flow.
      const done = () => {
        subscription.unsubscribe()
        unregister()
      }
      const subscription = actor.subscribe({
        next: () => {
          if (check()) done()
        },
        error: (error) => {
          reject(toAppError({ code: 'WALLET_ERROR', message: String(error) }))
          done()
        },
        complete: () => {
          check()
          done()
        },
      })
      const unregister = this.#onReplace(() => {
        if (!check()) reject(new AppError('ABORTED', 'The flow was replaced.'))
        done()
      })
    })
  }

  /**
   * The root actor, replaced by a fresh one if it stopped (`actor.stop()`, or a fault no chart
   * handled): a stopped root never wedges the Client; its view said `stopped` meanwhile.
   */
  #live(): ClientActor {
    if (this.#actor.getSnapshot().status !== 'active') this.#replace(undefined)
    return this.#actor
  }

  readonly #replaceHooks = new Set<() => void>()
  #onReplace(hook: () => void): () => void {
    this.#replaceHooks.add(hook)
    return () => this.#replaceHooks.delete(hook)
  }

  #start(snapshot: unknown): ClientActor {
    const { timeouts } = this.#options
    const actor = createActor(bindClient(this.#environment()), {
      input: timeouts ? { timeouts } : {},
      ...(snapshot === undefined ? {} : { snapshot: snapshot as never }),
      ...(this.#inspect ? { inspect: this.#inspect } : {}),
    })
    this.#subscription = actor.subscribe({
      next: () => {
        // `actor` is not `this.#actor` yet while it starts (the constructor, `#replace`).
        this.#rememberConnection(actor)
        this.#followProjectChains(actor)
        this.#notify()
        this.#keepTransaction()
      },
      error: () => {},
    })
    actor.start()
    this.#persist(actor)
    return actor
  }

  /**
   * The inspector every root actor reports to: the app's `inspect` behind redaction by key, and by
   * value of the secrets seen (none registered with `sanitizeInspection: false`). The redaction
   * code loads with the first event (a dynamic import); events wait for it in order.
   */
  #inspector(): ((event: InspectionEvent) => void) | undefined {
    const { inspect, sanitizeInspection } = this.#options
    if (inspect === undefined) return undefined
    const secrets =
      sanitizeInspection === false ? { add: () => {}, redact: (v: string) => v } : this.#secrets
    const deferred = createDeferredInspector(async () => {
      const { createRedactingInspector } = await import('./lazy/inspector')
      return createRedactingInspector(inspect, secrets)
    })
    return (event) => guarded(this.#report, 'the inspector', () => deferred(event), undefined)
  }

  #replace(snapshot: unknown): void {
    this.#subscription?.unsubscribe()
    this.#stopPersisting?.()
    this.#stopPersisting = null
    this.#stopPairPersisting?.()
    this.#stopPairPersisting = null
    this.#actor.stop()
    this.#actor = this.#start(snapshot)
    this.#persistPairing(this.#actor)
    // A restored waiting state schedules its deadline again (pending timers are not restored).
    this.#actor.send({ type: 'RESUMED' })
    for (const hook of [...this.#replaceHooks]) hook()
    this.#notify()
  }

  #notify(): void {
    if (this.#listeners.size === 0) return
    const view = this.getView()
    for (const listener of this.#listeners)
      guarded(this.#report, 'a subscribe() listener', () => listener(view), undefined)
  }

  async #fetchConfig(): Promise<ConnectConfig> {
    const { createConnectConfigClient } = await import('./lazy/readers')
    this.#config ??= createConnectConfigClient(this.#httpOptions())
    return this.#config.fetchConfig()
  }

  #environment() {
    return {
      loadConnector: (input: LoadConnectorInput) => this.#loadConnector(input),
      readConfig: () => this.#fetchConfig(),
      readBalance: async (query: TokenBalanceQuery) => {
        const { createBalanceReader } = await import('./lazy/readers')
        this.#balances ??= createBalanceReader(this.#httpOptions())
        return this.#balances.getBalance(query)
      },
      readBalances: async (queries: readonly TokenBalanceQuery[]) => {
        const { createBalanceReader } = await import('./lazy/readers')
        this.#balances ??= createBalanceReader(this.#httpOptions())
        return this.#balances.getBalances(queries)
      },
      switchChain: async (chainId: string) => {
        const connector = this.#connector
        if (!connector) throw new AppError('NOT_CONNECTED', 'No wallet connector is selected.')
        const { switchEthereumChain } = await import('../connectors/switch-chain')
        // On 4902 a chain the registry lacks may be the project's own: its config registers it.
        await switchEthereumChain(
          (args) => connector.request(args),
          chainId as Caip2ChainId,
          () => this.#fetchConfig(),
        )
      },
      connection: this.#connection.logic,
      sign: this.#signing.logic,
      universalLink: this.#link.logic,
      pairing: this.#pairingLogic.logic,
      transaction: this.#transactionLogic.logic,
      now: this.#now,
    }
  }

  /** The custom connector for `input`: by a reconnect's connector id, else by wallet, else the first. */
  #customConnector(
    input: LoadConnectorInput,
    { walletIdForConnectorId }: typeof import('./lazy/route'),
  ): IWalletConnector | undefined {
    const connectors = this.#options.connectors ?? []
    if (input.connectorId !== null) return connectors.find((c) => c.id === input.connectorId)
    if (input.walletId === null) return connectors[0]
    return connectors.find(
      (c) => c.id === input.walletId || walletIdForConnectorId(c.id) === input.walletId,
    )
  }

  async #loadConnector(input: LoadConnectorInput): Promise<LoadedConnector> {
    const route = await import('./lazy/route')
    const custom =
      this.#phantomLinks.get(input.connectorId ?? '') ?? this.#customConnector(input, route)
    let connector: Promise<IWalletConnector>
    const walletConnect = this.#options.walletConnect !== undefined
    if (custom) connector = Promise.resolve(custom)
    else if (walletConnect && input.connectorId === 'walletconnect' && input.namespace !== null) {
      // A remembered WalletConnect session comes back over WalletConnect, extension or not.
      connector = this.#walletConnectConnector(input.namespace)
    } else if (input.walletId === null || input.namespace === null) {
      connector = import('../connectors/injected').then((m) => new m.InjectedConnector())
    } else {
      const { resolveWalletInfo, connectorKindForWallet, loadConnectorForWallet } = route
      const info = resolveWalletInfo(input.walletId)
      const namespace = input.namespace
      const mobile = this.#options.mobile ?? detectMobile()
      // A wallet whose provider is in the page (its in-app browser on a phone) takes that path.
      const injected = route.isWalletInjected(info, namespace)
      const kind = connectorKindForWallet(info, namespace, mobile, injected, walletConnect)
      if (kind === 'universal-link') {
        await this.#loadLink()
        this.#connector = this.#linkConnector(info.id)
        return {
          kind: 'universal-link',
          connectorId: info.id,
          walletId: info.id,
          chainId: this.#options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
          pollIntervalMs: this.#options.universalLink?.pollIntervalMs ?? null,
        }
      }
      connector = loadConnectorForWallet(info, namespace, {
        mobile,
        injected,
        eip6963TimeoutMs: input.discoveryMs,
        ...(this.#options.metaMaskSdk ? { metaMaskSdk: this.#options.metaMaskSdk } : {}),
        ...(this.#options.coinbaseSdk ? { coinbaseSdk: this.#options.coinbaseSdk } : {}),
        ...(this.#options.solanaChainId ? { solanaChainId: this.#options.solanaChainId } : {}),
        phantomLink: (wallet) => this.#phantomLinkConnector(wallet.id),
        ...(walletConnect ? { walletConnect: () => this.#walletConnectConnector(namespace) } : {}),
      })
    }
    // The connect and sign machines load beside the connector (both are dynamic imports).
    const [loaded] = await Promise.all([connector, this.#loadWalletMachines()])
    this.#connector = loaded
    return {
      kind: 'wallet',
      connectorId: loaded.id,
      walletId: route.walletIdForConnectorId(loaded.id) ?? input.walletId,
      chainId: null,
    }
  }

  /** The WalletConnect connector for `namespace` (one per namespace, shared by every wallet): in a chunk. */
  #walletConnectConnector(namespace: ChainNamespace): Promise<IWalletConnector> {
    let connector = this.#walletConnects.get(namespace)
    if (!connector) {
      const option = this.#options.walletConnect as WalletConnectConnectorOptions
      connector = import('./lazy/walletconnect').then((m) =>
        m.createClientWalletConnect(option, namespace),
      )
      // A malformed option is reported again at the next call, not kept.
      connector.catch(() => this.#walletConnects.delete(namespace))
      this.#walletConnects.set(namespace, connector)
    }
    return connector
  }

  /** Loads the `connect` and `sign` machines once (a dynamic import), bound to the current connector. */
  async #loadWalletMachines(): Promise<void> {
    if (this.#connection.loaded()) return
    const { createWalletMachines } = await import('./lazy/wallet')
    const machines = createWalletMachines({
      connector: () => this.#connector,
      onSecret: (value) => this.#secrets.add(value),
    })
    this.#connection.set(machines.connection)
    this.#signing.set(machines.sign)
  }

  /** Loads the universal-link part once (a dynamic import): its machine, fingerprint, persistence. */
  async #loadLink(): Promise<ClientLink> {
    if (this.#linkPart) return this.#linkPart
    const [{ createClientLink }, { createMemoryTokenVault }] = await Promise.all([
      import('../universal-link/lazy/connector'),
      import('../../machines/session-polling/session-polling.actors'),
    ])
    this.#vault ??= createMemoryTokenVault()
    const { baseUrl, appKey, fetchImpl, universalLink: link = {} } = this.#options
    const part = createClientLink({
      baseUrl,
      appKey,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...link,
      chainId: this.#options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
      vault: this.#vault,
      secrets: this.#secrets,
      rootMachine: (machine) => bindClient({ ...this.#environment(), universalLink: machine }),
      walletOpened: (url) => this.#actor.send({ type: 'WALLET_OPENED', url }),
    })
    this.#link.set(part.machine)
    this.#linkPart = part
    this.#persist(this.#actor)
    return part
  }

  /** Loads the pairing part once (a dynamic import): its machine, vault, restore check. */
  async #loadPairing(): Promise<ClientPairingPart> {
    const { loadClientPairing } = await import('./lazy/pairing')
    if (!this.#pairingPart) {
      const { baseUrl, appKey, relayUrl, WebSocket, fetchImpl } = this.#options
      this.#pairingPart = loadClientPairing({
        baseUrl,
        appKey,
        ...(relayUrl ? { relayUrl } : {}),
        ...(WebSocket ? { WebSocket } : {}),
        ...(fetchImpl ? { fetchImpl } : {}),
        ...(this.#options.pairing?.migrations
          ? { migrations: this.#options.pairing.migrations }
          : {}),
        onSecret: (value) => this.#secrets.add(value),
        relayConnection: () => this.#actor.system.get('relayConnection'),
        rootMachine: (machine) => bindClient({ ...this.#environment(), pairing: machine }),
      })
      this.#pairingLogic.set(this.#pairingPart.machine)
    }
    return this.#pairingPart
  }

  /** Keeps the root's paired session in the pairing store (when there is one). */
  #persistPairing(actor: ClientActor): void {
    this.#stopPairPersisting?.()
    this.#stopPairPersisting = null
    const part = this.#pairingPart
    if (part && this.#pairingStore)
      this.#stopPairPersisting = part.persist(actor, this.#pairingStore)
  }

  #persist(actor: ClientActor): void {
    const part = this.#linkPart
    const store = this.#options.universalLink?.store
    if (!part || this.#stopPersisting) return
    if (store) this.#stopPersisting = part.persist(actor, store)
    else
      void this.#store().then((s) => {
        if (this.#actor === actor && !this.#stopPersisting)
          this.#stopPersisting = part.persist(actor, s)
      })
  }

  /** The connector object `selectWallet` returns for a universal-link wallet: it drives this client. */
  #linkConnector(walletId: string): IWalletConnector {
    return {
      id: walletId,
      isAvailable: () => true,
      connect: () => this.connect(),
      getAccounts: () => this.getConnection()?.accounts ?? [],
      disconnect: () => this.disconnect(),
      request: async <T>(args: RequestArgs): Promise<T> => {
        if (args.method === 'solana_signTransaction') {
          const transaction = (args.params as { transaction?: unknown } | undefined)?.transaction
          return this.signTransaction<T>(typeof transaction === 'string' ? transaction : '')
        }
        // Over a universal link the wallet signs the session's envelope: no message of the app's.
        this.#connected()
        const request = { method: 'solana_signMessage', params: { message: '' } }
        return { signature: await this.#sign({ request, link: LINK_SIGN }) } as T
      },
    }
  }

  #httpOptions() {
    const { baseUrl, appKey, fetchImpl } = this.#options
    return { baseUrl, appKey, ...(fetchImpl ? { fetchImpl } : {}) }
  }

  /** The connection store: the option, else the browser one (loaded on first use); null: none. */
  #connectionStore(): Promise<ConnectionStore | null> {
    const option = this.#options.connectionStore
    this.#connections ??=
      option !== undefined
        ? Promise.resolve(option)
        : import('../connection/browser-store').then((m) => m.createBrowserConnectionStore())
    return this.#connections
  }

  /** Keeps the current desktop connection in the connection store (when it changed). */
  #rememberConnection(actor: ClientActor): void {
    const view = clientView(actor.getSnapshot())
    const connection = actor.getSnapshot().context.connection
    if (!view.isConnected || !connection || view.connectionKind !== 'wallet') return
    // On a phone only a WalletConnect session comes back (sign-client keeps it); the other mobile
    // paths resume their own way (universal links, Phantom's deeplinks, the relay pairing).
    const phone = this.#options.mobile ?? detectMobile()
    if (phone && connection.connectorId !== 'walletconnect') return
    const record: StoredConnection = {
      format: CONNECTION_STORE_FORMAT,
      formatVersion: CONNECTION_STORE_FORMAT_VERSION,
      connectorId: connection.connectorId,
      // A connector that serves many wallets (WalletConnect) names none: the one selected.
      walletId: connection.walletId ?? view.walletId,
      namespace: connection.namespace,
      chainId: connection.chainId as Caip2ChainId,
      account: connection.accounts[0] ?? '',
    }
    const saved = JSON.stringify(record)
    if (saved === this.#savedConnection) return
    this.#savedConnection = saved
    void this.#connectionStore().then((store) => store?.save(record))
  }

  async #forgetConnection(): Promise<void> {
    this.#savedConnection = null
    ;(await this.#connectionStore())?.clear()
  }

  /** The Phantom-link connector of `walletId` (the app's own, else a kept built-in one): in a chunk. */
  async #phantomLinkConnector(walletId: string): Promise<IWalletConnector> {
    return (await import('./lazy/phantom-link')).phantomLinkConnector(this.#phantomHost(), walletId)
  }

  /** Phantom's deeplinks after the wallet's redirect: null (nothing loads) when there is no such flow. */
  async #resumePhantomLink(url: string | undefined): Promise<ResumeResult | null> {
    const href = url ?? (typeof location === 'undefined' ? undefined : String(location.href))
    let stored = this.#options.phantomLink?.store !== undefined
    try {
      stored ||= globalThis.localStorage?.getItem('scope-connect:phantom-link') != null
    } catch {}
    const own = (this.#options.connectors ?? []).some(
      (c) => (c as { kind?: unknown }).kind === 'phantom-link',
    )
    if (!href?.includes('scPhantomFlow=') && !stored && !own) return null
    return (await import('./lazy/phantom-link')).resumePhantomLink(this.#phantomHost(), href)
  }

  #phantomHost(): PhantomLinkHost {
    return {
      options: this.#options,
      kept: this.#phantomLinks,
      secrets: this.#secrets,
      connector: () => this.#connector,
      pending: () => this.getView().pending !== null,
      waitFlow: () => this.#wait(this.#actor.getSnapshot().context.flow).then(() => {}),
      connection: () => this.getConnection(),
      reconnect: (walletId, connectorId) =>
        this.#run({ type: 'RECONNECT', walletId, namespace: 'solana', connectorId }).then(() => {}),
      watchSent: async (chainId, hash) =>
        this.#watchSent(
          await this.#loadTransaction(),
          chainId,
          hash,
          this.#options.transactions?.confirmations ?? 1,
        ),
    }
  }

  async #store(): Promise<UniversalLinkStore> {
    const store = this.#options.universalLink?.store
    return (
      store ?? (await import('../universal-link/browser-store')).createBrowserUniversalLinkStore()
    )
  }
}

/** Solana tools emit standard base64; a universal link carries base64url. */
function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
