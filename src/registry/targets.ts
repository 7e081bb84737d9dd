import { allWallets } from './all-wallets'
import {
  walletSupportsMobileOn,
  walletSupportsNamespace,
  walletSupportsRelayOn,
} from './capabilities'
import type { ChainNamespace, ConnectableTarget, SupportWalletInfo } from './types'

/** Wallets with an SDK-provider connector: only MetaMask ships one (`createMetaMaskSdkProviderGetter`). */
const SDK_WALLETS: ReadonlySet<string> = /* @__PURE__ */ new Set(['metamask'])

/**
 * Every way to reach every built-in and partner wallet: one entry per (wallet, namespace, via), ordered by
 * wallet (registry order), then the wallet's namespaces, then via in the order
 * `eip6963`, `injected`, `sdk`, `universal-link`, `relay`. Fresh objects on every call.
 *
 * - `eip6963`: an EVM extension that announces its `rdns`.
 * - `injected`: an EVM extension without an rdns (window provider), or a Solana extension found by
 *   its Wallet Standard name.
 * - `sdk`: the SDK-provider connector, for MetaMask on EVM mobile.
 * - `universal-link`, `relay`: the wallet's mobile and relay namespaces (partner wallets only).
 */
export function listConnectableTargets(): ConnectableTarget[] {
  return allWallets().flatMap((wallet) =>
    wallet.namespaces.flatMap((namespace) => targetsOf(wallet, namespace)),
  )
}

function targetsOf(wallet: SupportWalletInfo, namespace: ChainNamespace): ConnectableTarget[] {
  const vias: ConnectableTarget['via'][] = []
  if (
    wallet.injected?.namespaces.includes(namespace) &&
    walletSupportsNamespace(wallet, namespace)
  ) {
    if (namespace === 'eip155') vias.push(wallet.rdns === undefined ? 'injected' : 'eip6963')
    else if (wallet.injected.walletStandardName !== undefined) vias.push('injected')
  }
  // The vendor SDK is the wallet's own path (no `sc*` link needed): MetaMask's on EVM.
  if (namespace === 'eip155' && SDK_WALLETS.has(wallet.id) && wallet.sdk !== undefined) {
    vias.push('sdk')
  }
  if (walletSupportsMobileOn(wallet, namespace)) vias.push('universal-link')
  if (walletSupportsRelayOn(wallet, namespace)) vias.push('relay')
  return vias.map((via) => ({ walletId: wallet.id, namespace, via }))
}
