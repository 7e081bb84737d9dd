import { walletNotFound } from './errors'
import { walletsById, walletsByRdns } from './indexes'
import { partnerById } from './partners'
import type { SupportWalletInfo, WalletId } from './types'
import { supportWallets } from './wallets'

/** Id prefix of a wallet known by its EIP-6963 announcement: `eip6963:{rdns}`. */
export const EIP6963_WALLET_PREFIX = 'eip6963:'
/** Id prefix of a Solana wallet known by its Wallet Standard registration: `wallet-standard:{name}`. */
export const WALLET_STANDARD_WALLET_PREFIX = 'wallet-standard:'

/**
 * Id of the generic WalletConnect wallet: any wallet that speaks WalletConnect v2, paired by its QR
 * code (`selectWallet('walletconnect')`, once the `Client` has its `walletConnect` option).
 */
export const WALLETCONNECT_WALLET_ID = 'walletconnect'

/** Frozen on first use (a top-level call would stay in every bundle that imports this module). */
let walletConnectWallet: SupportWalletInfo | undefined
function genericWalletConnectWallet(): SupportWalletInfo {
  walletConnectWallet ??= Object.freeze({
    id: WALLETCONNECT_WALLET_ID,
    name: 'WalletConnect',
    homepage: 'https://walletconnect.network',
    namespaces: Object.freeze(['eip155', 'solana'] as const),
    // No link of its own: the wallet scans the QR code (the modal offers no phone deep link for it).
    walletConnect: Object.freeze({
      link: '',
      namespaces: Object.freeze(['eip155', 'solana'] as const),
    }),
  })
  return walletConnectWallet
}

const MAX_NAME = 200

/**
 * The entry a wallet id stands for: a built-in or partner wallet by its slug (`metamask`); `eip6963:{rdns}`, the
 * wallet that announces that rdns (EIP-6963); `wallet-standard:{name}`, the Solana wallet registered
 * under that name (Wallet Standard). A built-in wallet keeps its entry whichever form names it (its
 * WalletConnect link, SDK, …); any other announced wallet gets a generic entry that connects only
 * through its injected provider: `{ id, name, namespaces: ['eip155'], rdns, injected }` or
 * `{ id, name, namespaces: ['solana'], injected: { walletStandardName } }`. `walletconnect` is the
 * generic WalletConnect wallet (any WalletConnect v2 wallet, by QR code). Frozen.
 * @throws AppError `WALLET_NOT_FOUND` for any other value (an empty rdns or name too).
 */
export function resolveWalletInfo(walletId: WalletId): SupportWalletInfo {
  if (typeof walletId !== 'string') throw walletNotFound(walletId)
  const known = walletsById.get(walletId) ?? partnerById(walletId)
  if (known) return known
  if (walletId === WALLETCONNECT_WALLET_ID) return genericWalletConnectWallet()
  const rdns = after(walletId, EIP6963_WALLET_PREFIX)
  if (rdns !== undefined) {
    return (
      walletsByRdns.get(rdns) ??
      Object.freeze({
        id: walletId,
        name: rdns,
        homepage: '',
        namespaces: Object.freeze(['eip155'] as const),
        rdns,
        injected: Object.freeze({ namespaces: Object.freeze(['eip155'] as const) }),
      })
    )
  }
  const name = after(walletId, WALLET_STANDARD_WALLET_PREFIX)
  if (name !== undefined) {
    const lower = name.toLowerCase()
    return (
      supportWallets.find(
        (wallet) =>
          wallet.injected?.namespaces.includes('solana') &&
          wallet.injected.walletStandardName?.toLowerCase() === lower,
      ) ??
      Object.freeze({
        id: walletId,
        name,
        homepage: '',
        namespaces: Object.freeze(['solana'] as const),
        injected: Object.freeze({
          namespaces: Object.freeze(['solana'] as const),
          walletStandardName: name,
        }),
      })
    )
  }
  throw walletNotFound(walletId)
}

/** The rest of `id` after `prefix`, when non-blank and bounded. */
function after(id: string, prefix: string): string | undefined {
  if (!id.startsWith(prefix)) return undefined
  const rest = id.slice(prefix.length)
  return rest.trim() === '' || rest.length > MAX_NAME ? undefined : rest
}
