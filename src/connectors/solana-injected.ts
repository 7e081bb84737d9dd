import { base58, base64 } from '@scure/base'
import { AppError } from '../errors'
import { invalidArgument, optionsObject, safeText } from '../errors/arguments'
import { createLogger } from '../logging'
import { getWalletInfo, WALLET_STANDARD_WALLET_PREFIX, walletIdForConnectorId } from '../registry'
import { SOLANA_MAINNET_CHAIN_ID } from '../registry/chain-ids'
import type { Caip2ChainId } from '../registry/types'
import { SOLANA_SIGN_TRANSACTION_METHOD } from '../universal-link/params'
import { normalizeSolanaWalletError } from './solana-errors'
import { findLegacySolanaProvider, legacyProviderHandle } from './solana-legacy'
import type { SolanaWalletHandle } from './solana-wallet-handle'
import type { ConnectorEvent, IWalletConnector, RequestArgs, WalletConnection } from './types'
import {
  findSolanaStandardWallet,
  standardWalletHandle,
  toWalletStandardSolanaChain,
} from './wallet-standard-solana'

const log = /* @__PURE__ */ createLogger('solana-connector')

export { SOLANA_MAINNET_CHAIN_ID }

/** `request` method: sign a UTF-8 message. Params `{ message }`; result `{ signature, publicKey }`. */
export const SOLANA_SIGN_MESSAGE_METHOD = 'solana_signMessage'

/**
 * `request` method: sign a serialized transaction and have the wallet broadcast it. Params
 * `{ transaction: base64 }`; result `{ signature }` (base58, the transaction's id).
 */
export const SOLANA_SIGN_AND_SEND_TRANSACTION_METHOD = 'solana_signAndSendTransaction'

/** Options of `new SolanaInjectedConnector(options)`: the wallet, its Wallet Standard name, the chain. */
export interface SolanaInjectedConnectorOptions {
  /** The name the wallet registers with the Wallet Standard; default from the registry by `walletId`. */
  walletName?: string
  /** Built-in wallet id (`phantom`, `solflare`, …); the connector id is `solana:{walletId}`. */
  walletId?: string
  /** Default Solana mainnet. */
  chainId?: Caip2ChainId
}

/** Result of `solana_signMessage`. */
export interface SolanaSignMessageResult {
  /** Base58 ed25519 signature over the UTF-8 bytes of the message. */
  signature: string
  /** Base58 public key (the account address) that signed. */
  publicKey: string
}

/** Result of `solana_signTransaction`. */
export interface SolanaSignTransactionResult {
  /** Base64 of the serialized transaction with the wallet's signature filled in. */
  signedTransaction: string
}

/** Result of `solana_signAndSendTransaction`. */
export interface SolanaSignAndSendTransactionResult {
  /** Base58 of the transaction's first signature: its id on the cluster. */
  signature: string
}

/**
 * A Solana browser wallet: found through the Wallet Standard registry (`getWallets()`), by name
 * when one is given, or else through the legacy `window` provider (`window.phantom.solana`,
 * `window.solana`, `window[walletId]`). Id: `solana:{walletId}`, or `solana:injected` without one.
 *
 * `request` understands `solana_signMessage` (`{ message: string }`), `solana_signTransaction` and
 * `solana_signAndSendTransaction` (`{ transaction: base64 }`); all sign with the active (first)
 * account.
 */
export class SolanaInjectedConnector implements IWalletConnector {
  readonly id: string
  readonly chainId: Caip2ChainId
  readonly #walletId: string | undefined
  readonly #walletName: string | undefined
  #wallet: SolanaWalletHandle | undefined
  #accounts: string[] = []
  #stopWatching: (() => void) | undefined
  readonly #subscribers = new Set<(event: ConnectorEvent) => void>()

  /**
   * @throws {AppError} `UNSUPPORTED_CHAIN` when `chainId` is not a `solana:` CAIP-2 id;
   * `INVALID_CONFIG` when `options` is not an object or `walletId`/`walletName` not strings.
   */
  constructor(options: SolanaInjectedConnectorOptions = {}) {
    options = optionsObject<SolanaInjectedConnectorOptions>(options, 'options')
    for (const name of ['walletId', 'walletName'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'string') {
        throw invalidArgument(`options.${name}`, 'must be a string')
      }
    }
    const chainId = options.chainId ?? SOLANA_MAINNET_CHAIN_ID
    if (typeof chainId !== 'string' || !/^solana:[-_a-zA-Z0-9]{1,32}$/.test(chainId)) {
      throw new AppError('UNSUPPORTED_CHAIN', `Not a Solana chain id: ${safeText(chainId)}`)
    }
    this.id = `solana:${options.walletId ?? 'injected'}`
    this.chainId = chainId
    this.#walletId = options.walletId
    this.#walletName = options.walletName
  }

  /** True when a matching Wallet Standard wallet is registered or a legacy provider is present. */
  isAvailable(): boolean {
    return this.#find() !== undefined
  }

  /**
   * Asks the wallet to connect (`standard:connect`, or the legacy `connect()`).
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` when no wallet is found; `USER_REJECTED` when the user
   * declines; `WALLET_ERROR` when the wallet fails otherwise or returns no account.
   */
  async connect(): Promise<WalletConnection> {
    const wallet = this.#require()
    const accounts = await this.#ask(wallet, false)
    if (accounts.length === 0) throw new AppError('WALLET_ERROR', 'The wallet returned no account.')
    return this.#establish(wallet, accounts)
  }

  /**
   * Restores the connection without a prompt: `standard:connect` with `{ silent: true }` (the
   * legacy provider's `connect({ onlyIfTrusted: true })`). Resolves `null` when the wallet does not
   * trust this site any more.
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` when no wallet is found; `WALLET_ERROR` when it fails.
   */
  async reconnect(): Promise<WalletConnection | null> {
    const wallet = this.#require()
    const accounts = await this.#ask(wallet, true)
    return accounts.length === 0 ? null : this.#establish(wallet, accounts)
  }

  #require(): SolanaWalletHandle {
    const wallet = this.#find()
    if (wallet) return wallet
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `No Solana wallet found${this.#name() ? ` named ${this.#name()}` : ''}; is it installed?`,
    )
  }

  async #ask(wallet: SolanaWalletHandle, silent: boolean): Promise<string[]> {
    try {
      return await wallet.connect(silent ? { silent } : undefined)
    } catch (error) {
      throw normalizeSolanaWalletError(error)
    }
  }

  #establish(wallet: SolanaWalletHandle, accounts: string[]): WalletConnection {
    this.#stopWatching?.()
    this.#wallet = wallet
    this.#accounts = accounts
    this.#stopWatching = wallet.watch(this.#onAccounts)
    log.debug('connected', { connectorId: this.id, chainId: this.chainId })
    return {
      walletId:
        walletIdForConnectorId(this.id) ??
        (this.#walletId?.startsWith(WALLET_STANDARD_WALLET_PREFIX) ? this.#walletId : undefined),
      connectorId: this.id,
      namespace: 'solana',
      chainId: this.chainId,
      accounts: [...accounts],
    }
  }

  /**
   * Signs with the active account: `solana_signMessage` → `SolanaSignMessageResult`,
   * `solana_signTransaction` → `SolanaSignTransactionResult`, `solana_signAndSendTransaction`
   * (Wallet Standard `solana:signAndSendTransaction`: the wallet broadcasts it) →
   * `SolanaSignAndSendTransactionResult`.
   *
   * @throws {AppError} `NOT_CONNECTED` before `connect()`; `USER_REJECTED` when the user declines;
   * `WALLET_UNAVAILABLE` when the wallet lacks the signing feature; `WALLET_ERROR` for any other
   * wallet failure or an unknown method.
   * @throws {TypeError} when the params are not `{ message: string }` / `{ transaction: string }`.
   */
  async request<T>(args: RequestArgs): Promise<T> {
    const wallet = this.#wallet
    const address = this.#accounts[0]
    if (!wallet || address === undefined) {
      throw new AppError('NOT_CONNECTED', `Connector ${this.id} is not connected; call connect().`)
    }
    const params = (args.params ?? {}) as Record<string, unknown>
    try {
      if (args.method === SOLANA_SIGN_MESSAGE_METHOD) {
        const message = stringParam(args.method, params, 'message')
        const signature = await wallet.signMessage(address, new TextEncoder().encode(message))
        const result: SolanaSignMessageResult = {
          signature: base58.encode(signature),
          publicKey: address,
        }
        return result as T
      }
      if (args.method === SOLANA_SIGN_TRANSACTION_METHOD) {
        const transaction = base64Param(args.method, params, 'transaction')
        const chain = toWalletStandardSolanaChain(this.chainId)
        const signed = await wallet.signTransaction(address, transaction, chain)
        const result: SolanaSignTransactionResult = { signedTransaction: base64.encode(signed) }
        return result as T
      }
      if (args.method === SOLANA_SIGN_AND_SEND_TRANSACTION_METHOD) {
        const transaction = base64Param(args.method, params, 'transaction')
        const chain = toWalletStandardSolanaChain(this.chainId)
        const signature = await wallet.signAndSendTransaction(address, transaction, chain)
        const result: SolanaSignAndSendTransactionResult = { signature: base58.encode(signature) }
        return result as T
      }
    } catch (error) {
      if (error instanceof TypeError) throw error
      throw normalizeSolanaWalletError(error)
    }
    throw new AppError('WALLET_ERROR', `Method ${args.method} is not supported on Solana.`)
  }

  /** Base58 addresses of the connection, the active one first; empty when not connected. */
  getAccounts(): string[] {
    return [...this.#accounts]
  }

  /**
   * Asks the wallet to disconnect (a failure is ignored), then clears the local state, stops
   * watching the wallet and ends every subscription. Never throws.
   */
  async disconnect(): Promise<void> {
    const wallet = this.#wallet
    this.#clearConnection()
    this.#subscribers.clear()
    if (!wallet) return
    try {
      await wallet.disconnect()
    } catch (error) {
      log.debug('wallet disconnect failed; disconnected locally', { error })
    }
  }

  /**
   * Receives `accountsChanged` and `disconnect` while connected (Solana wallets have no chain
   * switch). Returns the unsubscribe function; `disconnect()` ends all subscriptions.
   */
  subscribe(listener: (event: ConnectorEvent) => void): () => void {
    this.#subscribers.add(listener)
    return () => {
      this.#subscribers.delete(listener)
    }
  }

  #name(): string | undefined {
    if (this.#walletName !== undefined || this.#walletId === undefined) return this.#walletName
    try {
      const info = getWalletInfo(this.#walletId)
      return info.injected?.walletStandardName ?? info.name
    } catch {
      // Not a built-in wallet: its id is the best guess at its registered name.
      return this.#walletId
    }
  }

  #find(): SolanaWalletHandle | undefined {
    const standard = findSolanaStandardWallet(this.#name())
    if (standard) return standardWalletHandle(standard)
    const legacy = findLegacySolanaProvider(this.#walletId)
    return legacy && legacyProviderHandle(legacy)
  }

  #clearConnection(): void {
    this.#stopWatching?.()
    this.#stopWatching = undefined
    this.#wallet = undefined
    this.#accounts = []
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

  readonly #onAccounts = (accounts: string[] | null): void => {
    if (accounts === null) {
      this.#clearConnection()
      this.#emit({ type: 'disconnect' })
      return
    }
    this.#accounts = accounts
    this.#emit({ type: 'accountsChanged', accounts: [...accounts] })
  }
}

function stringParam(method: string, params: Record<string, unknown>, name: string): string {
  const value = params[name]
  if (typeof value !== 'string') throw new TypeError(`${method} needs params.${name} as a string.`)
  return value
}

function base64Param(method: string, params: Record<string, unknown>, name: string): Uint8Array {
  try {
    return base64.decode(stringParam(method, params, name))
  } catch {
    throw new TypeError(`${method} needs params.${name} as a base64 string.`)
  }
}
