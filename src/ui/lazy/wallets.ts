import { getWallets } from '@wallet-standard/app'
import type { ConnectConfig } from '../../config'
import { listEip6963Providers } from '../../connectors/eip6963-discovery'
import { isWalletInjected } from '../../connectors/presence'
import {
  isInjectedPath,
  isServedPath,
  type ServedPathOptions,
  type WalletPath,
  walletPaths,
} from '../../connectors/wallet-paths'
import { allWallets } from '../../registry/all-wallets'
import {
  EIP6963_WALLET_PREFIX,
  WALLET_STANDARD_WALLET_PREFIX,
  WALLETCONNECT_WALLET_ID,
} from '../../registry/generic'
import { listPartnerWallets } from '../../registry/partners'
import type { ChainNamespace, SupportWalletInfo } from '../../registry/types'
import { supportWallets } from '../../registry/wallets'
import { M } from './messages/active'

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
  /** Its provider is in this page (an extension, or the wallet's in-app browser). */
  installed: boolean
  action: WalletAction
  /** The path the row takes (`walletPaths`); absent for "Other wallet" and the wallet's site. */
  path?: WalletPath
  /** The wallet last used to connect from this page (`putRecentFirst`): its badge's text. */
  recent?: string
  /** The registry wallet of the row (its icon is looked up by it, lazily), when it is one. */
  walletId?: string
}

const SAFE_ICON = /^(data:image\/|https:\/\/)/

/**
 * The rows of the modal:
 * 1. the wallets in this page, with the name and icon they announce: every EIP-6963 provider, every
 *    Solana Wallet Standard wallet (a wallet the registry does not list by `eip6963:{rdns}` /
 *    `wallet-standard:{name}`), and a project wallet found on `window.ethereum` by its flag (an
 *    in-app browser that does not announce itself);
 * 2. the project's other wallets (its config), each by the first path of `walletPaths` it can
 *    complete here (its SDK, WalletConnect, Phantom's deeplinks, a partner's link or relay), else a
 *    link to its site;
 *    (`walletconnect` only when the client serves it: `served.walletConnect`);
 * 3. with WalletConnect served, "WalletConnect": any WalletConnect wallet, by its QR code (on a
 *    phone, by the wallets' deep links);
 * 4. on a desktop, "Other wallet": the scope-connect QR code, for partner wallets.
 */
export function walletOptions(
  config: ConnectConfig | null,
  mobile: boolean,
  served: ServedPathOptions = {},
): WalletOption[] {
  const options: WalletOption[] = []
  const listed = new Set<string>()
  const projectNamespaces = new Set(config?.networks.map((network) => network.namespace))
  const wants = (namespace: ChainNamespace) => config === null || projectNamespaces.has(namespace)
  if (wants('eip155')) {
    for (const { info } of listEip6963Providers()) {
      const known = supportWallets.find((wallet) => wallet.rdns === info.rdns)
      const walletId = known?.id ?? `${EIP6963_WALLET_PREFIX}${info.rdns}`
      if (listed.has(walletId)) continue
      listed.add(walletId)
      options.push(installedRow(info.name, info.icon, walletId, 'eip155', 'eip6963'))
    }
  }
  if (wants('solana')) {
    for (const wallet of solanaStandardWallets()) {
      const lower = wallet.name.toLowerCase()
      const known = supportWallets.find(
        (entry) => entry.injected?.walletStandardName?.toLowerCase() === lower,
      )
      const walletId = known?.id ?? `${WALLET_STANDARD_WALLET_PREFIX}${wallet.name}`
      if (listed.has(walletId)) continue
      listed.add(walletId)
      options.push(installedRow(wallet.name, wallet.icon, walletId, 'solana', 'wallet-standard'))
    }
  }
  const partners = listPartnerWallets().map((partner) => ({ walletId: partner.id }))
  for (const entry of [...(config?.wallets ?? []), ...partners]) {
    const info = allWallets().find((wallet) => wallet.id === entry.walletId)
    if (!info || listed.has(info.id)) continue
    const namespaces = info.namespaces.filter(wants)
    const present = namespaces.find((namespace) => isWalletInjected(info, namespace))
    if (present) {
      options.push({
        name: info.name,
        walletId: info.id,
        icon: null,
        installed: true,
        action: { kind: 'connect', walletId: info.id, namespace: present },
        path: present === 'eip155' ? 'injected' : 'wallet-standard',
      })
      continue
    }
    options.push(notInstalledRow(info, namespaces, mobile, served))
  }
  const wcNamespace = (['eip155', 'solana'] as const).find(wants)
  if (served.walletConnect && wcNamespace) {
    options.push({
      name: 'WalletConnect',
      icon: null,
      installed: false,
      action: { kind: 'connect', walletId: WALLETCONNECT_WALLET_ID, namespace: wcNamespace },
      path: 'walletconnect',
    })
  }
  if (!mobile)
    options.push({ name: M.otherWallet, icon: null, installed: false, action: { kind: 'pair' } })
  return options
}

function installedRow(
  name: string,
  icon: string,
  walletId: string,
  namespace: ChainNamespace,
  path: WalletPath,
): WalletOption {
  return {
    name,
    icon: SAFE_ICON.test(icon) ? icon : null,
    installed: true,
    action: { kind: 'connect', walletId, namespace },
    path,
  }
}

/** A project wallet not in the page: the first path it can complete here, else its site. */
function notInstalledRow(
  info: SupportWalletInfo,
  namespaces: readonly ChainNamespace[],
  mobile: boolean,
  served: ServedPathOptions,
): WalletOption {
  for (const namespace of namespaces) {
    const path = walletPaths(info, namespace, mobile ? 'phone' : 'desktop').find(
      (candidate) =>
        !isInjectedPath(candidate) && (isServedPath(candidate, served) || candidate === 'relay'),
    )
    if (path === 'relay')
      return {
        name: info.name,
        walletId: info.id,
        icon: null,
        installed: false,
        action: { kind: 'pair' },
        path,
      }
    if (path) {
      return {
        name: info.name,
        walletId: info.id,
        icon: null,
        installed: false,
        action: { kind: 'connect', walletId: info.id, namespace },
        path,
      }
    }
  }
  return {
    name: info.name,
    walletId: info.id,
    icon: null,
    installed: false,
    action: { kind: 'link', href: info.homepage },
  }
}

/** The Solana wallets registered with the Wallet Standard in this page (none during SSR). */
function solanaStandardWallets(): { name: string; icon: string }[] {
  if (typeof window === 'undefined') return []
  return getWallets()
    .get()
    .filter(
      (wallet) =>
        'standard:connect' in wallet.features &&
        wallet.chains.some((chain) => chain.startsWith('solana:')),
    )
    .map((wallet) => ({ name: wallet.name, icon: wallet.icon }))
}
