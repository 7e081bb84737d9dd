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
 * A built-in network: its CAIP-2 id, namespace, name, native currency, whether it is a testnet and
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
  /** Mobile app entry: a universal link (HTTPS) and the namespaces reachable through it. */
  mobile?: { universalLink: string; namespaces: readonly ChainNamespace[] }
  /** Namespaces for which the wallet pairs over the relay (QR / deep link). */
  relay?: { namespaces: readonly ChainNamespace[] }
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
