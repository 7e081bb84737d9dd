import type { ConnectConfig } from '../../config'
import { listEip6963Providers } from '../../connectors/eip6963-discovery'
import type { ChainNamespace } from '../../registry/types'
import { supportWallets } from '../../registry/wallets'

/** What choosing a wallet does: connect through the Client, pair by QR code, or open a page. */
export type WalletAction =
  | { kind: 'connect'; walletId: string; namespace: ChainNamespace }
  | { kind: 'pair' }
  | { kind: 'link'; href: string }

/** One row of the wallet list. */
export interface WalletOption {
  name: string
  /** An image URL safe to put in `<img src>` (a `data:image/` or HTTPS URL), or null. */
  icon: string | null
  /** Announced in this page by EIP-6963: a browser extension is installed. */
  installed: boolean
  action: WalletAction
}

const SAFE_ICON = /^(data:image\/|https:\/\/)/

/**
 * The rows of the modal: the browser wallets that announced themselves (EIP-6963), then the
 * project's wallets (its config) that are not installed — on a phone by their mobile path (a
 * universal link, the MetaMask SDK), on a desktop by QR code when they pair over the relay, else a
 * link to their site — and last a QR code for any other wallet that pairs (desktop only).
 */
export function walletOptions(config: ConnectConfig | null, mobile: boolean): WalletOption[] {
  const options: WalletOption[] = []
  const listed = new Set<string>()
  for (const { info } of listEip6963Providers()) {
    const known = supportWallets.find((wallet) => wallet.rdns === info.rdns)
    if (known) listed.add(known.id)
    options.push({
      name: info.name,
      icon: SAFE_ICON.test(info.icon) ? info.icon : null,
      installed: true,
      action: {
        kind: 'connect',
        walletId: known?.id ?? `eip6963:${info.rdns}`,
        namespace: 'eip155',
      },
    })
  }
  const projectNamespaces = new Set(config?.networks.map((network) => network.namespace))
  for (const entry of config?.wallets ?? []) {
    const info = supportWallets.find((wallet) => wallet.id === entry.walletId)
    if (!info || listed.has(info.id)) continue
    const linked = info.mobile?.namespaces ?? []
    let action: WalletAction = { kind: 'link', href: info.homepage }
    if (mobile && linked.includes('solana') && projectNamespaces.has('solana')) {
      action = { kind: 'connect', walletId: info.id, namespace: 'solana' }
    } else if (mobile && info.id === 'metamask' && projectNamespaces.has('eip155')) {
      action = { kind: 'connect', walletId: info.id, namespace: 'eip155' }
    } else if (!mobile && info.relay) {
      action = { kind: 'pair' }
    }
    options.push({ name: info.name, icon: null, installed: false, action })
  }
  if (!mobile)
    options.push({ name: 'Other wallet', icon: null, installed: false, action: { kind: 'pair' } })
  return options
}
