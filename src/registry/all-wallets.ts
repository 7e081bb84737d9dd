import { listPartnerWallets } from './partners'
import type { SupportWalletInfo } from './types'
import { supportWallets } from './wallets'

/** Built-in wallets, then partner wallets (internal). */
export function allWallets(): readonly SupportWalletInfo[] {
  const partners = listPartnerWallets()
  return partners.length === 0 ? supportWallets : [...supportWallets, ...partners]
}
