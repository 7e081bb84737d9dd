import { AppError, isAppError, isProviderRpcError, normalizeWalletError } from '../errors'
import { invalidArgument, requireObject } from '../errors/arguments'
import { createLogger } from '../logging'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import { toEip155ChainId, toHexChainId } from './chain-id'
import { normalizeSolanaWalletError } from './solana-errors'
import type { ConnectorEvent, IWalletConnector, RequestArgs, WalletConnection } from './types'
import {
  namespaceOf,
  sessionAccounts,
  toWalletConnectSolanaRequest,
  walletConnectNamespaces,
} from './walletconnect-namespaces'
import {
  startSignClient,
  type WalletConnectMetadata,
  type WalletConnectSession,
  type WalletConnectSignClient,
  type WalletConnectStorage,
} from './walletconnect-sign-client'

const log = /* @__PURE__ */ createLogger('walletconnect')

/** WalletConnect's `USER_DISCONNECTED` reason, sent when the dApp ends the session. */
const USER_DISCONNECTED = { code: 6000, message: 'User disconnected.' }
/** sign-client's message when a proposal passes its expiry. */
const PROPOSAL_EXPIRED = /expired/i
/** WalletConnect's 5000–5003 (`USER_REJECTED`, `_CHAINS`, `_METHODS`, `_EVENTS`); 4001 is EIP-1193's. */
const WALLETCONNECT_REJECTION_CODES = new Set([5000, 5001, 5002, 5003])

/** Options of `WalletConnectConnector`. */
export interface WalletConnectConnectorOptions {
  /** Your WalletConnect Cloud (Reown) project id. */
  projectId: string
  /** The dApp as the wallet shows it. */
  metadata: WalletConnectMetadata
  /** The relay; default WalletConnect's `wss://relay.walletconnect.org`. */
  relayUrl?: string
  /**
   * CAIP-2 chains to propose (eip155 and/or solana); the first one's namespace is the connection's.
   * Default `['eip155:1']`.
   */
  chains?: Caip2ChainId[]
  /** Where sign-client keeps keys and sessions (default: its own, IndexedDB in a page). */
  storage?: WalletConnectStorage
  /**
   * Loads `@walletconnect/sign-client`. The default is a runtime `import()` bundlers do not follow;
   * in a bundled app pass `() => import('@walletconnect/sign-client')`.
   */
  importSignClient?: () => Promise<unknown>
  /**
   * How long the wallet has to approve a proposal, in seconds; default 300. When it lapses,
   * `connect()` rejects `SESSION_EXPIRED`.
   */
  proposalExpirySeconds?: number
  /** sign-client's log level; default `'silent'` (its logs can carry payloads). */
  logger?: string
  /** sign-client's telemetry to pulse.walletconnect.org; default false. */
  telemetryEnabled?: boolean
  /** Any other `SignClient.init` option, passed through (e.g. `customStoragePrefix`). */
  signClientOptions?: Record<string, unknown>
}

/**
 * WalletConnect v2: any wallet that speaks it (MetaMask Mobile, Rainbow, Trust, Zerion, Phantom…),
 * paired by scanning or opening the `wc:` URI. Id: `walletconnect`. Needs the optional peer
 * `@walletconnect/sign-client`, loaded on the first `connect()` / `reconnect()`.
 *
 * While the wallet is asked, subscribers get `{ type: 'displayUri', uri }` (the `Client` puts it in
 * `view.pairingUri`). Carries the eip155 namespace (`personal_sign`, `eth_signTypedData_v4`,
 * `eth_sendTransaction`, `wallet_switchEthereumChain`, `wallet_addEthereumChain`; `chainChanged`,
 * `accountsChanged`) and the solana one (`solana_signMessage`, `solana_signTransaction`,
 * `solana_signAndSendTransaction`). The session lives in sign-client's storage, so `reconnect()`
 * restores it after a reload without a prompt.
 */
export class WalletConnectConnector implements IWalletConnector {
  readonly id = 'walletconnect'
  readonly #options: WalletConnectConnectorOptions
  readonly #namespace: ChainNamespace
  #client: Promise<WalletConnectSignClient> | undefined
  #missing = false
  #session: WalletConnectSession | undefined
  #accounts: string[] = []
  #chainId: Caip2ChainId | undefined
  #displayUri: string | undefined
  /** Rejects the pending approval (cancel). */
  #abortApproval: ((error: AppError) => void) | undefined
  readonly #subscribers = new Set<(event: ConnectorEvent) => void>()

  /**
   * @throws {AppError} `UNSUPPORTED_CHAIN` when a chain is outside eip155 and solana;
   * `INVALID_CONFIG` when `options` is not an object, `chains` not an array or `importSignClient`
   * not a function.
   */
  constructor(options: WalletConnectConnectorOptions) {
    requireObject(options, 'options')
    if (options.importSignClient !== undefined && typeof options.importSignClient !== 'function') {
      throw invalidArgument('options.importSignClient', 'must be a function')
    }
    this.#options = options
    const chains = options.chains ?? ['eip155:1']
    walletConnectNamespaces(chains)
    this.#namespace = namespaceOf(chains[0] ?? 'eip155:1')
  }

  /** True until loading sign-client has failed: a WalletConnect wallet is remote. */
  isAvailable(): boolean {
    return !this.#missing
  }

  /** The `wc:` URI of the proposal in progress; undefined when none is. */
  getDisplayUri(): string | undefined {
    return this.#displayUri
  }

  /**
   * Proposes a session (reporting the `wc:` URI to subscribers as `displayUri`) and waits for the
   * wallet's approval.
   * @throws {AppError} `WALLET_UNAVAILABLE` when `@walletconnect/sign-client` is not installed;
   * `USER_REJECTED` when the wallet rejects the proposal; `SESSION_EXPIRED` when it lapses
   * unanswered (`proposalExpirySeconds`); `ABORTED` when `disconnect()` cancels it; `WALLET_ERROR`
   * when the session has no account on the namespace, or the relay fails.
   */
  async connect(): Promise<WalletConnection> {
    const client = await this.#load()
    this.#abortApproval?.(
      new AppError('ABORTED', 'A newer WalletConnect proposal replaced this one.'),
    )
    const chains = this.#options.chains ?? ['eip155:1']
    const expirySeconds = this.#options.proposalExpirySeconds ?? 300
    let proposal: Awaited<ReturnType<WalletConnectSignClient['connect']>>
    try {
      proposal = await client.connect({
        optionalNamespaces: walletConnectNamespaces(chains),
        expiry: expirySeconds,
      })
    } catch (error) {
      throw toAppError(
        error,
        'The WalletConnect proposal could not be sent to the relay.',
        this.#namespace,
      )
    }
    const { uri, approval } = proposal
    if (uri) {
      this.#displayUri = uri
      this.#emit({ type: 'displayUri', uri })
    }
    let session: WalletConnectSession
    let lapse: ReturnType<typeof setTimeout> | undefined
    try {
      session = await new Promise<WalletConnectSession>((resolve, reject) => {
        this.#abortApproval = reject
        // sign-client (2.25) proposes with its own fixed TTL (5 min) and ignores `expiry`: the
        // connector ends the wait itself when `proposalExpirySeconds` lapses.
        lapse = setTimeout(
          () =>
            reject(
              new AppError(
                'SESSION_EXPIRED',
                'The wallet did not answer before the WalletConnect proposal expired.',
              ),
            ),
          expirySeconds * 1000,
        )
        approval().then(resolve, reject)
      })
    } catch (error) {
      throw toAppError(
        error,
        'The wallet did not approve the WalletConnect session.',
        this.#namespace,
      )
    } finally {
      clearTimeout(lapse)
      this.#abortApproval = undefined
      this.#displayUri = undefined
    }
    return this.#establish(session, chains[0])
  }

  /**
   * Restores the newest live session on this connector's namespace from sign-client's storage, with
   * no prompt; `null` when there is none.
   * @throws {AppError} `WALLET_UNAVAILABLE` when sign-client cannot be loaded.
   */
  async reconnect(): Promise<WalletConnection | null> {
    const client = await this.#load()
    const now = Date.now() / 1000
    const sessions = client.session
      .getAll()
      .filter((s) => s.expiry > now && sessionAccounts(s, this.#namespace) !== null)
      .sort((a, b) => b.expiry - a.expiry)
    const session = sessions[0]
    if (!session) return null
    return this.#establish(session, this.#chainId)
  }

  #establish(session: WalletConnectSession, preferred: string | undefined): WalletConnection {
    const found = sessionAccounts(session, this.#namespace, preferred)
    if (!found) {
      throw new AppError('WALLET_ERROR', `The wallet approved no ${this.#namespace} account.`)
    }
    this.#session = session
    this.#accounts = found.accounts
    this.#chainId = found.chainId
    log.debug('connected', { chainId: found.chainId })
    return {
      walletId: undefined,
      connectorId: this.id,
      namespace: this.#namespace,
      chainId: found.chainId,
      accounts: [...found.accounts],
    }
  }

  /**
   * Sends a request to the wallet over the session, on the current chain. EVM: `eth_accounts`,
   * `eth_requestAccounts` and `eth_chainId` are answered locally; `wallet_switchEthereumChain` is
   * sent and, once the wallet accepts, the chain changes (subscribers get `chainChanged`). Solana:
   * `solana_signMessage` `{ message }` (UTF-8) → `{ signature, publicKey }`,
   * `solana_signTransaction` `{ transaction }` → `{ signedTransaction }` (`{ signature }` from a
   * wallet that answers only that),
   * `solana_signAndSendTransaction` `{ transaction }` → `{ signature }`.
   * @throws {AppError} `NOT_CONNECTED` without a session; `USER_REJECTED`; `WALLET_ERROR` for any
   * other wallet error or a request that lapses (sign-client's expiry).
   */
  async request<T>(args: RequestArgs): Promise<T> {
    const session = this.#session
    const chainId = this.#chainId
    const address = this.#accounts[0]
    if (!session || !chainId || address === undefined) {
      throw new AppError('NOT_CONNECTED', `Connector ${this.id} is not connected; call connect().`)
    }
    const client = await this.#load()
    if (this.#namespace === 'solana') {
      const { request, read } = toWalletConnectSolanaRequest(args, address)
      return read(await this.#send(client, session.topic, chainId, request)) as T
    }
    switch (args.method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [...this.#accounts] as T
      case 'eth_chainId':
        return toHexChainId(chainId) as T
    }
    const answer = await this.#send(client, session.topic, chainId, {
      method: args.method,
      params: args.params ?? [],
    })
    if (args.method === 'wallet_switchEthereumChain') {
      const target = (args.params as [{ chainId?: unknown }] | undefined)?.[0]?.chainId
      if (typeof target === 'string') this.#changeChain(toEip155ChainId(target))
    }
    return answer as T
  }

  async #send(
    client: WalletConnectSignClient,
    topic: string,
    chainId: string,
    request: { method: string; params: unknown },
  ): Promise<unknown> {
    try {
      return await client.request({ topic, chainId, request })
    } catch (error) {
      throw toAppError(error, `The wallet failed ${request.method}.`, this.#namespace)
    }
  }

  /** The session's accounts on the current chain, the active one first; empty when not connected. */
  getAccounts(): string[] {
    return [...this.#accounts]
  }

  /** The CAIP-2 chain of the session; undefined when not connected. */
  getChainId(): Caip2ChainId | undefined {
    return this.#chainId
  }

  /**
   * Cancels a pending proposal (its `connect()` rejects `ABORTED`) or ends the session with the
   * wallet (`USER_DISCONNECTED`; a relay failure is ignored), then clears the local state and ends
   * every subscription. Never throws.
   */
  async disconnect(): Promise<void> {
    this.#abortApproval?.(new AppError('ABORTED', 'The WalletConnect proposal was cancelled.'))
    const session = this.#session
    this.#clear()
    this.#subscribers.clear()
    if (!session || !this.#client) return
    try {
      const client = await this.#client
      await client.disconnect({ topic: session.topic, reason: USER_DISCONNECTED })
    } catch (error) {
      log.debug('WalletConnect disconnect failed; disconnected locally', { error })
    }
  }

  /**
   * Receives `displayUri` (while a proposal waits), `accountsChanged`, `chainChanged` (the wallet's
   * session events and updates) and `disconnect` (the wallet deleted the session, or it expired).
   * Returns the unsubscribe function.
   */
  subscribe(listener: (event: ConnectorEvent) => void): () => void {
    this.#subscribers.add(listener)
    return () => {
      this.#subscribers.delete(listener)
    }
  }

  #load(): Promise<WalletConnectSignClient> {
    if (!this.#client) {
      const { projectId, metadata, relayUrl, storage, logger, telemetryEnabled } = this.#options
      const attempt = startSignClient(this.#options.importSignClient, {
        ...this.#options.signClientOptions,
        projectId,
        metadata,
        logger: logger ?? 'silent',
        telemetryEnabled: telemetryEnabled ?? false,
        ...(relayUrl ? { relayUrl } : {}),
        ...(storage ? { storage } : {}),
      }).then((client) => {
        this.#missing = false
        this.#listen(client)
        return client
      })
      attempt.catch((error: unknown) => {
        this.#missing = isAppError(error, 'WALLET_UNAVAILABLE')
        if (this.#client === attempt) this.#client = undefined
      })
      this.#client = attempt
    }
    return this.#client
  }

  #listen(client: WalletConnectSignClient): void {
    const mine = (topic: unknown) => topic === this.#session?.topic
    client.on('session_delete', (({ topic }: { topic: string }) => {
      if (mine(topic)) this.#ended()
    }) as (args: never) => void)
    client.on('session_expire', (({ topic }: { topic: string }) => {
      if (mine(topic)) this.#ended()
    }) as (args: never) => void)
    client.on('session_event', ((args: {
      topic: string
      params: { event: { name: string; data: unknown }; chainId: string }
    }) => {
      if (!mine(args.topic)) return
      const { name, data } = args.params.event
      if (name === 'chainChanged') {
        try {
          this.#changeChain(toChain(data, this.#namespace))
        } catch {
          log.warn('ignored chainChanged with an invalid chain id')
        }
      } else if (name === 'accountsChanged' && Array.isArray(data)) {
        this.#accounts = data
          .filter((a): a is string => typeof a === 'string')
          .map((a) => a.split(':').pop() ?? a)
        this.#emit({ type: 'accountsChanged', accounts: [...this.#accounts] })
      }
    }) as (args: never) => void)
    client.on('session_update', (({
      topic,
      params,
    }: {
      topic: string
      params: { namespaces: WalletConnectSession['namespaces'] }
    }) => {
      const session = this.#session
      if (!session || !mine(topic)) return
      this.#session = { ...session, namespaces: params.namespaces }
      const found = sessionAccounts(this.#session, this.#namespace, this.#chainId)
      if (!found) return
      if (found.accounts.join() !== this.#accounts.join()) {
        this.#accounts = found.accounts
        this.#emit({ type: 'accountsChanged', accounts: [...found.accounts] })
      }
    }) as (args: never) => void)
  }

  #changeChain(chainId: Caip2ChainId): void {
    if (chainId === this.#chainId) return
    this.#chainId = chainId
    this.#emit({ type: 'chainChanged', chainId })
  }

  #ended(): void {
    this.#clear()
    this.#emit({ type: 'disconnect' })
  }

  #clear(): void {
    this.#session = undefined
    this.#accounts = []
    this.#chainId = undefined
    this.#displayUri = undefined
  }

  #emit(event: ConnectorEvent): void {
    for (const subscriber of [...this.#subscribers]) {
      try {
        subscriber(event)
      } catch (error) {
        log.error('connector subscriber threw', { error })
      }
    }
  }
}

/** A `chainChanged` payload (hex, decimal or CAIP-2) as CAIP-2. */
function toChain(data: unknown, namespace: ChainNamespace): Caip2ChainId {
  if (typeof data === 'string' && data.includes(':')) {
    namespaceOf(data)
    return data as Caip2ChainId
  }
  if (namespace !== 'eip155') throw new AppError('UNSUPPORTED_CHAIN', 'Not a chain id.')
  return toEip155ChainId(data)
}

/**
 * A sign-client or wallet failure as an `AppError`. WalletConnect's own rejection codes and a
 * lapsed proposal are read here; everything else goes through the same mapping as the injected
 * connectors (`normalizeWalletError`: 4001 → `USER_REJECTED`, another code → `WALLET_ERROR` with
 * it; on Solana also the wallets' "user rejected" phrasings, `normalizeSolanaWalletError`).
 */
function toAppError(error: unknown, fallback: string, namespace: ChainNamespace): AppError {
  if (isAppError(error)) return error
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'number' && WALLETCONNECT_REJECTION_CODES.has(code)) {
    return new AppError('USER_REJECTED', 'The user rejected the request in the wallet.', {
      cause: error,
    })
  }
  if (typeof message === 'string' && PROPOSAL_EXPIRED.test(message)) {
    return new AppError(
      'SESSION_EXPIRED',
      'The wallet did not answer before the proposal expired.',
      {
        cause: error,
      },
    )
  }
  if (isProviderRpcError(error)) {
    return namespace === 'solana' ? normalizeSolanaWalletError(error) : normalizeWalletError(error)
  }
  return new AppError('WALLET_ERROR', `${fallback} ${String(message ?? '')}`.trim(), {
    cause: error,
  })
}
