import { normalizeBaseUrl } from '../http/base-url'
import { createHttpClient, type FetchLike, requireNonEmpty } from '../http/client'
import { registeredNetwork, registerNetworks } from '../registry/custom-networks'
import { networksByChainId } from '../registry/indexes'
import {
  type PartnerWalletInfo,
  type PartnerWalletInput,
  registerPartnerWallets,
} from '../registry/partners'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import { APP_KEY_HEADER, ROUTES } from '../wire/routes'
import { ConfigResponseSchema, type NetworkEntry } from '../wire/schemas'

/** Same fields and meaning as `BalanceReaderOptions`. */
export interface ConnectConfigClientOptions {
  baseUrl: string
  appKey: string
  fetchImpl?: typeof fetch | FetchLike
  /** Per-request timeout; default 10 000 ms. */
  timeoutMs?: number
}

/** One network the project enabled in its console. */
export interface ConnectConfigNetwork {
  /** CAIP-2 id; the key of the entry. */
  networkId: string
  namespace: ChainNamespace
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  testnet: boolean
  /** EVM: public RPC URLs a wallet is given to add the chain (`wallet_addEthereumChain`). */
  rpcUrls?: string[]
  /** The chain's block explorer. */
  explorerUrl?: string
}

/** One wallet the project enabled in its console. */
export interface ConnectConfigWallet {
  /** Wallet slug, e.g. `metamask`; the key of the entry. */
  walletId: string
  name: string
  namespaces: ChainNamespace[]
}

/** The project's configuration from `GET /config`: its enabled networks and wallets. */
export interface ConnectConfig {
  projectId: string
  name: string
  networks: ConnectConfigNetwork[]
  wallets: ConnectConfigWallet[]
  /** Partner wallets the project declares, already registered (`registerPartnerWallets`). */
  partnerWallets?: PartnerWalletInfo[]
}

/** Loads the project configuration (`createConnectConfigClient`). */
export interface ConnectConfigClient {
  /**
   * Loads the project's enabled networks and wallets (GET `/api/v1/connect/config`, `X-App-Key`).
   *
   * One request at a time: calls made while one is in flight share its answer (each gets a copy
   * of its own); the next call after it settled asks again.
   *
   * Rejects with `RPC_ERROR` on a transport failure, a timeout, any non-2xx answer (401 for a bad
   * app key, 429 with `retryAfterMs`, 5xx) or an invalid body; with `INVALID_CONFIG` when a partner
   * wallet of the config is not valid (`registerPartnerWallets`), which then registers none.
   */
  fetchConfig(): Promise<ConnectConfig>
}

/**
 * Creates the configuration client. Throws `INVALID_CONFIG` on the same conditions as
 * `createBalanceReader`: missing or empty `baseUrl` / `appKey`, a non-HTTPS remote URL, no fetch.
 */
export function createConnectConfigClient(
  options: ConnectConfigClientOptions,
): ConnectConfigClient {
  const baseUrl = normalizeBaseUrl(options?.baseUrl)
  const appKey = requireNonEmpty(options.appKey, 'appKey')
  const http = createHttpClient({
    baseUrl,
    fetchImpl: options.fetchImpl as FetchLike | undefined,
    timeoutMs: options.timeoutMs,
    errorCode: 'RPC_ERROR',
  })
  /** The request in flight, shared by the calls made meanwhile. */
  let inFlight: Promise<ConnectConfig> | null = null
  const read = async (): Promise<ConnectConfig> => {
    const body = await http.json(
      {
        method: 'GET',
        path: ROUTES.config,
        headers: { [APP_KEY_HEADER]: appKey },
        what: 'GET /config',
      },
      ConfigResponseSchema,
    )
    return {
      projectId: body.projectId,
      name: body.name,
      networks: body.networks.map((n) => {
        learnNetwork(n)
        return {
          networkId: n.networkId,
          namespace: n.namespace,
          name: n.name,
          nativeCurrency: { ...n.nativeCurrency },
          testnet: n.testnet,
          ...(n.rpcUrls === undefined ? {} : { rpcUrls: [...n.rpcUrls] }),
          ...(n.explorerUrl === undefined ? {} : { explorerUrl: n.explorerUrl }),
        }
      }),
      wallets: body.wallets.map((w) => ({
        walletId: w.walletId,
        name: w.name,
        namespaces: [...w.namespaces],
      })),
      ...(body.partnerWallets === undefined
        ? {}
        : {
            partnerWallets: registerPartnerWallets(body.partnerWallets as PartnerWalletInput[]),
          }),
    }
  }
  return {
    async fetchConfig() {
      inFlight ??= read().finally(() => {
        inFlight = null
      })
      return copyConfig(await inFlight)
    },
  }
}

/**
 * A project's chain that the registry lacks (a custom chain of the projects file) is registered
 * (`registerNetworks`), so lookups, the UI and `switchChain`'s add know it. A known id is left as
 * it is (a built-in one, or the dApp's own `networks`); an entry the registry refuses is skipped.
 */
function learnNetwork(n: NetworkEntry): void {
  if (networksByChainId.has(n.networkId) || registeredNetwork(n.networkId)) return
  try {
    registerNetworks([
      {
        chainId: n.networkId as Caip2ChainId,
        namespace: n.namespace,
        reference: '',
        name: n.name,
        nativeCurrency: n.nativeCurrency,
        testnet: n.testnet,
        ...(n.rpcUrls === undefined ? {} : { rpcUrls: n.rpcUrls }),
        ...(n.explorerUrl === undefined ? {} : { blockExplorerUrl: n.explorerUrl }),
      },
    ])
  } catch {
    // Not a network the library can use; the config still loads.
  }
}

/** A copy the caller may change without changing what another caller got. */
function copyConfig(config: ConnectConfig): ConnectConfig {
  return {
    ...config,
    networks: config.networks.map((n) => ({
      ...n,
      nativeCurrency: { ...n.nativeCurrency },
      ...(n.rpcUrls === undefined ? {} : { rpcUrls: [...n.rpcUrls] }),
    })),
    wallets: config.wallets.map((w) => ({ ...w, namespaces: [...w.namespaces] })),
    ...(config.partnerWallets === undefined ? {} : { partnerWallets: [...config.partnerWallets] }),
  }
}
