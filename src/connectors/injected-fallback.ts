import type { SupportWalletInfo } from '../registry/types'
import { listEip6963Providers } from './eip6963-discovery'
import { InjectedConnector, isEip1193Provider } from './injected'
import { checkWalletInfo } from './wallet-arguments'

/**
 * The connector for `info` when its extension is on `window.ethereum` without announcing itself
 * (EIP-6963), so no announcement is waited for: an `InjectedConnector` for the wallet when
 * `window.ethereum` carries its flag (`injected.providerFlag`, e.g. `isMetaMask`), the wallet did
 * not announce itself, and no other wallet announced that provider (Rabby sets `isMetaMask` too,
 * but announces itself). Undefined otherwise, and during server-side rendering. Installed EIP-6963
 * wallets answer the discovery request synchronously, so the check waits for nothing.
 * @throws AppError `INVALID_CONFIG` when `info` is not a registry wallet.
 */
export function injectedFallbackFor(info: SupportWalletInfo): InjectedConnector | undefined {
  checkWalletInfo(info)
  const injected: unknown = info.injected
  const flag =
    typeof injected === 'object' && injected !== null ? info.injected?.providerFlag : undefined
  if (typeof flag !== 'string' || typeof window === 'undefined') return undefined
  const provider = (window as { ethereum?: unknown }).ethereum
  if (
    !isEip1193Provider(provider) ||
    (provider as unknown as Record<string, unknown>)[flag] !== true
  )
    return undefined
  const announced = listEip6963Providers()
  if (announced.some((detail) => detail.info.rdns === info.rdns || detail.provider === provider))
    return undefined
  return new InjectedConnector(undefined, { walletId: info.id })
}
