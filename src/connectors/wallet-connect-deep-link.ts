import { invalidArgument } from '../errors/arguments'
import { walletConnectDeepLink as deepLink } from './wallet-paths'

// The public `walletConnectDeepLink` checks its arguments; the modal's phone view calls the
// unchecked one in wallet-paths.ts with strings it built, so the UI chunks carry no error code.

/**
 * A wallet's WalletConnect deep link for a pairing URI, by WalletConnect's convention: the wallet's
 * registry `walletConnect.link` + `?uri=` + the percent-encoded `wc:` URI (`&uri=` when the link
 * already carries a query). Used by the modal's phone view, one link per wallet.
 * @throws AppError `INVALID_CONFIG` when `link` or `pairingUri` is not a string.
 */
export function walletConnectDeepLink(link: string, pairingUri: string): string {
  if (typeof link !== 'string') throw invalidArgument('link', 'must be a string')
  if (typeof pairingUri !== 'string') throw invalidArgument('pairingUri', 'must be a string')
  return deepLink(link, pairingUri)
}
