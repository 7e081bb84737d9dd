import { waitFor } from 'xstate'
import { type ConnectActor, createConnectActor } from '../../machines/connect/connect.facade'
import type { PairingFlow } from '../../machines/pairing/pairing.facade'
import { toAppError } from '../../machines/shared/error-data'
import type { InspectionOptions } from '../../machines/shared/inspect'
import type { BalanceReader, TokenBalance, TokenBalanceQuery } from '../balance'
import type { ConnectConfig, ConnectConfigClient } from '../config'
import { loadConnectorForWallet } from '../connectors/load-connector'
import type { MetaMaskSdkOptions } from '../connectors/metamask-sdk'
import type { IWalletConnector, WalletConnection } from '../connectors/types'
import { AppError } from '../errors/app-error'
import { normalizeBaseUrl } from '../http/base-url'
import { requireNonEmpty, resolveFetch } from '../http/options'
import { getWalletInfo, walletIdForConnectorId } from '../registry'
import type { Caip2ChainId, ChainNamespace, SupportWalletInfo, WalletId } from '../registry/types'
import type { WebSocketConstructor } from '../relay/client/websocket'
import type { UniversalLinkConnector, UniversalLinkResumeResult } from '../universal-link/connector'
import type { UniversalLinkStore } from '../universal-link/store'
import { type ClientPairOptions, pairedConnection, startClientPairing } from './pairing'
import type { ClientSignPayload } from './sign'

/** Options of `new Client(options)`: the backend, the app key, custom connectors, mobile detection, inspection. */
export interface ClientOptions extends InspectionOptions {
  /** Backend base URL (HTTPS; HTTP only for local development hosts). */
  baseUrl: string
  /** Public client identifier, sent as `X-App-Key`. */
  appKey: string
  fetchImpl?: typeof fetch
  /** Custom connectors; `selectWallet(id)` picks one whose id (or wallet id) matches first. */
  connectors?: readonly IWalletConnector[]
  /** Mobile paths (MetaMask SDK, universal links). Default: detected from the user agent. */
  mobile?: boolean
  /** Chain of mobile Solana (universal-link) connections; default Solana mainnet. */
  solanaChainId?: Caip2ChainId
  /** The universal-link flow: where it persists (default `localStorage`), how it opens links. */
  universalLink?: {
    store?: UniversalLinkStore
    openLink?: (url: string) => void
    returnUrl?: string
    dappName?: string
    pollIntervalMs?: readonly [number, number] | number
  }
  metaMaskSdk?: MetaMaskSdkOptions
  /** The relay for `pair()`; default the backend's relay route (`relayUrlForBaseUrl(baseUrl)`). */
  relayUrl?: string
  /** For `pair()`: default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor
}

function evmOnly(): AppError {
  return new AppError('UNSUPPORTED_CHAIN', 'signTypedData is for EVM (eip155) connections.')
}

function detectMobile(): boolean {
  return (
    typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
  )
}

/**
 * The library's entry point: pick a wallet, connect, sign, read config and balances. Each flow is
 * a statechart actor (`connectActor`, and the universal-link connector's actor on mobile) that UIs
 * subscribe to; `subscribe()` follows the current one across `selectWallet` calls.
 */
export class Client {
  readonly #options: ClientOptions
  readonly #listeners = new Set<(actor: ConnectActor) => void>()
  #config: ConnectConfigClient | null = null
  #balances: BalanceReader | null = null
  #connector: IWalletConnector | null = null
  #actor: ConnectActor | null = null
  #pairing: PairingFlow | null = null

  /** @throws `INVALID_CONFIG` when baseUrl or appKey is missing, baseUrl is not HTTPS, or no fetch. */
  constructor(options: ClientOptions) {
    this.#options = options
    // Checked here, used later: the HTTP clients (ky, the response schemas) load on first use, the
    // session client with the universal-link flow (apps that record sessions themselves create a
    // `GenericWalletSessionClient`).
    normalizeBaseUrl(options.baseUrl)
    requireNonEmpty(options.appKey, 'appKey')
    resolveFetch(options.fetchImpl)
  }

  /**
   * The connect actor of the selected connector (created by `selectWallet`, or by `connect` when
   * nothing was selected). @throws `WALLET_NOT_FOUND` before either.
   */
  get connectActor(): ConnectActor {
    if (this.#actor) return this.#actor
    throw new AppError('WALLET_NOT_FOUND', 'No wallet selected yet: call selectWallet or connect.')
  }

  /** The selected connector, if any. */
  get connector(): IWalletConnector | null {
    return this.#connector
  }

  /** Calls `listener` with the connect actor (now, if one exists) and whenever `selectWallet` replaces it. */
  subscribe(listener: (actor: ConnectActor) => void): () => void {
    this.#listeners.add(listener)
    if (this.#actor) listener(this.#actor)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Chooses the connector for a wallet: a custom connector with that id first; else, on desktop,
   * EIP-6963 / injected (EVM) or the Wallet Standard (Solana); on mobile, the MetaMask SDK (EVM) or
   * the universal link (Solana). The built-in connector's code is loaded on demand (a dynamic
   * import), so the `Client` bundle carries none of them up front.
   * @throws `WALLET_NOT_FOUND` (unknown wallet), `UNSUPPORTED_CHAIN`, `WALLET_UNAVAILABLE`.
   */
  async selectWallet(
    walletId: WalletId,
    options: { namespace: ChainNamespace },
  ): Promise<IWalletConnector> {
    const custom = this.#options.connectors?.find(
      (c) => c.id === walletId || walletIdForConnectorId(c.id) === walletId,
    )
    if (custom) return this.#useAndReturn(custom)
    const info = getWalletInfo(walletId)
    const connector = await loadConnectorForWallet(info, options.namespace, {
      mobile: this.#options.mobile ?? detectMobile(),
      universalLink: (wallet) => this.#universalLinkConnector(wallet),
      ...(this.#options.metaMaskSdk ? { metaMaskSdk: this.#options.metaMaskSdk } : {}),
      ...(this.#options.solanaChainId ? { solanaChainId: this.#options.solanaChainId } : {}),
    })
    return this.#useAndReturn(connector)
  }

  /**
   * Connects the selected connector (the injected one when none was selected).
   * @throws `USER_REJECTED` when the user declines; `WALLET_UNAVAILABLE`, `WALLET_ERROR`, and the
   * universal-link codes (`SESSION_EXPIRED`, `SESSION_FAILED`, `BACKEND_ERROR`) otherwise.
   */
  async connect(): Promise<WalletConnection> {
    const actor = this.#actor ?? (await this.#selectDefault())
    if (!actor.getSnapshot().matches('connected')) {
      if (actor.getSnapshot().matches('idle')) actor.send({ type: 'CONNECT' })
      else actor.send({ type: 'RETRY' })
    }
    const snapshot = await waitFor(actor, (s) => !s.matches('connecting'), {
      timeout: Number.POSITIVE_INFINITY,
    })
    if (snapshot.matches('connected') && snapshot.context.connection) {
      const { walletId, ...rest } = snapshot.context.connection
      return { ...rest, walletId: walletId ?? undefined, chainId: rest.chainId as Caip2ChainId }
    }
    throw toAppError(
      snapshot.context.error ?? { code: 'WALLET_ERROR', message: 'The wallet did not connect.' },
    )
  }

  /**
   * Pairs a wallet over the relay (QR code or deep link), end-to-end encrypted. Resolves once the
   * pairing URI exists (show `flow.uri` as a QR code: `pairingQrSvg` from `scope-connect/qr`);
   * `flow.approval` settles when the wallet answers, and from then on `getConnection`,
   * `signMessage` and `signTypedData` go over the paired session. The relay code loads on first use.
   * A new `pair()` stops the previous pairing. @throws `INVALID_CONFIG` (no metadata outside a page).
   */
  async pair(options: ClientPairOptions = {}): Promise<PairingFlow> {
    this.#pairing?.stop()
    const { baseUrl, appKey, relayUrl, WebSocket, fetchImpl } = this.#options
    const flow = await startClientPairing(
      { baseUrl, appKey, relayUrl, WebSocket, fetchImpl, ...this.#inspection() },
      options,
    )
    this.#pairing = flow
    return flow
  }

  /** The current connection (a connector's, else a settled pairing's), or null. */
  getConnection(): WalletConnection | null {
    const connection = this.#actor?.getSnapshot().context.connection
    if (!connection || !this.#actor?.getSnapshot().matches('connected')) {
      return this.#pairing ? pairedConnection(this.#pairing) : null
    }
    return {
      ...connection,
      walletId: connection.walletId ?? undefined,
      chainId: connection.chainId as Caip2ChainId,
    }
  }

  /** Disconnects the connected wallet, and ends a paired relay session (the wallet is told). */
  async disconnect(): Promise<void> {
    const pairing = this.#pairing
    this.#pairing = null
    if (pairing?.session) await pairing.disconnect()
    else pairing?.stop()
    const actor = this.#actor
    if (!actor?.getSnapshot().matches('connected')) return
    actor.send({ type: 'DISCONNECT' })
    await waitFor(actor, (s) => s.matches('idle') || s.status !== 'active', {
      timeout: Number.POSITIVE_INFINITY,
    })
  }

  /**
   * Signs `message` with the connected wallet: `personal_sign` on EVM (hex signature), Solana
   * `signMessage` (base58 signature). Over a universal link the wallet signs the backend session's
   * envelope, which the backend verifies, and `message` is not used.
   * @throws `NOT_CONNECTED`, `USER_REJECTED`, `WALLET_ERROR`.
   */
  async signMessage(message: string): Promise<string> {
    const paired = this.#pairedFlow()
    if (paired) {
      return paired.connection.namespace === 'eip155'
        ? paired.flow.signMessage(message)
        : paired.flow.signSolanaMessage(message)
    }
    return this.#sign({ message })
  }

  /**
   * EVM only: `eth_signTypedData_v4` of EIP-712 typed data (`{ domain, types, primaryType, message }`;
   * bigints travel as decimal strings), with the connected wallet or over a paired session.
   * @throws `NOT_CONNECTED`, `UNSUPPORTED_CHAIN` on Solana, `USER_REJECTED`, `WALLET_ERROR`.
   */
  async signTypedData(typedData: object): Promise<string> {
    const paired = this.#pairedFlow()
    if (paired) {
      if (paired.connection.namespace !== 'eip155') throw evmOnly()
      return paired.flow.signTypedData(typedData)
    }
    if (this.#connected().connection.namespace !== 'eip155') throw evmOnly()
    return this.#sign({ typedData })
  }

  async #sign(payload: ClientSignPayload): Promise<string> {
    const { connector, connection } = this.#connected()
    const { signRequestFor, signWithConnector } = await import('./sign')
    return signWithConnector(connector, signRequestFor(payload, connection), this.#inspection())
  }

  /**
   * Solana only: asks the wallet to sign a serialized transaction (base64).
   * Returns the wallet's answer (`{ signedTransaction }` from extensions, `{ signature }` over a
   * universal link). @throws `NOT_CONNECTED`, `UNSUPPORTED_CHAIN` on EVM, `USER_REJECTED`, `WALLET_ERROR`.
   */
  async signTransaction<T = { signedTransaction?: string; signature?: string }>(
    transaction: string,
  ): Promise<T> {
    const { connector, connection } = this.#connected()
    if (connection.namespace !== 'solana') {
      throw new AppError('UNSUPPORTED_CHAIN', 'signTransaction is for Solana connections.')
    }
    return connector.request<T>({
      method: 'solana_signTransaction' /* SOLANA_SIGN_TRANSACTION_METHOD */,
      params: { transaction },
    })
  }

  /**
   * Continues a mobile universal-link flow after the wallet sent the user back (the page reloaded):
   * rehydrates the persisted machine snapshot and, once connected, the connect actor follows.
   */
  async resume(): Promise<UniversalLinkResumeResult> {
    const store = await this.#store()
    const stored = store.load()
    if (stored === null)
      return { status: 'none', connection: null, signature: null, txSignature: null, error: null }
    const walletId = (stored.snapshot as { context?: { walletId?: unknown } } | null)?.context
      ?.walletId
    if (typeof walletId !== 'string') {
      store.clear()
      return {
        status: 'discarded',
        connection: null,
        signature: null,
        txSignature: null,
        error: null,
        reason: 'no wallet in the stored flow',
      }
    }
    const info = getWalletInfo(walletId)
    const connector = await this.#universalLinkConnector(info)
    this.#useAndReturn(connector)
    const result = await connector.rehydrate(stored)
    if (result.status === 'connected') await this.connect()
    return result
  }

  /** The project's enabled networks and wallets (the reader loads on first use). @throws `RPC_ERROR`. */
  async loadConfig(): Promise<ConnectConfig> {
    this.#config ??= (await import('../config')).createConnectConfigClient(this.#httpOptions())
    return this.#config.fetchConfig()
  }

  /**
   * A token balance read by the backend (the reader loads on first use).
   * @throws `UNSUPPORTED_CHAIN`, `RPC_ERROR`.
   */
  async getBalance(query: TokenBalanceQuery): Promise<TokenBalance> {
    this.#balances ??= (await import('../balance')).createBalanceReader(this.#httpOptions())
    return this.#balances.getBalance(query)
  }

  #httpOptions() {
    const { baseUrl, appKey, fetchImpl } = this.#options
    return { baseUrl, appKey, ...(fetchImpl ? { fetchImpl } : {}) }
  }

  #inspection(): InspectionOptions {
    const { inspect, sanitizeInspection } = this.#options
    return {
      ...(inspect === undefined ? {} : { inspect }),
      ...(sanitizeInspection === undefined ? {} : { sanitizeInspection }),
    }
  }

  async #store(): Promise<UniversalLinkStore> {
    const store = this.#options.universalLink?.store
    return (
      store ?? (await import('../universal-link/browser-store')).createBrowserUniversalLinkStore()
    )
  }

  /** Without a selection, `connect` uses the first custom connector, else the injected wallet. */
  async #selectDefault(): Promise<ConnectActor> {
    const custom = this.#options.connectors?.[0]
    if (custom) return this.#use(custom)
    const { InjectedConnector } = await import('../connectors/lazy/injected')
    return this.#use(new InjectedConnector())
  }

  async #universalLinkConnector(info: SupportWalletInfo): Promise<UniversalLinkConnector> {
    const link = this.#options.universalLink ?? {}
    if (!info.mobile)
      throw new AppError('WALLET_UNAVAILABLE', `${info.name} has no universal link.`)
    const { UniversalLinkConnector, GenericWalletSessionClient } = await import(
      '../universal-link/lazy/connector'
    )
    const { baseUrl, appKey, fetchImpl } = this.#options
    return new UniversalLinkConnector({
      walletId: info.id,
      universalLink: info.mobile.universalLink,
      session: new GenericWalletSessionClient(baseUrl, appKey, fetchImpl ? { fetchImpl } : {}),
      store: await this.#store(),
      ...(this.#options.solanaChainId ? { chainId: this.#options.solanaChainId } : {}),
      ...(link.openLink ? { openLink: link.openLink } : {}),
      ...(link.returnUrl ? { returnUrl: link.returnUrl } : {}),
      ...(link.dappName ? { dappName: link.dappName } : {}),
      ...(link.pollIntervalMs === undefined ? {} : { pollIntervalMs: link.pollIntervalMs }),
      ...this.#inspection(),
    })
  }

  /** The settled pairing, when no connector is connected (a connector's connection comes first). */
  #pairedFlow(): { flow: PairingFlow; connection: WalletConnection } | null {
    if (this.#actor?.getSnapshot().matches('connected') || !this.#pairing) return null
    const connection = pairedConnection(this.#pairing)
    return connection ? { flow: this.#pairing, connection } : null
  }

  #connected(): { connector: IWalletConnector; connection: WalletConnection } {
    const connection = this.getConnection()
    if (!connection || !this.#connector)
      throw new AppError('NOT_CONNECTED', 'Connect a wallet first.')
    return { connector: this.#connector, connection }
  }

  #useAndReturn<T extends IWalletConnector>(connector: T): T {
    this.#use(connector)
    return connector
  }

  #use(connector: IWalletConnector): ConnectActor {
    this.#actor?.stop()
    this.#connector = connector
    const actor = createConnectActor(connector, this.#inspection()).start()
    this.#actor = actor
    for (const listener of this.#listeners) listener(actor)
    return actor
  }
}
