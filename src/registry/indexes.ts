import { supportNetworks } from './networks'
import type { NetworkInfo, SupportWalletInfo } from './types'
import { supportWallets } from './wallets'

// Maps, not plain objects: ids such as `__proto__` or `toString` must not hit Object.prototype.

/** Built-in wallets by id. */
export const walletsById: ReadonlyMap<string, SupportWalletInfo> = new Map(
  supportWallets.map((wallet) => [wallet.id, wallet]),
)

/** Built-in wallets by EIP-6963 reverse-DNS name. */
export const walletsByRdns: ReadonlyMap<string, SupportWalletInfo> = new Map(
  supportWallets.flatMap((wallet) => (wallet.rdns === undefined ? [] : [[wallet.rdns, wallet]])),
)

/** Built-in networks by CAIP-2 chain id. */
export const networksByChainId: ReadonlyMap<string, NetworkInfo> = new Map(
  supportNetworks.map((network) => [network.chainId, network]),
)
