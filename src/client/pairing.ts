import type { PairingFlow } from '../../machines/pairing/pairing.facade'
import type { PairingStore } from '../../machines/pairing/pairing.persistence'
import type { InspectionOptions } from '../../machines/shared/inspect'
import type { WalletConnection } from '../connectors/types'
import { AppError } from '../errors/app-error'
import { SOLANA_MAINNET_CHAIN_ID } from '../registry/chain-ids'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import type { WebSocketConstructor } from '../relay/client/websocket'
import type { PeerMetadata } from '../relay/protocol/schemas'
import type { CaipNamespaces } from '../relay/types'

/** Options of `Client.pair()`: what to ask the wallet for and how the dApp presents itself. */
export interface ClientPairOptions {
  /** The chain family to pair; default `eip155`. Ignored when `requiredNamespaces` is given. */
  namespace?: ChainNamespace
  /** Chains to ask for; default Ethereum mainnet (`eip155`) or Solana mainnet (`solana`). */
  chains?: readonly Caip2ChainId[]
  /** The full proposal, for several namespaces or other methods. */
  requiredNamespaces?: CaipNamespaces
  /** The dApp as the wallet shows it; default the page's title and origin (required outside a page). */
  metadata?: PeerMetadata
  /** Keeps the settled session across reloads (7 days); `createBrowserPairingStore()` in a page. */
  store?: PairingStore
  /** How long the wallet has to answer; default 300 s. */
  proposalTtlSeconds?: number
}

/** The relay settings a `Client` passes to each pairing. */
export interface ClientRelaySettings extends InspectionOptions {
  baseUrl: string
  appKey: string
  /** Default the backend's relay route (`relayUrlForBaseUrl(baseUrl)`). */
  relayUrl?: string | undefined
  /** Default `globalThis.WebSocket`; in Node pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructor | undefined
  fetchImpl?: typeof fetch | undefined
}

const DEFAULT_METHODS: Record<ChainNamespace, string[]> = {
  eip155: ['personal_sign', 'eth_signTypedData_v4'],
  solana: ['solana_signMessage'],
}

/** The proposal `pair()` sends when the caller names only a namespace (and maybe chains). */
export function defaultRequiredNamespaces(options: ClientPairOptions): CaipNamespaces {
  if (options.requiredNamespaces) return options.requiredNamespaces
  const namespace = options.namespace ?? 'eip155'
  const chains = options.chains ?? [namespace === 'eip155' ? 'eip155:1' : SOLANA_MAINNET_CHAIN_ID]
  return { [namespace]: { chains: [...chains], methods: DEFAULT_METHODS[namespace] } }
}

function pageMetadata(): PeerMetadata {
  if (typeof location === 'undefined' || typeof document === 'undefined') {
    throw new AppError('INVALID_CONFIG', 'pair() outside a page needs options.metadata.')
  }
  return { name: document.title || location.host, url: location.origin }
}

/**
 * Starts a relay pairing for the `Client`. The pairing statechart and the relay client load here,
 * by dynamic import: apps that never pair do not ship them.
 * @throws {AppError} `INVALID_CONFIG` (no metadata outside a page, a bad relay URL).
 */
export async function startClientPairing(
  settings: ClientRelaySettings,
  options: ClientPairOptions,
): Promise<PairingFlow> {
  const metadata = options.metadata ?? pageMetadata()
  const { startPairing } = await import('../../machines/pairing/pairing.facade')
  const { inspect, sanitizeInspection } = settings
  return startPairing({
    baseUrl: settings.baseUrl,
    appKey: settings.appKey,
    requiredNamespaces: defaultRequiredNamespaces(options),
    metadata,
    ...(settings.relayUrl ? { relayUrl: settings.relayUrl } : {}),
    ...(settings.WebSocket ? { WebSocket: settings.WebSocket } : {}),
    ...(settings.fetchImpl ? { fetchImpl: settings.fetchImpl } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.proposalTtlSeconds === undefined
      ? {}
      : { proposalTtlSeconds: options.proposalTtlSeconds }),
    ...(inspect === undefined ? {} : { inspect }),
    ...(sanitizeInspection === undefined ? {} : { sanitizeInspection }),
  })
}

/** The connection a settled pairing gives: its first namespace's accounts (CAIP-10 → address). */
export function pairedConnection(flow: PairingFlow): WalletConnection | null {
  const session = flow.session
  if (!session) return null
  for (const namespace of ['eip155', 'solana'] as const) {
    const accounts = session.namespaces[namespace]?.accounts ?? []
    const first = accounts[0]
    if (first === undefined) continue
    const chainId = first.split(':').slice(0, 2).join(':') as Caip2ChainId
    return {
      walletId: undefined,
      connectorId: 'relay',
      namespace,
      chainId,
      accounts: accounts
        .filter((account) => account.startsWith(`${chainId}:`))
        .map((account) => account.slice(chainId.length + 1)),
    }
  }
  return null
}
