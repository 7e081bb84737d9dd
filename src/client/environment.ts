import type { InspectionEvent } from 'xstate'
import {
  bindClient,
  type ClientEnvironment,
  createLazyLogic,
} from '../../machines/client/client.actors'
import type { ClientActor } from '../../machines/client/client.facade'
import type { LoadConnectorInput, LoadedConnector } from '../../machines/client/client.types'
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
import type { WalletConnectConnectorOptions } from '../connectors/walletconnect'
import { AppError } from '../errors/app-error'
import { SOLANA_MAINNET_CHAIN_ID } from '../registry/chain-ids'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import type { ClientLink } from '../universal-link/lazy/client-link'
import type { ClientPairingPart } from './lazy/pairing'
import type { PhantomLinkHost } from './lazy/phantom-link'
import type { ClientOptions } from './options'

/** A phone, unless `mobile` says otherwise: from the user agent. */
export function isMobile(options: ClientOptions): boolean {
  if (options.mobile !== undefined) return options.mobile
  return (
    typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
  )
}

/** What the loaders ask of the `Client` they serve. */
export interface ClientLoadersHost {
  /** The current root actor. */
  actor(): ClientActor
  /** The connector `selectWallet` returns for a universal-link wallet (it drives the client). */
  linkConnector(walletId: string): IWalletConnector
  /** The universal-link part loaded: persist the root's flow from now on. */
  linkLoaded(): void
  /** What the Phantom-link chunk borrows. */
  phantomHost(): PhantomLinkHost
}

/**
 * The root actor's environment and the loaders behind it: the HTTP readers, the selected connector,
 * and the lazily loaded parts (connect/sign machines, universal link, pairing, transaction,
 * WalletConnect, Phantom links), each a dynamic import on first use.
 */
export class ClientLoaders {
  readonly options: ClientOptions
  /** The deadlines' clock: wall time when made, then monotonic (`performance.now()`). */
  readonly now = monotonicClock()
  readonly secrets = createSecretRegistry()
  /** The selected connector, if any. */
  connector: IWalletConnector | null = null
  /** The universal-link part, once loaded. */
  linkPart: ClientLink | null = null
  /** The pairing part, once loaded. */
  pairingPart: ClientPairingPart | null = null
  /** The built-in Phantom-link connectors, one per wallet (`resume({ url })` hands them answers). */
  readonly phantomLinks = new Map<string, IWalletConnector>()
  readonly #host: ClientLoadersHost
  #config: ConnectConfigClient | null = null
  #balances: BalanceReader | null = null
  /** The universal-link flow's session tokens, made when that flow first loads. */
  #vault: SessionTokenVault | null = null
  readonly #link = createLazyLogic<UniversalLinkMachine>('universalLink')
  readonly #connection = createLazyLogic<ConnectMachine>('connection')
  readonly #signing = createLazyLogic<SignMachine>('sign')
  readonly #pairingLogic = createLazyLogic<PairingMachine>('pairing')
  readonly #transactionLogic = createLazyLogic<TransactionMachine>('transaction')
  #transactionPart: typeof import('./lazy/transaction') | null = null
  /** The WalletConnect connectors of `options.walletConnect`, one per namespace, made on first use. */
  readonly #walletConnects = new Map<ChainNamespace, Promise<IWalletConnector>>()

  constructor(options: ClientOptions, host: ClientLoadersHost) {
    this.options = options
    this.#host = host
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
      loadConnector: (input: LoadConnectorInput) => this.#loadConnector(input),
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
      connection: this.#connection.logic,
      sign: this.#signing.logic,
      universalLink: this.#link.logic,
      pairing: this.#pairingLogic.logic,
      transaction: this.#transactionLogic.logic,
      now: this.now,
    }
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

  /** The custom connector for `input`: by a reconnect's connector id, else by wallet, else the first. */
  #customConnector(
    input: LoadConnectorInput,
    { walletIdForConnectorId }: typeof import('./lazy/route'),
  ): IWalletConnector | undefined {
    const connectors = this.options.connectors ?? []
    if (input.connectorId !== null) return connectors.find((c) => c.id === input.connectorId)
    if (input.walletId === null) return connectors[0]
    return connectors.find(
      (c) => c.id === input.walletId || walletIdForConnectorId(c.id) === input.walletId,
    )
  }

  async #loadConnector(input: LoadConnectorInput): Promise<LoadedConnector> {
    const route = await import('./lazy/route')
    const custom =
      this.phantomLinks.get(input.connectorId ?? '') ?? this.#customConnector(input, route)
    let connector: Promise<IWalletConnector>
    const walletConnect = this.options.walletConnect !== undefined
    if (custom) connector = Promise.resolve(custom)
    else if (walletConnect && input.connectorId === 'walletconnect' && input.namespace !== null) {
      // A remembered WalletConnect session comes back over WalletConnect, extension or not.
      connector = this.#walletConnectConnector(input.namespace)
    } else if (input.walletId === null || input.namespace === null) {
      connector = import('../connectors/injected').then((m) => new m.InjectedConnector())
    } else {
      const { resolveWalletInfo, connectorKindForWallet, loadConnectorForWallet } = route
      const info = resolveWalletInfo(input.walletId)
      const namespace = input.namespace
      const mobile = isMobile(this.options)
      // A wallet whose provider is in the page (its in-app browser on a phone) takes that path.
      const injected = route.isWalletInjected(info, namespace)
      const kind = connectorKindForWallet(info, namespace, mobile, injected, walletConnect)
      if (kind === 'universal-link') {
        await this.loadLink()
        this.connector = this.#host.linkConnector(info.id)
        return {
          kind: 'universal-link',
          connectorId: info.id,
          walletId: info.id,
          chainId: this.options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
          pollIntervalMs: this.options.universalLink?.pollIntervalMs ?? null,
        }
      }
      const { metaMaskSdk, coinbaseSdk, solanaChainId } = this.options
      connector = loadConnectorForWallet(info, namespace, {
        mobile,
        injected,
        eip6963TimeoutMs: input.discoveryMs,
        ...(metaMaskSdk ? { metaMaskSdk } : {}),
        ...(coinbaseSdk ? { coinbaseSdk } : {}),
        ...(solanaChainId ? { solanaChainId } : {}),
        phantomLink: (wallet) => this.phantomLinkConnector(wallet.id),
        ...(walletConnect ? { walletConnect: () => this.#walletConnectConnector(namespace) } : {}),
      })
    }
    // The connect and sign machines load beside the connector (both are dynamic imports).
    const [loaded] = await Promise.all([connector, this.#loadWalletMachines()])
    this.connector = loaded
    return {
      kind: 'wallet',
      connectorId: loaded.id,
      walletId: route.walletIdForConnectorId(loaded.id) ?? input.walletId,
      chainId: null,
    }
  }

  /** The WalletConnect connector for `namespace` (one per namespace, shared by every wallet): in a chunk. */
  #walletConnectConnector(namespace: ChainNamespace): Promise<IWalletConnector> {
    let connector = this.#walletConnects.get(namespace)
    if (!connector) {
      const option = this.options.walletConnect as WalletConnectConnectorOptions
      connector = import('./lazy/walletconnect').then((m) =>
        m.createClientWalletConnect(option, namespace),
      )
      // A malformed option is reported again at the next call, not kept.
      connector.catch(() => this.#walletConnects.delete(namespace))
      this.#walletConnects.set(namespace, connector)
    }
    return connector
  }

  /** Loads the `connect` and `sign` machines once (a dynamic import), bound to the current connector. */
  async #loadWalletMachines(): Promise<void> {
    if (this.#connection.loaded()) return
    const { createWalletMachines } = await import('./lazy/wallet')
    const machines = createWalletMachines({
      connector: () => this.connector,
      onSecret: (value) => this.secrets.add(value),
    })
    this.#connection.set(machines.connection)
    this.#signing.set(machines.sign)
  }

  /** Loads the universal-link part once (a dynamic import): its machine, fingerprint, persistence. */
  async loadLink(): Promise<ClientLink> {
    if (this.linkPart) return this.linkPart
    const [{ createClientLink }, { createMemoryTokenVault }] = await Promise.all([
      import('../universal-link/lazy/connector'),
      import('../../machines/session-polling/session-polling.actors'),
    ])
    this.#vault ??= createMemoryTokenVault()
    const { baseUrl, appKey, fetchImpl, universalLink: link = {} } = this.options
    const part = createClientLink({
      baseUrl,
      appKey,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...link,
      chainId: this.options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
      vault: this.#vault,
      secrets: this.secrets,
      rootMachine: (machine) => bindClient({ ...this.environment(), universalLink: machine }),
      walletOpened: (url) => this.#host.actor().send({ type: 'WALLET_OPENED', url }),
    })
    this.#link.set(part.machine)
    this.linkPart = part
    this.#host.linkLoaded()
    return part
  }

  /** Loads the pairing part once (a dynamic import): its machine, vault, restore check. */
  async loadPairing(): Promise<ClientPairingPart> {
    const { loadClientPairing } = await import('./lazy/pairing')
    if (!this.pairingPart) {
      const { baseUrl, appKey, relayUrl, WebSocket, fetchImpl, pairing } = this.options
      this.pairingPart = loadClientPairing({
        baseUrl,
        appKey,
        ...(relayUrl ? { relayUrl } : {}),
        ...(WebSocket ? { WebSocket } : {}),
        ...(fetchImpl ? { fetchImpl } : {}),
        ...(pairing?.migrations ? { migrations: pairing.migrations } : {}),
        onSecret: (value) => this.secrets.add(value),
        relayConnection: () => this.#host.actor().system.get('relayConnection'),
        rootMachine: (machine) => bindClient({ ...this.environment(), pairing: machine }),
      })
      this.#pairingLogic.set(this.pairingPart.machine)
    }
    return this.pairingPart
  }

  /** Loads the transaction part once (a dynamic import): its machine, record format, checks. */
  async loadTransaction(): Promise<typeof import('./lazy/transaction')> {
    if (this.#transactionPart) return this.#transactionPart
    const part = await import('./lazy/transaction')
    const { baseUrl, appKey, fetchImpl } = this.options
    this.#transactionLogic.set(
      part.createClientTransaction({
        baseUrl,
        appKey,
        ...(fetchImpl ? { fetchImpl } : {}),
        connector: () => this.connector,
        now: this.now,
      }),
    )
    this.#transactionPart = part
    return part
  }

  /** The transaction part if loaded. */
  get transactionPart(): typeof import('./lazy/transaction') | null {
    return this.#transactionPart
  }

  /** The Phantom-link connector of `walletId` (the app's own, else a kept built-in one): in a chunk. */
  async phantomLinkConnector(walletId: string): Promise<IWalletConnector> {
    const { phantomLinkConnector } = await import('./lazy/phantom-link')
    return phantomLinkConnector(this.#host.phantomHost(), walletId)
  }
}
