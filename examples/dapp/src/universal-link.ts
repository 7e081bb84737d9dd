import { createBrowserUniversalLinkStore, isAppError } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { $, type DappConfig } from './config'

// Flow 2, mobile: the Client opens the wallet by universal link (in the demo: the wallet simulator
// page, given the same sc* parameters), the wallet posts its callback to the backend and sends the
// user back here; the page reloads and `client.resume()` finishes the flow.

/** Solana devnet, enabled in the sample project. */
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
/** Its own storage key, apart from the library's default that the store test uses. */
const STORE_KEY = 'scope-connect-example:universal-link'
const ACCOUNT_KEY = 'scope-connect-example:universal-link-account'

/** The page's mobile Client; `walletUrl` stands in for the wallet's universal link. */
function createMobileClient(config: DappConfig): Client {
  const { walletUrl } = config
  return new Client({
    baseUrl: config.baseUrl,
    appKey: config.appKey,
    mobile: true,
    solanaChainId: SOLANA_DEVNET,
    universalLink: {
      store: createBrowserUniversalLinkStore(STORE_KEY),
      dappName: 'scope-connect example',
      // The real link is https://phantom.app/ul/?sc…; the demo opens the simulator with its query.
      ...(walletUrl
        ? { openLink: (url) => location.assign(new URL(new URL(url).search, walletUrl)) }
        : {}),
    },
  })
}

function showError(error: unknown) {
  $('ul-status').textContent = isAppError(error) ? `error: ${error.code}` : `error: ${error}`
}

/** Wires the buttons and resumes a flow the wallet sent the user back to. */
export async function setUpUniversalLink(config: DappConfig): Promise<Client> {
  const client = createMobileClient(config)
  $('ul-connect').onclick = async () => {
    $('ul-status').textContent = 'opening the wallet…'
    localStorage.removeItem(ACCOUNT_KEY)
    try {
      await client.selectWallet('phantom', { namespace: 'solana' })
      await client.connect() // the page navigates to the wallet meanwhile
    } catch (error) {
      showError(error)
    }
  }
  $('ul-sign').onclick = async () => {
    $('ul-status').textContent = 'opening the wallet to sign…'
    try {
      await client.signMessage('Hello by universal link') // navigates to the wallet
    } catch (error) {
      showError(error)
    }
  }

  $('ul-status').textContent = 'resuming…'
  // resume() answers at once with where the restored flow stands; waiting is the page's choice.
  const resumed = await client.resume()
  const showAccount = (address: string) => {
    localStorage.setItem(ACCOUNT_KEY, address)
    $('ul-account').textContent = address
    $<HTMLButtonElement>('ul-sign').disabled = false
  }
  try {
    switch (resumed.status) {
      case 'none':
        $('ul-status').textContent = 'idle'
        break
      case 'discarded':
        $('ul-status').textContent = `discarded: ${resumed.reason}`
        break
      case 'awaitingSignature': {
        $('ul-status').textContent = 'waiting for the signature…'
        const signature = await resumed.signature()
        $('ul-account').textContent = localStorage.getItem(ACCOUNT_KEY) ?? ''
        $('ul-signature').textContent = signature
        $('ul-status').textContent = 'signed'
        break
      }
      default: {
        if (resumed.status === 'awaitingWallet')
          $('ul-status').textContent = 'waiting for the wallet…'
        const connection = await resumed.wait()
        showAccount(connection?.accounts[0] ?? '')
        $('ul-status').textContent = 'connected'
      }
    }
  } catch (error) {
    $('ul-status').textContent = isAppError(error)
      ? `${error.code === 'USER_REJECTED' ? 'rejected' : 'failed'}: ${error.code}`
      : `error: ${error}`
  }
  return client
}
