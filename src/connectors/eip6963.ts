import { AppError, isAppError } from '../errors'
import { invalidArgument, optionsObject } from '../errors/arguments'
import { walletIdForConnectorId } from '../registry/connector-id'
import type { WalletId } from '../registry/types'
import { Eip1193Connector } from './eip1193'
import {
  DEFAULT_EIP6963_TIMEOUT_MS,
  findEip6963Provider,
  getAnnouncedEip6963Provider,
} from './eip6963-discovery'
import type { Eip1193Provider } from './types'

/** `rdns` when it is a string. @throws AppError `INVALID_CONFIG` otherwise. */
function checkedRdns(rdns: unknown): string {
  if (typeof rdns !== 'string') throw invalidArgument('rdns', 'must be a string')
  return rdns
}

/** Options of `new Eip6963Connector(rdns, options)`. */
export interface Eip6963ConnectorOptions {
  /** How long `connect()` waits for the announcement; default `DEFAULT_EIP6963_TIMEOUT_MS`. */
  timeoutMs?: number
}

/**
 * One EVM browser wallet, chosen by its EIP-6963 reverse-DNS name (`io.metamask`, `app.phantom`),
 * so several installed extensions do not fight over `window.ethereum`. Id: `eip6963:{rdns}`.
 */
export class Eip6963Connector extends Eip1193Connector {
  readonly rdns: string
  readonly #timeoutMs: number

  /**
   * @throws {AppError} `INVALID_CONFIG` when `rdns` is not a string, `options` not an object or
   * `options.timeoutMs` not a non-negative number.
   */
  constructor(rdns: string, options: Eip6963ConnectorOptions = {}) {
    super(`eip6963:${checkedRdns(rdns)}`, () => getAnnouncedEip6963Provider(rdns))
    const { timeoutMs } = optionsObject<Eip6963ConnectorOptions>(options, 'options')
    if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
      throw invalidArgument('options.timeoutMs', 'must be a non-negative number of milliseconds')
    }
    this.rdns = rdns
    this.#timeoutMs = timeoutMs ?? DEFAULT_EIP6963_TIMEOUT_MS
  }

  /**
   * The built-in wallet of this rdns, else the generic id `eip6963:{rdns}` (`resolveWalletInfo`):
   * a wallet the registry does not list is still named in `WalletConnection.walletId`.
   */
  protected override walletIdFor(_provider: Eip1193Provider): WalletId | undefined {
    return walletIdForConnectorId(this.id) ?? this.id
  }

  /**
   * Waits for the wallet's announcement.
   *
   * @throws {AppError} `WALLET_UNAVAILABLE` when the wallet does not announce itself in time (the
   * `TIMEOUT` kept as `cause`: for a connect, a silent wallet is a missing wallet) or during SSR.
   */
  protected override async resolveProvider(): Promise<Eip1193Provider> {
    try {
      return await findEip6963Provider(this.rdns, this.#timeoutMs)
    } catch (error) {
      if (!isAppError(error, 'TIMEOUT')) throw error
      throw new AppError(
        'WALLET_UNAVAILABLE',
        `Wallet ${this.rdns} did not announce itself (EIP-6963) within ${this.#timeoutMs} ms; is it installed?`,
        { cause: error },
      )
    }
  }
}
