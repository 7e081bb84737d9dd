import { supportNetworks } from './networks'
import type { NetworkInfo, SupportWalletInfo } from './types'
import { supportWallets } from './wallets'

// Maps, not plain objects: ids such as `__proto__` or `toString` must not hit Object.prototype.

/** `items` by `key(item)`, skipping items without a key. */
function indexBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T> {
  const index = new Map<string, T>()
  for (const item of items) {
    const value = key(item)
    if (value !== undefined) index.set(value, item)
  }
  return index
}

/** Built-in wallets by id. */
export const walletsById: ReadonlyMap<string, SupportWalletInfo> = /* @__PURE__ */ indexBy(
  supportWallets,
  (wallet) => wallet.id,
)

/** Built-in wallets by EIP-6963 reverse-DNS name. */
export const walletsByRdns: ReadonlyMap<string, SupportWalletInfo> = /* @__PURE__ */ indexBy(
  supportWallets,
  (wallet) => wallet.rdns,
)

/** Built-in networks by CAIP-2 chain id. */
export const networksByChainId: ReadonlyMap<string, NetworkInfo> = /* @__PURE__ */ indexBy(
  supportNetworks,
  (network) => network.chainId,
)
