import { AppError, isAppError, isProviderRpcError, normalizeWalletError } from '../errors'
import { createLogger } from '../logging'
import { walletIdForConnectorId } from '../registry'
import type { Caip2ChainId, WalletId } from '../registry/types'
import { toEip155ChainId, toHexChainId } from './chain-id'
import type {
  ConnectorEvent,
  Eip1193Provider,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from './types'

const log = /* @__PURE__ */ createLogger('connector')

/** EIP-1474 `4902`: the wallet does not know the chain it was asked to switch to. */
const UNRECOGNIZED_CHAIN_CODE = 4902
/** MetaMask emits `disconnect` with 1013 while it reconnects to its RPC; the session is still alive. */
const RECONNECTING_CODE = 1013

/** Returns the provider when it is present right now; called lazily, never at construction. */
export type Eip1193ProviderGetter = () => Eip1193Provider | undefined

/**
 * Base class for EIP-1193 connectors: give it an id and a provider getter. Subclasses whose provider
 * appears asynchronously (EIP-6963 announcement, an SDK loaded on demand) override `resolveProvider`.
 *
 * Provider listeners are attached while the connector is connected or has subscribers, and removed
 * when neither holds, so a connector that is dropped leaves nothing behind on the provider.
 */
export class Eip1193Connector implements IWalletConnector {
  readonly id: string
  readonly #getProvider: Eip1193ProviderGetter
  /** The provider of the current connection; the getter is asked again after a disconnect. */
  #provider: Eip1193Provider | undefined
  #connected = false
  #accounts: string[] = []
  #chainId: Caip2ChainId | undefined
  readonly #subscribers = new Set<(event: ConnectorEvent) => void>()
  /** The provider our listeners are currently on, if any. */
  #listeningOn: Eip1193Provider | undefined

  constructor(id: string, getProvider: Eip1193ProviderGetter) {
    this.id = id
    this.#getProvider = getProvider
  }

  /** True when a provider is present right now. */
  isAvailable(): boolean {
    return this.getProvider() !== undefined
  }

  /** The provider in use, or the one the getter finds now; undefined when there is none. */
  getProvider(): Eip1193Provider | undefined {
    return this.#provider ?? this.#getProvider()
  }

  /**
   * Finds the provider for `connect()`. The default asks the getter; override it when the provider
   * has to be waited for or loaded.
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` (or whatever the override throws) when there is none.
   */
  protected async resolveProvider(): Promise<Eip1193Provider | undefined> {
    return this.#getProvider()
  }

  /**
   * Asks the wallet for its accounts (`eth_requestAccounts`) and chain (`eth_chainId`).
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` when no provider is present; `USER_REJECTED` when the user
   * declines (4001); `WALLET_ERROR` when the wallet fails otherwise or returns no account.
   */
  async connect(): Promise<WalletConnection> {
    const provider = await this.#resolve()
    const accounts = toAccounts(await call(provider, { method: 'eth_requestAccounts' }))
    if (accounts.length === 0) throw new AppError('WALLET_ERROR', 'The wallet returned no account.')
    return this.#establish(provider, accounts)
  }

  /**
   * Restores the connection without a prompt: `eth_accounts` (no dialog), then `eth_chainId`.
   * Resolves `null` when the wallet answers no account (not authorized for this site, or locked).
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` when no provider is present; `WALLET_ERROR` when the
   * wallet fails.
   */
  async reconnect(): Promise<WalletConnection | null> {
    const provider = await this.#resolve()
    const accounts = toAccounts(await call(provider, { method: 'eth_accounts' }))
    if (accounts.length === 0) return null
    return this.#establish(provider, accounts)
  }

  async #establish(provider: Eip1193Provider, accounts: string[]): Promise<WalletConnection> {
    const chainId = toEip155ChainId(await call(provider, { method: 'eth_chainId' }))
    this.#provider = provider
    this.#connected = true
    this.#accounts = accounts
    this.#chainId = chainId
    this.#syncListeners()
    log.debug('connected', { connectorId: this.id, chainId })
    return {
      walletId: this.walletIdFor(provider),
      connectorId: this.id,
      namespace: 'eip155',
      chainId,
      accounts: [...accounts],
    }
  }

  /**
   * The wallet behind `provider`, for `WalletConnection.walletId`: by default the rule of
   * `walletIdForConnectorId(id)`. Connectors that can tell more (the injected one) override it.
   */
  protected walletIdFor(_provider: Eip1193Provider): WalletId | undefined {
    return walletIdForConnectorId(this.id)
  }

  /**
   * Forwards a JSON-RPC request to the connected wallet.
   *
   * @throws {AppError} `NOT_CONNECTED` before `connect()`; `USER_REJECTED` when the user declines
   * (4001, the provider's error kept as `cause`); `WALLET_ERROR` for any other provider error.
   */
  async request<T>(args: RequestArgs): Promise<T> {
    return (await call(this.#requireConnected(), args)) as T
  }

  /** The connected accounts, the active one first; empty when not connected. */
  getAccounts(): string[] {
    return [...this.#accounts]
  }

  /** The CAIP-2 chain the wallet is on; undefined when not connected. */
  getChainId(): Caip2ChainId | undefined {
    return this.#chainId
  }

  /**
   * Asks the wallet to switch to `chainId` (`wallet_switchEthereumChain`). The wallet confirms with
   * a `chainChanged` event, which subscribers receive.
   *
   * @throws {AppError} `UNSUPPORTED_CHAIN` when `chainId` is not `eip155:<decimal>` or the wallet
   * does not know the chain (4902); `NOT_CONNECTED` before `connect()`; `USER_REJECTED`;
   * `WALLET_ERROR`.
   */
  async switchChain(chainId: Caip2ChainId): Promise<void> {
    const hexChainId = toHexChainId(chainId)
    const provider = this.#requireConnected()
    try {
      await provider.request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: hexChainId }],
      })
    } catch (error) {
      if (isProviderRpcError(error) && error.code === UNRECOGNIZED_CHAIN_CODE) {
        throw new AppError('UNSUPPORTED_CHAIN', `The wallet does not know chain ${chainId}.`, {
          cause: error,
        })
      }
      throw normalizeWalletError(error)
    }
    this.#chainId = chainId
  }

  /**
   * Ends the connection: asks the wallet to revoke the account permission where it supports
   * `wallet_revokePermissions` (a failure is ignored: many wallets lack it), then clears the local
   * state, ends every subscription and removes the provider listeners. Never throws.
   */
  async disconnect(): Promise<void> {
    const provider = this.#connected ? this.#provider : undefined
    this.#clearConnection()
    this.#subscribers.clear()
    this.#syncListeners()
    if (!provider) return
    try {
      await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
    } catch (error) {
      log.debug('wallet_revokePermissions failed; disconnected locally', { error })
    }
  }

  /**
   * Receives `accountsChanged` (an empty list means the wallet locked or revoked access),
   * `chainChanged` (as CAIP-2) and `disconnect`. Returns the unsubscribe function; `disconnect()`
   * ends all subscriptions.
   */
  subscribe(listener: (event: ConnectorEvent) => void): () => void {
    this.#subscribers.add(listener)
    this.#syncListeners()
    return () => {
      this.#subscribers.delete(listener)
      this.#syncListeners()
    }
  }

  async #resolve(): Promise<Eip1193Provider> {
    let provider: Eip1193Provider | undefined
    try {
      provider = this.#provider ?? (await this.resolveProvider())
    } catch (error) {
      if (isAppError(error)) throw error
      throw new AppError('WALLET_UNAVAILABLE', `No provider for connector ${this.id}.`, {
        cause: error,
      })
    }
    if (!provider) {
      throw new AppError('WALLET_UNAVAILABLE', `No wallet provider found for connector ${this.id}.`)
    }
    return provider
  }

  #requireConnected(): Eip1193Provider {
    if (!this.#connected || !this.#provider) {
      throw new AppError('NOT_CONNECTED', `Connector ${this.id} is not connected; call connect().`)
    }
    return this.#provider
  }

  #clearConnection(): void {
    this.#connected = false
    this.#provider = undefined
    this.#accounts = []
    this.#chainId = undefined
  }

  #syncListeners(): void {
    const wanted = this.#connected || this.#subscribers.size > 0 ? this.getProvider() : undefined
    if (wanted === this.#listeningOn) return
    if (this.#listeningOn) {
      this.#listeningOn.removeListener?.('accountsChanged', this.#onAccountsChanged)
      this.#listeningOn.removeListener?.('chainChanged', this.#onChainChanged)
      this.#listeningOn.removeListener?.('disconnect', this.#onDisconnect)
    }
    if (wanted) {
      wanted.on?.('accountsChanged', this.#onAccountsChanged)
      wanted.on?.('chainChanged', this.#onChainChanged)
      wanted.on?.('disconnect', this.#onDisconnect)
    }
    this.#listeningOn = wanted
  }

  #emit(event: ConnectorEvent): void {
    for (const subscriber of [...this.#subscribers]) {
      try {
        subscriber(event)
      } catch (error) {
        // One failing subscriber must not starve the others.
        log.error('connector subscriber threw', { error })
      }
    }
  }

  readonly #onAccountsChanged = (accounts: unknown): void => {
    const next = toAccounts(accounts)
    if (this.#connected) this.#accounts = next
    this.#emit({ type: 'accountsChanged', accounts: [...next] })
  }

  readonly #onChainChanged = (chainId: unknown): void => {
    let next: Caip2ChainId
    try {
      next = toEip155ChainId(chainId)
    } catch {
      log.warn('ignored chainChanged with an invalid chain id', { chainId })
      return
    }
    if (this.#connected) this.#chainId = next
    this.#emit({ type: 'chainChanged', chainId: next })
  }

  readonly #onDisconnect = (error?: unknown): void => {
    if (isProviderRpcError(error) && error.code === RECONNECTING_CODE) return
    this.#clearConnection()
    this.#emit({ type: 'disconnect' })
    this.#syncListeners()
  }
}

async function call(provider: Eip1193Provider, args: RequestArgs): Promise<unknown> {
  try {
    return await provider.request(args)
  } catch (error) {
    throw normalizeWalletError(error)
  }
}

function toAccounts(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : []
}
