import type { InspectionEvent } from 'xstate'
import {
  bindClient,
  type ClientEnvironment,
  createLazyLogic,
} from '../../machines/client/client.actors'
import type { LoadConnectorInput } from '../../machines/client/client.types'
import type { ConnectMachine } from '../../machines/connect/connect.machine'
import type { PairingMachine } from '../../machines/pairing/pairing.machine'
import type { SessionTokenVault } from '../../machines/session-polling/session-polling.actors'
import { monotonicClock } from '../../machines/shared/clock'
import { createDeferredInspector } from '../../machines/shared/deferred-inspector'
import { type GuardReport, guarded } from '../../machines/shared/guard'
import { createSecretRegistry } from '../../machines/shared/secret-registry'
import type { SignMachine } from '../../machines/sign/sign.machine'
import type { TransactionMachine } from '../../machines/transaction/transaction.machine'
import type { UniversalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import type { BalanceReader, TokenBalanceQuery } from '../balance'
import type { ConnectConfig, ConnectConfigClient } from '../config'
import type { IWalletConnector } from '../connectors/types'
import { AppError } from '../errors/app-error'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import type { ClientLink } from '../universal-link/lazy/client-link'
import type { RootHost } from './host'
import type { ClientPairingPart } from './lazy/pairing'
import type { ClientOptions } from './options'
import type { ClientFace } from './parts'
import type { ClientResume } from './resume'

/** What the loaders ask of the `Client` they serve. */
export interface ClientLoadersHost {
  /** The root-actor host (its current actor). */
  root(): RootHost
  /** The `Client` (a universal-link wallet's connector drives it). */
  client(): ClientFace
  /** The universal-link part loaded: persist the root's flow from now on. */
  linkLoaded(): void
  /** The resume part (what the Phantom-link chunk borrows goes through it). */
  resume(): ClientResume
}

/**
 * The root actor's environment and the loaders behind it: the HTTP readers, the selected connector,
 * and the lazily loaded parts (connect/sign machines, universal link, pairing, transaction,
 * WalletConnect, Phantom links), each a dynamic import on first use. What a part does once loaded
 * lives in its chunk (src/client/lazy/*), not here: this class is in the `Client` entry.
 */
export class ClientLoaders {
  readonly options: ClientOptions
  /** The deadlines' clock: wall time when made, then monotonic (`performance.now()`). */
  readonly now = monotonicClock()
  readonly secrets = createSecretRegistry()
  /** What the loaders ask of the `Client` they serve. */
  readonly host: ClientLoadersHost
  /** The selected connector, if any. */
  connector: IWalletConnector | null = null
  /** The universal-link part, once loaded. */
  linkPart: ClientLink | null = null
  /** The pairing part, once loaded. */
  pairingPart: ClientPairingPart | null = null
  /** The transaction part, once loaded. */
  transactionPart: typeof import('./lazy/transaction') | null = null
  /** The built-in Phantom-link connectors, one per wallet (`resume({ url })` hands them answers). */
  readonly phantomLinks = new Map<string, IWalletConnector>()
  /** The universal-link flow's session tokens, made when that flow first loads. */
  vault: SessionTokenVault | null = null
  /** The WalletConnect connectors of `options.walletConnect`, one per namespace, made on first use. */
  readonly walletConnects = new Map<ChainNamespace, Promise<IWalletConnector>>()
  // The machines the root invokes, stand-ins until their chunk loads.
  readonly link = createLazyLogic<UniversalLinkMachine>('universalLink')
  readonly connection = createLazyLogic<ConnectMachine>('connection')
  readonly signing = createLazyLogic<SignMachine>('sign')
  readonly pairingLogic = createLazyLogic<PairingMachine>('pairing')
  readonly transactionLogic = createLazyLogic<TransactionMachine>('transaction')
  #config: ConnectConfigClient | null = null
  #balances: BalanceReader | null = null

  constructor(options: ClientOptions, host: ClientLoadersHost) {
    this.options = options
    this.host = host
  }

  /**
   * The inspector every root actor reports to: the app's `inspect` behind redaction by key, and by
   * value of the secrets seen (none registered with `sanitizeInspection: false`). The redaction
   * code loads with the first event (a dynamic import); events wait for it in order.
   */
  inspector(report: GuardReport): ((event: InspectionEvent) => void) | undefined {
    const { inspect, sanitizeInspection } = this.options
    if (inspect === undefined) return undefined
    const secrets =
      sanitizeInspection === false ? { add: () => {}, redact: (v: string) => v } : this.secrets
    const deferred = createDeferredInspector(async () => {
      const { createRedactingInspector } = await import('./lazy/inspector')
      return createRedactingInspector(inspect, secrets)
    })
    return (event) => guarded(report, 'the inspector', () => deferred(event), undefined)
  }

  /** The root chart's environment: its actors' I/O and the lazily loaded machines. */
  environment(): ClientEnvironment {
    return {
      // The registry, the connector kinds and the loader: with the first connector.
      loadConnector: async (input: LoadConnectorInput) =>
        (await import('./lazy/route')).loadConnector(this, input),
      readConfig: () => this.fetchConfig(),
      readBalance: async (query: TokenBalanceQuery) => (await this.#balance()).getBalance(query),
      readBalances: async (queries: readonly TokenBalanceQuery[]) =>
        (await this.#balance()).getBalances(queries),
      switchChain: async (chainId: string) => {
        const connector = this.connector
        if (!connector) throw new AppError('NOT_CONNECTED', 'No wallet connector is selected.')
        const { switchEthereumChain } = await import('../connectors/switch-chain')
        // On 4902 a chain the registry lacks may be the project's own: its config registers it.
        await switchEthereumChain(
          (args) => connector.request(args),
          chainId as Caip2ChainId,
          () => this.fetchConfig(),
        )
      },
      connection: this.connection.logic,
      sign: this.signing.logic,
      universalLink: this.link.logic,
      pairing: this.pairingLogic.logic,
      transaction: this.transactionLogic.logic,
      now: this.now,
    }
  }

  /** A phone, unless `mobile` says otherwise: from the user agent. */
  isMobile(): boolean {
    if (this.options.mobile !== undefined) return this.options.mobile
    return (
      typeof navigator !== 'undefined' &&
      /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
    )
  }

  /** The root machine bound to this environment, with a loaded machine in its stand-in's place. */
  rootMachine(loaded: Partial<ClientEnvironment>) {
    return bindClient({ ...this.environment(), ...loaded })
  }

  /** The project's config (`GET /config`), through the config client made on first use. */
  async fetchConfig(): Promise<ConnectConfig> {
    const { createConnectConfigClient } = await import('./lazy/readers')
    this.#config ??= createConnectConfigClient(this.#httpOptions())
    return this.#config.fetchConfig()
  }

  async #balance(): Promise<BalanceReader> {
    const { createBalanceReader } = await import('./lazy/readers')
    this.#balances ??= createBalanceReader(this.#httpOptions())
    return this.#balances
  }

  #httpOptions() {
    const { baseUrl, appKey, fetchImpl } = this.options
    return { baseUrl, appKey, ...(fetchImpl ? { fetchImpl } : {}) }
  }

  /** Loads the universal-link part once (a dynamic import): its machine, fingerprint, persistence. */
  async loadLink(): Promise<ClientLink> {
    if (this.linkPart) return this.linkPart
    return (await import('./lazy/link')).loadClientLink(this)
  }

  /** Loads the pairing part once (a dynamic import): its machine, vault, restore check. */
  async loadPairing(): Promise<ClientPairingPart> {
    return (await import('./lazy/pairing')).clientPairingPart(this)
  }

  /** Loads the transaction part once (a dynamic import): its machine, record format, checks. */
  async loadTransaction(): Promise<typeof import('./lazy/transaction')> {
    if (this.transactionPart) return this.transactionPart
    const part = await import('./lazy/transaction')
    part.bindTransaction(this)
    this.transactionPart = part
    return part
  }

  /** The Phantom-link connector of `walletId` (the app's own, else a kept built-in one): in a chunk. */
  async phantomLinkConnector(walletId: string): Promise<IWalletConnector> {
    const { phantomLinkConnector, phantomHostOf } = await import('./lazy/phantom-link')
    return phantomLinkConnector(phantomHostOf(this.host.resume()), walletId)
  }
}
