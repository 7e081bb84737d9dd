import { AppError, isAppError } from '../errors'
import { invalidArgument, isObjectLike, optionsObject } from '../errors/arguments'
import { createLogger } from '../logging'
import { Eip1193Connector } from './eip1193'
import { isEip1193Provider } from './injected'
import type { Eip1193Provider } from './types'

const log = /* @__PURE__ */ createLogger('metamask-sdk')

/** The optional peer dependency; held in a variable so bundlers leave it out of the library. */
const METAMASK_SDK_MODULE = '@metamask/sdk'

/** What the dApp shows in MetaMask's connection prompt. */
export interface MetaMaskSdkDappMetadata {
  name?: string
  url?: string
  iconUrl?: string
}

/**
 * `dappMetadata` and any other option of `new MetaMaskSDK(...)` (e.g. `infuraAPIKey`), passed
 * through untouched, plus `importSdk`.
 */
export interface MetaMaskSdkOptions {
  /** Defaults to the page's title and origin. */
  dappMetadata?: MetaMaskSdkDappMetadata
  /**
   * Loads `@metamask/sdk`. The default is a runtime `import()` that bundlers do not follow; in a
   * bundled app pass `() => import('@metamask/sdk')` so the bundler includes the SDK.
   */
  importSdk?: () => Promise<unknown>
  [sdkOption: string]: unknown
}

/** Resolves the SDK's EIP-1193 provider, loading and starting the SDK on the first call only. */
export type MetaMaskSdkProviderGetter = () => Promise<Eip1193Provider>

interface MetaMaskSdkInstance {
  init?(): Promise<unknown>
  getProvider(): unknown
}

type MetaMaskSdkConstructor = new (options: Record<string, unknown>) => MetaMaskSdkInstance

/**
 * Builds a getter for MetaMask SDK's provider. On first use it imports `@metamask/sdk`, constructs
 * `new MetaMaskSDK({ dappMetadata, ...options })` once and waits for its `init()`; later calls share
 * that instance. A failed load is not remembered, so a later call tries again.
 *
 * The getter rejects with `AppError` `WALLET_UNAVAILABLE` when `@metamask/sdk` is not installed
 * (or cannot be loaded), when it does not export `MetaMaskSDK`, or when the SDK gives no provider.
 *
 * @throws AppError `INVALID_CONFIG` when `options` is not an object, `importSdk` not a function or
 * `dappMetadata` not an object.
 */
export function createMetaMaskSdkProviderGetter(
  options: MetaMaskSdkOptions = {},
): MetaMaskSdkProviderGetter {
  const checked = optionsObject<MetaMaskSdkOptions>(options, 'options')
  if (checked.importSdk !== undefined && typeof checked.importSdk !== 'function') {
    throw invalidArgument('options.importSdk', 'must be a function')
  }
  if (checked.dappMetadata !== undefined && !isObjectLike(checked.dappMetadata)) {
    throw invalidArgument('options.dappMetadata', 'must be an object')
  }
  const { importSdk = importMetaMaskSdk, dappMetadata, ...sdkOptions } = checked
  let pending: Promise<Eip1193Provider> | undefined
  return () => {
    if (!pending) {
      const attempt = load(importSdk, { ...sdkOptions, dappMetadata: withDefaults(dappMetadata) })
      attempt.catch(() => {
        if (pending === attempt) pending = undefined
      })
      pending = attempt
    }
    return pending
  }
}

/**
 * MetaMask through its SDK: the extension when present, otherwise a deep link into MetaMask Mobile
 * (or a QR code on desktop). `mobile` `selectWallet` creates it for MetaMask. Id: `metamask`.
 * Needs the optional peer `@metamask/sdk`, loaded on the first `connect()`.
 */
export class MetaMaskSdkConnector extends Eip1193Connector {
  readonly #loaded: { provider?: Eip1193Provider; missing?: boolean }
  readonly #getSdkProvider: MetaMaskSdkProviderGetter

  /** @throws {AppError} `INVALID_CONFIG` as `createMetaMaskSdkProviderGetter`. */
  constructor(options: MetaMaskSdkOptions = {}) {
    const loaded: { provider?: Eip1193Provider; missing?: boolean } = {}
    super('metamask', () => loaded.provider)
    this.#loaded = loaded
    this.#getSdkProvider = createMetaMaskSdkProviderGetter(options)
  }

  /**
   * True in a browser until loading the SDK has failed, or once its provider is loaded: whether the
   * optional SDK is installed is only known when `connect()` loads it.
   */
  override isAvailable(): boolean {
    if (this.#loaded.provider) return true
    return typeof window !== 'undefined' && !this.#loaded.missing
  }

  /** @throws {AppError} `WALLET_UNAVAILABLE` when the SDK cannot be loaded or gives no provider. */
  protected override async resolveProvider(): Promise<Eip1193Provider> {
    try {
      this.#loaded.provider = await this.#getSdkProvider()
      return this.#loaded.provider
    } catch (error) {
      this.#loaded.missing = isAppError(error, 'WALLET_UNAVAILABLE')
      throw error
    }
  }
}

async function load(
  importSdk: () => Promise<unknown>,
  options: Record<string, unknown>,
): Promise<Eip1193Provider> {
  let module: unknown
  try {
    module = await importSdk()
  } catch (error) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `MetaMask SDK is not installed; install the optional peer dependency: npm install ${METAMASK_SDK_MODULE}`,
      { cause: error },
    )
  }
  const MetaMaskSDK = findConstructor(module)
  if (!MetaMaskSDK) {
    throw new AppError('WALLET_UNAVAILABLE', `${METAMASK_SDK_MODULE} does not export MetaMaskSDK.`)
  }
  let provider: unknown
  try {
    const sdk = new MetaMaskSDK(options)
    // The provider exists only once init() has settled; init() is idempotent in the SDK.
    await sdk.init?.()
    provider = sdk.getProvider()
  } catch (error) {
    throw new AppError('WALLET_UNAVAILABLE', 'MetaMask SDK failed to start.', { cause: error })
  }
  if (!isEip1193Provider(provider)) {
    throw new AppError('WALLET_UNAVAILABLE', 'MetaMask SDK gave no provider.')
  }
  log.debug('MetaMask SDK loaded')
  return provider
}

function importMetaMaskSdk(): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ METAMASK_SDK_MODULE)
}

/** `MetaMaskSDK` as a named export, or under `default` (CommonJS interop). */
function findConstructor(module: unknown): MetaMaskSdkConstructor | undefined {
  const named = (module as { MetaMaskSDK?: unknown } | null)?.MetaMaskSDK
  const fallback = (module as { default?: { MetaMaskSDK?: unknown } } | null)?.default?.MetaMaskSDK
  const candidate = named ?? fallback
  return typeof candidate === 'function' ? (candidate as MetaMaskSdkConstructor) : undefined
}

function withDefaults(metadata: MetaMaskSdkDappMetadata | undefined): MetaMaskSdkDappMetadata {
  if (typeof window === 'undefined') return { ...metadata }
  const { title } = window.document
  const { hostname, origin } = window.location
  return { name: title || hostname, url: origin, ...metadata }
}
