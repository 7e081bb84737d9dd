import type { WalletOption } from './wallets'

/** The localStorage key of the wallet last used to connect from the modal. */
export const RECENT_WALLET_KEY = 'scope-connect:recent-wallet'

/** A wallet id as the registry and the discovery prefixes write them (`metamask`, `eip6963:io.x`). */
const WALLET_ID = /^[\w.:@ -]{1,100}$/

/** The id of the wallet last used to connect, or null (none, no storage, or a garbage value). */
export function readRecentWallet(storage: Storage | null = localStore()): string | null {
  try {
    const value = storage?.getItem(RECENT_WALLET_KEY)
    return typeof value === 'string' && WALLET_ID.test(value) ? value : null
  } catch {
    return null
  }
}

/** Remembers the wallet a connection was made with (ignored without storage, or for a bad id). */
export function rememberRecentWallet(
  walletId: string,
  storage: Storage | null = localStore(),
): void {
  if (!WALLET_ID.test(walletId)) return
  try {
    storage?.setItem(RECENT_WALLET_KEY, walletId)
  } catch {
    // storage full or denied: the list simply has no "Recent" row
  }
}

/** The rows with the recent wallet's row first, marked `recent`; the rows unchanged otherwise. */
export function putRecentFirst(
  options: WalletOption[],
  recentId: string | null,
  label: string,
): WalletOption[] {
  if (recentId === null) return options
  const index = options.findIndex(
    (option) => option.action.kind === 'connect' && option.action.walletId === recentId,
  )
  if (index < 0) return options
  const rest = options.filter((_, i) => i !== index)
  return [{ ...options[index], recent: label } as WalletOption, ...rest]
}

function localStore(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}
