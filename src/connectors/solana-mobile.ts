import { AppError } from '../errors'

/** The optional peer dependency; held in a variable so bundlers leave it out of the library. */
const MWA_MODULE = '@solana-mobile/wallet-standard-mobile'

/** The name Solana Mobile Wallet Adapter registers with the Wallet Standard. */
export const SOLANA_MOBILE_WALLET_NAME = 'Mobile Wallet Adapter'

/** Options of `registerSolanaMobileWalletAdapter`. */
export interface SolanaMobileWalletAdapterOptions {
  /** What the wallet shows: the app's name, URL and icon (relative to the URL). */
  appIdentity?: { name?: string; uri?: string; icon?: string }
  /** Wallet Standard chains, e.g. `['solana:mainnet']` (the default) or `['solana:devnet']`. */
  chains?: readonly `${string}:${string}`[]
  /**
   * Loads `@solana-mobile/wallet-standard-mobile`. The default is a runtime `import()` bundlers do
   * not follow; in a bundled app pass `() => import('@solana-mobile/wallet-standard-mobile')`.
   */
  importMwa?: () => Promise<unknown>
  /** Register whatever the user agent; default only on Android, where MWA wallets live. */
  force?: boolean
}

interface MwaModule {
  registerMwa(config: Record<string, unknown>): void
  createDefaultAuthorizationCache(): unknown
  createDefaultChainSelector(): unknown
  createDefaultWalletNotFoundHandler(): unknown
}

/** What the package's published API gives (wallet-standard-mobile 0.x) and this module calls. */
const MWA_EXPORTS = [
  'registerMwa',
  'createDefaultAuthorizationCache',
  'createDefaultChainSelector',
  'createDefaultWalletNotFoundHandler',
] as const satisfies readonly (keyof MwaModule)[]

/**
 * Registers Solana Mobile Wallet Adapter (`@solana-mobile/wallet-standard-mobile`, a lazy optional
 * peer) with the Wallet Standard on Android, so MWA wallets appear on the Wallet Standard path: in
 * the connect modal, and as `selectWallet('wallet-standard:Mobile Wallet Adapter', { namespace:
 * 'solana' })`. Resolves true once registered, false off Android (unless `force`) or during SSR.
 * @throws {AppError} `WALLET_UNAVAILABLE` when the package is not installed (the message says how
 * to install it) or does not export `registerMwa` and its three `createDefault…` helpers.
 */
export async function registerSolanaMobileWalletAdapter(
  options: SolanaMobileWalletAdapterOptions = {},
): Promise<boolean> {
  if (typeof window === 'undefined') return false
  if (!options.force && !/Android/i.test(globalThis.navigator?.userAgent ?? '')) return false
  let module: unknown
  try {
    module = await (options.importMwa ?? importMwa)()
  } catch (error) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      `Solana Mobile Wallet Adapter is not installed; install the optional peer dependency: npm install ${MWA_MODULE}`,
      { cause: error },
    )
  }
  const loaded = module as Partial<MwaModule> | null
  const missing = MWA_EXPORTS.find((name) => typeof loaded?.[name] !== 'function')
  if (missing) {
    throw new AppError('WALLET_UNAVAILABLE', `${MWA_MODULE} does not export ${missing}.`)
  }
  const mwa = loaded as MwaModule
  const { location, document } = window
  mwa.registerMwa({
    appIdentity: {
      name: options.appIdentity?.name ?? (document?.title || location?.hostname),
      uri: options.appIdentity?.uri ?? location?.origin,
      ...(options.appIdentity?.icon ? { icon: options.appIdentity.icon } : {}),
    },
    authorizationCache: mwa.createDefaultAuthorizationCache(),
    chains: [...(options.chains ?? ['solana:mainnet'])],
    chainSelector: mwa.createDefaultChainSelector(),
    onWalletNotFound: mwa.createDefaultWalletNotFoundHandler(),
  })
  return true
}

function importMwa(): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ MWA_MODULE)
}
