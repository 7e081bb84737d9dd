import type { ClientActor } from '../../machines/client/client.facade'
import type { ClientView } from '../../machines/client/client.view'
import type { ConnectMachine } from '../../machines/connect/connect.machine'
import type { PairingHandle } from '../../machines/pairing/pairing.facade'
import { createGuardReport, guardStore } from '../../machines/shared/guard'
import { type SignableMessage, signRequest } from '../../machines/sign/sign.requests'
import type { TokenBalance, TokenBalanceQuery, TokenBalanceResult } from '../balance'
import type { ConnectConfig } from '../config'
import type { IWalletConnector, WalletConnection } from '../connectors/types'
import type { ServedPathOptions } from '../connectors/wallet-paths'
import { typedDataJson } from '../eip3009/typed-data-json'
import { AppError } from '../errors/app-error'
import { normalizeBaseUrl } from '../http/base-url'
import { requireNonEmpty, resolveFetch } from '../http/options'
import { registerNetworks } from '../registry/custom-networks'
import { registerPartnerWallets } from '../registry/partners'
import type { Caip2ChainId, ChainNamespace, WalletId } from '../registry/types'
import type { SignInParameters } from '../siwe/parameters'
import type { SettledTransaction } from '../transaction/store'
import type { SendTransactionParameters, TransactionHandle } from '../transaction/types'
import type { SignInRecord } from '../wire/schemas/sign-in'
import { checkParameters, loadParameterChecks, rawIsEvmOnly } from './check'
import type { ClientLoaders } from './environment'
import { guardClientOptions } from './guard-options'
import { childOf, type RootHost } from './host'
import type { ClientOptions, ResumeResult } from './options'
import type { PairedSession } from './paired-session'
import type { ClientPairOptions } from './pairing'
import { assembleClient } from './parts'
import type { ClientResume } from './resume'
import type { ClientTransactions } from './transactions'

export type { ClientOptions, ResumeResult } from './options'

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
  readonly #report = createGuardReport(async (message, data) => {
    // The logger loads with the first report: the entry goes without it until the app's code throws.
    const { createLogger } = await import('../logging')
    createLogger('client').warn(message, data)
  })
  /** The root actor's environment and the lazily loaded parts (connectors, machines, readers). */
  readonly #loaders: ClientLoaders
  /** The root actor: started, replaced, followed; its view's listeners; its flows run. */
  readonly #host: RootHost
  readonly #transactions: ClientTransactions
  readonly #paired: PairedSession
  readonly #resume: ClientResume

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
    const parts = assembleClient(this.#options, this.#report, this)
    this.#loaders = parts.loaders
    this.#host = parts.host
    this.#transactions = parts.transactions
    this.#paired = parts.paired
    this.#resume = parts.resume
    loadParameterChecks().catch(() => undefined) // so that each method's check runs at once
  }

  /** The root actor (replaced by `resume()`; `subscribe` follows it). */
  get actor(): ClientActor {
    return this.#host.actor
  }

  /**
   * The `connect` machine's actor of the selected desktop connector (a child of the root actor).
   * @throws `WALLET_NOT_FOUND` before a desktop connector is selected.
   */
  get connectActor(): import('xstate').ActorRefFrom<ConnectMachine> {
    const ref = childOf(this.#host.actor, 'connection')
    if (ref) return ref as import('xstate').ActorRefFrom<ConnectMachine>
    throw new AppError('WALLET_NOT_FOUND', 'No wallet selected yet: call selectWallet or connect.')
  }

  /**
   * The flow of the current relay pairing — from `pair()`, or the session `resume()` restored (then
   * its `uri` is null) — while the root is in its relay flow; else null.
   */
  get pairing(): PairingHandle | null {
    return this.#paired.current()
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
    return this.#loaders.connector
  }

  /** The current view (`toClientView` of the root snapshot). */
  getView(): ClientView {
    return this.#host.view()
  }

  /** Calls `listener` with the view now and on every change, across root replacements (`resume`). */
  subscribe(listener: (view: ClientView) => void): () => void {
    return this.#host.subscribe(listener)
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
    await this.#host.run({
      type: 'SELECT_WALLET',
      walletId,
      namespace: options.namespace,
      connect: false,
    })
    return this.#loaders.connector as IWalletConnector
  }

  /**
   * Connects the selected connector (the first custom one, else the injected wallet, when none was
   * selected). Resolves at once when already connected.
   * @throws `USER_REJECTED`; `WALLET_UNAVAILABLE`, `WALLET_ERROR`; `TIMEOUT` (`walletAnswerMs`);
   * `ABORTED` (`cancel()`, `disconnect()`, another wallet selected); over a universal link
   * `SESSION_EXPIRED`, `SESSION_FAILED`, `BACKEND_ERROR`.
   */
  async connect(): Promise<WalletConnection> {
    const host = this.#host
    host.live()
    const view = this.getView()
    if (view.isConnected) return this.getConnection() as WalletConnection
    // A wallet being selected: connect it once loaded (not the default connector).
    if (view.pending === 'select') await host.waitCurrent()
    if (this.getView().pending === 'connect') await host.waitCurrent()
    else if (this.getView().isConnected) return this.getConnection() as WalletConnection
    else if (host.actor.getSnapshot().hasTag('selected')) await host.run({ type: 'CONNECT' })
    else await host.run({ type: 'SELECT_WALLET', walletId: null, namespace: null, connect: true })
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
    const store = options.store
      ? guardStore(options.store, 'pair({ store })', this.#report)
      : (this.#options.pairing?.store ?? null)
    return this.#paired.pair(options, store)
  }

  /** The current connection (a connector's, else a settled pairing's), or null. */
  getConnection(): WalletConnection | null {
    return this.#host.connection()
  }

  /**
   * Ends the pending flow, if any: its promise rejects with `ABORTED`, a universal-link flow is
   * stopped and its stored state cleared. A connection in place stays (see `disconnect`). A
   * transaction the wallet is asked for is given up, not taken back: the wallet may still send it,
   * and `getView().transaction` follows its answer (see `sendTransaction`).
   */
  cancel(): void {
    // A transaction awaiting its wallet is cancelled through the root too (its child ends ABORTED).
    if (this.getView().canCancel) this.#host.actor.send({ type: 'CANCEL' })
    if (!this.#host.actor.getSnapshot().hasTag('resumable'))
      this.#options.universalLink?.store?.clear()
  }

  /**
   * Ends any pending flow (`ABORTED`) and the connection — a paired relay session is deleted (the
   * wallet is told); clears the stored universal-link flow and paired session.
   */
  async disconnect(): Promise<void> {
    const view = this.getView()
    if (view.isConnected && !view.isBusy) await this.#host.run({ type: 'DISCONNECT' })
    else if (view.canCancel)
      this.#host.actor.send({ type: view.isConnected ? 'DISCONNECT' : 'CANCEL' })
    this.#options.universalLink?.store?.clear()
    await this.#resume.forgetConnection()
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
    const connection = this.#host.walletConnection()
    if (!/^eip155:[1-9][0-9]*$/.test(chainId))
      throw new AppError('UNSUPPORTED_CHAIN', `Not an EVM chain id (eip155:<decimal>): ${chainId}`)
    if (connection.namespace !== 'eip155' || this.getView().connectionKind !== 'wallet')
      throw new AppError(
        'UNSUPPORTED_CHAIN',
        'switchChain is for EVM wallets connected in this browser; switch in the wallet app.',
      )
    if (connection.chainId === chainId) return
    await this.#host.run({ type: 'SWITCH_CHAIN', chainId })
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
    const connection = this.#host.walletConnection()
    if (typeof message !== 'string' && connection.namespace !== 'eip155') throw rawIsEvmOnly()
    const paired = this.#paired.current()
    if (paired) {
      return typeof message !== 'string' || connection.namespace === 'eip155'
        ? paired.signMessage(message)
        : paired.signSolanaMessage(message)
    }
    const request =
      connection.namespace === 'eip155'
        ? signRequest(message, connection.accounts[0] ?? '')
        : { method: 'solana_signMessage', params: { message } }
    return this.#host.sign({ request, link: { method: 'signMessage', payload: null } })
  }

  /**
   * Sign-In with Ethereum (EIP-4361), or With Solana on a Solana connection: asks the backend for
   * a single-use nonce (`POST /sign-in/nonce`), builds the message for the connected account
   * (`domain` and `uri` default to the page's; `expirationTime` to 10 minutes), has the wallet
   * sign it through the sign chart (as `signMessage`), and has the backend verify it (`POST
   * /sign-in/verify`: domain, URI, chain, nonce, times; EIP-191, ERC-1271, ERC-6492 or ed25519).
   * Resolves with the backend's verified record. Its code loads on first use (docs/sign-in.md).
   * @throws `INVALID_CONFIG` (a parameter of the wrong shape, `details` names it; nothing is
   * sent), `NOT_CONNECTED`, `UNSUPPORTED_CHAIN`, `BACKEND_ERROR` (the backend's refusal in
   * `backendCode`: `NONCE_USED`, `SIGNATURE_INVALID`, `VALIDATION_FAILED`; or no backend), and
   * what `signMessage` throws: `USER_REJECTED`, `WALLET_ERROR`, `WALLET_BUSY`, `ACCOUNT_CHANGED`,
   * `TIMEOUT`, `ABORTED`.
   */
  async signIn(parameters?: SignInParameters): Promise<SignInRecord> {
    const { signIn } = await import('../siwe/sign-in')
    return signIn(this, this.#options, parameters)
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
    const connection = this.#host.walletConnection()
    if (connection.namespace !== 'eip155')
      throw new AppError('UNSUPPORTED_CHAIN', 'signTypedData is for EVM (eip155) connections.')
    const paired = this.#paired.current()
    if (paired) return paired.signTypedData(typedData)
    const params = [connection.accounts[0] ?? '', typedDataJson(typedData)]
    return this.#host.sign({
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
    const connection = this.#host.walletConnection()
    if (connection.namespace !== 'solana')
      throw new AppError('UNSUPPORTED_CHAIN', 'signTransaction is for Solana connections.')
    if (this.#host.actor.getSnapshot().matches('link')) {
      const signature = await this.#host.signOverLink('solana_signTransaction', transaction)
      return { signature } as T
    }
    const answer = await this.#host.sign({
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
  resume(options: { url?: string } = {}): Promise<ResumeResult> {
    return this.#resume.resume(options.url)
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
    return this.#transactions.send(params, this.#host.walletConnection())
  }

  /**
   * Picks up the transaction `sendTransaction` left waiting for its receipt before a reload (from
   * `transactions.store`): the same hash, its deadlines kept. Null when none is stored (or its
   * receipt deadline passed). Needs no wallet: the backend reads the receipt. One transaction is
   * watched at a time; one the wallet still holds (a `sendTransaction` waiting, or given up with
   * `cancel()` / `disconnect()`) is never replaced: call again once `getView().isBusy` is false.
   * @throws `WALLET_BUSY` while the wallet is asked for a transaction (nothing is resumed).
   */
  resumeTransaction(): Promise<TransactionHandle | null> {
    return this.#transactions.resume()
  }

  /**
   * The transactions that settled after the wallet sent them, newest first, from
   * `transactions.store`'s history (the package's stores keep the last 10, across reloads; a
   * store without `history` keeps none). Entries are checked on read: a bad one is left out.
   */
  recentTransactions(): Promise<SettledTransaction[]> {
    return this.#transactions.recent()
  }

  /**
   * The project's enabled networks and wallets (a `readConfig` actor of the system).
   * @throws `RPC_ERROR`; `ABORTED` when its root goes meanwhile (`resume()` restoring a flow).
   */
  loadConfig(): Promise<ConnectConfig> {
    return this.#host.read<ConnectConfig>((id) => ({ type: 'READ_CONFIG', id }))
  }

  /**
   * A token balance read by the backend (a `readBalance` actor). @throws `INVALID_CONFIG` (a query of
   * the wrong shape), `UNSUPPORTED_CHAIN`, `RPC_ERROR`; `ABORTED` when its root goes meanwhile
   * (`resume()` restoring a flow).
   */
  async getBalance(query: TokenBalanceQuery): Promise<TokenBalance> {
    const checking = checkParameters('getBalance', query)
    if (checking) await checking
    return this.#host.read<TokenBalance>((id) => ({ type: 'READ_BALANCE', id, query }))
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
    return this.#host.read<TokenBalanceResult[]>((id) => ({ type: 'READ_BALANCES', id, queries }))
  }
}
