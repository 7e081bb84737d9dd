import { AppError, isAppError } from '../errors'
import { createLogger } from '../logging'
import { Eip1193Connector } from './eip1193'
import { isEip1193Provider } from './injected'
import type { Eip1193Provider } from './types'

const log = /* @__PURE__ */ createLogger('coinbase-sdk')

/** The optional peer dependency; held in a variable so bundlers leave it out of the library. */
const COINBASE_SDK_MODULE = '@coinbase/wallet-sdk'

/**
 * Options of `createCoinbaseWalletSDK(...)` (`appName`, `appLogoUrl`, `appChainIds`, `preference`),
 * passed through untouched, plus `importSdk`.
 */
export interface CoinbaseSdkOptions {
  /** Defaults to the page's title, else its host name. */
  appName?: string
  appLogoUrl?: string | null
  /** EVM chain ids (numbers) the app uses. */
  appChainIds?: readonly number[]
  /** The SDK's `preference`, e.g. `{ options: 'all' }` (the default) or `{ options: 'smartWalletOnly' }`. */
  preference?: Record<string, unknown>
  /**
   * Loads `@coinbase/wallet-sdk`. The default is a runtime `import()` that bundlers do not follow; in
   * a bundled app pass `() => import('@coinbase/wallet-sdk')` so the bundler includes the SDK.
   */
  importSdk?: () => Promise<unknown>
  [sdkOption: string]: unknown
}

type CreateSdk = (options: Record<string, unknown>) => { getProvider(): unknown }

/**
 * Coinbase Wallet through its SDK 4 (`createCoinbaseWalletSDK(...).getProvider()`), where no
 * Coinbase Wallet extension is in the page: a popup to Coinbase's keys site on a desktop, the
 * Coinbase Wallet app on a phone. `selectWallet('coinbase')` creates it then. Id: `coinbase-sdk`.
 * Needs the optional peer `@coinbase/wallet-sdk`, loaded on the first `connect()`; a failed load is
 * not remembered, so a later `connect()` tries again.
 */
export class CoinbaseSdkConnector extends Eip1193Connector {
  readonly #loaded: { provider?: Eip1193Provider; missing?: boolean }
  readonly #options: CoinbaseSdkOptions
  #pending: Promise<Eip1193Provider> | undefined

  constructor(options: CoinbaseSdkOptions = {}) {
    const loaded: { provider?: Eip1193Provider; missing?: boolean } = {}
    super('coinbase-sdk', () => loaded.provider)
    this.#loaded = loaded
    this.#options = options
  }

  /** True in a browser until loading the SDK has failed, or once its provider is loaded. */
  override isAvailable(): boolean {
    if (this.#loaded.provider) return true
    return typeof window !== 'undefined' && !this.#loaded.missing
  }

  /**
   * @throws {AppError} `WALLET_UNAVAILABLE` when `@coinbase/wallet-sdk` is not installed (the
   * message says how to install it), exports no `createCoinbaseWalletSDK`, or gives no provider.
   */
  protected override async resolveProvider(): Promise<Eip1193Provider> {
    if (this.#loaded.provider) return this.#loaded.provider
    if (!this.#pending) {
      const attempt = loadProvider(this.#options)
      attempt.catch(() => {
        if (this.#pending === attempt) this.#pending = undefined
      })
      this.#pending = attempt
    }
    try {
      this.#loaded.provider = await this.#pending
      return this.#loaded.provider
    } catch (error) {
      this.#loaded.missing = isAppError(error, 'WALLET_UNAVAILABLE')
      throw error
    }
  }
}

async function loadProvider(options: CoinbaseSdkOptions): Promise<Eip1193Provider> {
  const { importSdk = importCoinbaseSdk, appName, ...sdkOptions } = options
  let module: unknown
  try {
    module = await importSdk()
  } catch (error) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `Coinbase Wallet SDK is not installed; install the optional peer dependency: npm install ${COINBASE_SDK_MODULE}`,
      { cause: error },
    )
  }
  const create = findFactory(module)
  if (!create) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `${COINBASE_SDK_MODULE} does not export createCoinbaseWalletSDK (version 4 or later is needed).`,
    )
  }
  let provider: unknown
  try {
    provider = create({ ...sdkOptions, appName: appName ?? defaultAppName() }).getProvider()
  } catch (error) {
    throw new AppError('WALLET_UNAVAILABLE', 'Coinbase Wallet SDK failed to start.', {
      cause: error,
    })
  }
  if (!isEip1193Provider(provider)) {
    throw new AppError('WALLET_UNAVAILABLE', 'Coinbase Wallet SDK gave no provider.')
  }
  log.debug('Coinbase Wallet SDK loaded')
  return provider
}

function importCoinbaseSdk(): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ COINBASE_SDK_MODULE)
}

/** `createCoinbaseWalletSDK` as a named export, or under `default` (CommonJS interop). */
function findFactory(module: unknown): CreateSdk | undefined {
  const named = (module as { createCoinbaseWalletSDK?: unknown } | null)?.createCoinbaseWalletSDK
  const fallback = (module as { default?: { createCoinbaseWalletSDK?: unknown } } | null)?.default
    ?.createCoinbaseWalletSDK
  const candidate = named ?? fallback
  return typeof candidate === 'function' ? (candidate as CreateSdk) : undefined
}

function defaultAppName(): string {
  if (typeof window === 'undefined') return 'dApp'
  return window.document?.title || window.location?.hostname || 'dApp'
}
