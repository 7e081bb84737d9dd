import type { PairingStore } from '../../machines/pairing/pairing.persistence'
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
