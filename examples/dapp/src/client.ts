import { createBrowserUniversalLinkStore } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { createBrowserPairingStore } from 'scope-connect/machines'
import type { DappConfig } from './config'

/** Solana devnet, enabled in the sample project: the chain of the universal-link flow. */
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
/** The page's own storage key, apart from the library's default that the store test uses. */
const LINK_STORE_KEY = 'scope-connect-example:universal-link'

/**
 * The page's one Client: desktop or mobile (`?mobile=1`, or a phone's user agent), pairing and
 * universal-link flows that survive a reload. No connector per wallet: a browser wallet the
 * registry does not know (the wallet simulator's test wallet) is selected as `eip6963:{rdns}`, and
 * a phone page inside a wallet (its in-app browser) connects through the wallet's own provider.
 */
export async function createClient(config: DappConfig): Promise<Client> {
  const { walletUrl } = config
  return new Client({
    baseUrl: config.baseUrl,
    appKey: config.appKey,
    ...(config.mobile ? { mobile: true } : {}),
    solanaChainId: SOLANA_DEVNET,
    pairing: { store: createBrowserPairingStore() },
    universalLink: {
      store: createBrowserUniversalLinkStore(LINK_STORE_KEY),
      dappName: 'Scope Demo',
      // The partner wallet's link (the sample project's `scope-test-wallet`, from GET /config) is
      // https://wallet.scope-connect.test/ul/?sc…; the demo opens the simulator with its query.
      ...(walletUrl
        ? { openLink: (url: string) => location.assign(new URL(new URL(url).search, walletUrl)) }
        : {}),
    },
  })
}
