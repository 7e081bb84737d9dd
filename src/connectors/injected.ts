import { AppError } from '../errors/app-error'
import { walletIdForConnectorId } from '../registry'
import type { WalletId } from '../registry/types'
import { Eip1193Connector } from './eip1193'
import { listEip6963Providers } from './eip6963-discovery'
import type { Eip1193Provider } from './types'

/** Options of `new InjectedConnector(provider, options)`. */
export interface InjectedConnectorOptions {
  /** The wallet this provider belongs to, when the caller knows (`createConnectorForWallet`). */
  walletId?: WalletId
}

/**
 * The default desktop connector: the EIP-1193 provider the browser extension put on
 * `window.ethereum`, or the provider you pass. `window` is read at use, never at construction, so
 * the connector can be created during server-side rendering.
 *
 * Its connection's `walletId`: `options.walletId` when given; else the wallet whose EIP-6963
 * announcement carries this very provider object (`window.ethereum` is usually the same object
 * the extension announces), by `walletIdForConnectorId('eip6963:{rdns}')`; else `undefined`, the
 * rule for the id `injected` (provider flags such as `isMetaMask` are not trusted: other wallets
 * set them too).
 */
export class InjectedConnector extends Eip1193Connector {
  readonly #walletId: WalletId | undefined

  /**
   * @throws {AppError} `INVALID_CONFIG` when `provider` is given and has no `request()`, `options`
   * is not an object or `options.walletId` not a string.
   */
  constructor(provider?: Eip1193Provider, options: InjectedConnectorOptions = {}) {
    super('injected', () => provider ?? getWindowEthereum())
    // Checked here without the shared argument helpers: this module is in the modal's chunk.
    const invalid = (field: string) =>
      new AppError('INVALID_CONFIG', `Invalid argument: ${field}.`, {
        details: [{ field, reason: 'is not of the documented type' }],
      })
    if (provider !== undefined && provider !== null && !isEip1193Provider(provider)) {
      throw invalid('provider')
    }
    if (typeof options !== 'object' || options === null) throw invalid('options')
    if (options.walletId !== undefined && typeof options.walletId !== 'string') {
      throw invalid('options.walletId')
    }
    this.#walletId = options.walletId
  }

  protected override walletIdFor(provider: Eip1193Provider): WalletId | undefined {
    if (this.#walletId !== undefined) return this.#walletId
    const announced = listEip6963Providers().find((detail) => detail.provider === provider)
    return announced ? walletIdForConnectorId(`eip6963:${announced.info.rdns}`) : undefined
  }
}

function getWindowEthereum(): Eip1193Provider | undefined {
  if (typeof window === 'undefined') return undefined
  const candidate = (window as { ethereum?: unknown }).ethereum
  return isEip1193Provider(candidate) ? candidate : undefined
}

/** True for an object with a `request` function, the one member EIP-1193 requires. */
export function isEip1193Provider(value: unknown): value is Eip1193Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function'
  )
}
