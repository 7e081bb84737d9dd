import { createBrowserUniversalLinkStore, listSupportedWallets } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { Eip6963Connector, listEip6963Providers } from 'scope-connect/connectors'
import { createBrowserPairingStore } from 'scope-connect/machines'
import type { DappConfig } from './config'

/** Solana devnet, enabled in the sample project: the chain of the universal-link flow. */
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
/** The page's own storage key, apart from the library's default that the store test uses. */
const LINK_STORE_KEY = 'scope-connect-example:universal-link'

/**
 * The page's one Client: desktop or mobile (`?mobile=1`, or a phone's user agent), a connector
 * for each announced browser wallet the registry does not know (the wallet simulator's test
 * wallet), pairing and universal-link flows that survive a reload.
 */
export async function createClient(config: DappConfig): Promise<Client> {
  // Give wallets a moment to announce themselves (EIP-6963 request/announce).
  await new Promise((resolve) => setTimeout(resolve, 50))
  const known = new Set(listSupportedWallets().flatMap((wallet) => wallet.rdns ?? []))
  const connectors = listEip6963Providers()
    .filter(({ info }) => !known.has(info.rdns))
    .map(({ info }) => new Eip6963Connector(info.rdns))
  const { walletUrl } = config
  return new Client({
    baseUrl: config.baseUrl,
    appKey: config.appKey,
    connectors,
    ...(config.mobile ? { mobile: true } : {}),
    solanaChainId: SOLANA_DEVNET,
    pairing: { store: createBrowserPairingStore() },
    universalLink: {
      store: createBrowserUniversalLinkStore(LINK_STORE_KEY),
      dappName: 'Scope Demo',
      // The real link is https://phantom.app/ul/?sc…; the demo opens the simulator with its query.
      ...(walletUrl
        ? { openLink: (url: string) => location.assign(new URL(new URL(url).search, walletUrl)) }
        : {}),
    },
  })
}
