import type { PairingStore } from '../../machines/pairing/pairing.persistence'
import { AppError } from '../errors/app-error'
import { SOLANA_MAINNET_CHAIN_ID } from '../registry/chain-ids'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
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
  /**
   * Keeps the settled session across reloads (7 days) for `client.resume()`; default
   * `ClientOptions.pairing.store`. `createBrowserPairingStore()` in a page.
   */
  store?: PairingStore
  /** How long the wallet has to answer; default 300 s. */
  proposalTtlSeconds?: number
}

const DEFAULT_METHODS: Record<ChainNamespace, string[]> = {
  eip155: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
  solana: ['solana_signMessage'],
}

/** The proposal `pair()` sends when the caller names only a namespace (and maybe chains). */
export function defaultRequiredNamespaces(options: ClientPairOptions): CaipNamespaces {
  if (options.requiredNamespaces) return options.requiredNamespaces
  const namespace = options.namespace ?? 'eip155'
  const chains = options.chains ?? [namespace === 'eip155' ? 'eip155:1' : SOLANA_MAINNET_CHAIN_ID]
  return { [namespace]: { chains: [...chains], methods: DEFAULT_METHODS[namespace] } }
}

/** The dApp as `pair()` presents it: `options.metadata`, else the page's title and origin. */
export function pairMetadata(options: ClientPairOptions): PeerMetadata {
  if (options.metadata) return options.metadata
  if (typeof location === 'undefined' || typeof document === 'undefined') {
    throw new AppError('INVALID_CONFIG', 'pair() outside a page needs options.metadata.')
  }
  return { name: document.title || location.host, url: location.origin }
}
