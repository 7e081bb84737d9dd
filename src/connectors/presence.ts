import type { ChainNamespace, SupportWalletInfo } from '../registry/types'
import { listEip6963Providers } from './eip6963-discovery'
import { findLegacySolanaProvider } from './solana-legacy'
import { solanaStandardWallet } from './wallet-standard-solana'

/**
 * True when the wallet's own provider is in this page for `namespace`: an EIP-6963 announcement of
 * its rdns, its flag on a `window.ethereum` no wallet announced (`injectedFallbackFor`), a Wallet
 * Standard wallet under its name, or its legacy `window.{id}.solana`. This is what makes a phone
 * page a wallet's in-app browser. Reads the page as it is now (announcements already made and the
 * answers to a fresh `eip6963:requestProvider`, which installed wallets give synchronously);
 * false during server-side rendering.
 */
export function isWalletInjected(info: SupportWalletInfo, namespace: ChainNamespace): boolean {
  if (typeof window === 'undefined') return false
  if (namespace === 'eip155') {
    const announced = listEip6963Providers()
    if (info.rdns && announced.some((detail) => detail.info.rdns === info.rdns)) return true
    // The rule of `injectedFallbackFor`, without loading a connector: the wallet's flag on a
    // `window.ethereum` that no wallet announced.
    const flag = info.injected?.providerFlag
    const provider = (window as { ethereum?: Record<string, unknown> }).ethereum
    return (
      flag !== undefined &&
      typeof provider?.request === 'function' &&
      provider[flag] === true &&
      !announced.some((detail) => (detail.provider as unknown) === provider)
    )
  }
  const name = info.injected?.walletStandardName
  if (typeof name === 'string' && solanaStandardWallet(name) !== undefined) return true
  return info.injected?.namespaces.includes('solana') === true && hasLegacy(info.id)
}

function hasLegacy(walletId: string): boolean {
  return findLegacySolanaProvider(walletId) !== undefined
}
