import type { ChainNamespace, SupportWalletInfo } from './types'

// These read only the `info` they are given (a built-in entry or one of the caller's own), so they
// work on partial objects too and never throw on a missing section.

/** The namespaces of a wallet, as a fresh array in the wallet's own order. */
export function getWalletNamespaces(info: SupportWalletInfo): ChainNamespace[] {
  return [...(info?.namespaces ?? [])]
}

/** True when the wallet supports the namespace at all (by any connection path). */
export function walletSupportsNamespace(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
): boolean {
  return info?.namespaces?.includes(namespace) ?? false
}

/** True when the wallet has a mobile app reachable by an HTTPS universal link. */
export function walletSupportsMobile(info: SupportWalletInfo): boolean {
  const mobile = info?.mobile
  return typeof mobile?.universalLink === 'string' && (mobile.namespaces?.length ?? 0) > 0
}

/** True when the wallet's universal link reaches it on this namespace. */
export function walletSupportsMobileOn(
  info: SupportWalletInfo,
  namespace: ChainNamespace,
): boolean {
  return (
    walletSupportsMobile(info) &&
    info.mobile!.namespaces.includes(namespace) &&
    walletSupportsNamespace(info, namespace)
  )
}

/** True when the wallet pairs over the relay (QR code or deep link) on some namespace. */
export function walletSupportsRelay(info: SupportWalletInfo): boolean {
  return (info?.relay?.namespaces?.length ?? 0) > 0
}

/** True when the wallet pairs over the relay on this namespace. */
export function walletSupportsRelayOn(info: SupportWalletInfo, namespace: ChainNamespace): boolean {
  return (
    walletSupportsRelay(info) &&
    info.relay!.namespaces.includes(namespace) &&
    walletSupportsNamespace(info, namespace)
  )
}
