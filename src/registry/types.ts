/** Chain families the library connects to. */
export type ChainNamespace = 'eip155' | 'solana'

/** CAIP-2 chain id, `namespace:reference`. */
export type Caip2ChainId = `${string}:${string}`

/** A built-in wallet's slug, e.g. `metamask`, `phantom`. */
export type WalletId = string

/** A network's native currency: name, symbol and decimals. */
export interface NativeCurrency {
  name: string
  symbol: string
  decimals: number
}

/**
 * A network of the registry (built in, or registered: `registerNetworks`, `defineNetwork`): its CAIP-2 id, namespace, name, native currency, whether it is a testnet and
 * its block explorer.
 */
export interface NetworkInfo {
  chainId: Caip2ChainId
  namespace: ChainNamespace
  /** The CAIP-2 reference: the EVM chain id in decimal, or the Solana genesis-hash prefix. */
  reference: string
  name: string
  nativeCurrency: NativeCurrency
  testnet: boolean
  blockExplorerUrl?: string
  /**
   * Public JSON-RPC endpoints (EVM), what `wallet_addEthereumChain` gives a wallet that does not know
   * the chain (`Client.switchChain`). Not what the backend reads from: its RPC stays server-side.
   */
  rpcUrls?: readonly string[]
  /** EVM: Multicall3's address when a definition gives one (informational: the backend reads with its projects file's). */
  multicall3?: string
}

/**
 * A built-in wallet: its id, name, homepage, namespaces and chains, and how it is reached (EIP-6963
 * rdns, injected, mobile universal link, relay).
 */
export interface SupportWalletInfo {
  id: WalletId
  name: string
  homepage: string
  namespaces: readonly ChainNamespace[]
  /** Chains the wallet supports; absent means every built-in network of its namespaces. */
  chains?: readonly Caip2ChainId[]
  /** EIP-6963 reverse-DNS name, for EVM browser wallets that announce themselves. */
  rdns?: string
  /**
   * A partner wallet's app entry for the scope-connect universal links (`sc*` parameters, backend
   * callbacks): only for wallets that integrate `scope-connect/wallet`.
   */
  mobile?: { universalLink: string; namespaces: readonly ChainNamespace[] }
  /** Namespaces for which a partner wallet pairs over the scope-connect relay (`scr`, QR / deep link). */
  relay?: { namespaces: readonly ChainNamespace[] }
  /**
   * WalletConnect v2: the wallet's own link that opens it with a pairing URI (`{link}?uri={wc:…}`),
   * and the namespaces it serves over WalletConnect. `link` is empty for a wallet that documents no
   * such link (it pairs by scanning the QR code); each built-in link's source is in docs/connectors.md.
   */
  walletConnect?: { link: string; namespaces: readonly ChainNamespace[] }
  /**
   * Phantom's deeplink protocol v1 (Phantom; Solflare serves it too): the base of its method links,
   * `{baseUrl}{method}`, e.g. `https://phantom.app/ul/v1/`.
   */
  phantomLink?: { baseUrl: string }
  /** A vendor SDK that connects the wallet where no extension is present (a lazy optional peer). */
  sdk?: 'metamask' | 'coinbase'
  /**
   * Browser-extension presence: EIP-6963 / window provider for EVM, Wallet Standard name for Solana;
   * `providerFlag`: the `true` flag its `window.ethereum` carries (`isMetaMask`), by which an EVM
   * extension that does not announce itself (EIP-6963) is still found.
   */
  injected?: {
    namespaces: readonly ChainNamespace[]
    walletStandardName?: string
    providerFlag?: string
  }
}

/** How one wallet can be reached on one namespace. */
export interface ConnectableTarget {
  walletId: WalletId
  namespace: ChainNamespace
  via: 'eip6963' | 'injected' | 'sdk' | 'universal-link' | 'relay'
}

/** Filters of `listSupportedWallets`; they combine with AND. */
export interface ListWalletsOptions {
  namespace?: ChainNamespace
  chainId?: Caip2ChainId
  mobile?: boolean
  relay?: boolean
}
