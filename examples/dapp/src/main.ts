import { createBrowserUniversalLinkStore } from 'scope-connect'
import { type ConnectElement, defineConnectElements } from 'scope-connect/ui'
import { createClient } from './client'
import { $, readConfig } from './config'
import { setUpSigning, showSignature, showSignError } from './signature'

// The page a dApp team would write: one Client, the connect button of `scope-connect/ui` (wallet
// list, QR pairing, account chip), a signature, and on every load `resume()`, which restores a
// paired session or finishes the universal-link flow the wallet sent the user back from.
// `?locale=es|ar` shows the elements in a shipped locale (docs/ui.md, "Locales").
const locale = new URLSearchParams(location.search).get('locale')
defineConnectElements(locale === 'es' || locale === 'ar' ? { locale } : {})
const config = readConfig()
if (config.walletUrl) {
  const link = Object.assign(document.createElement('a'), {
    href: config.walletUrl,
    target: '_blank',
    textContent: 'the wallet simulator',
  })
  $('wallet-link').append(' with a wallet app, or paste its link into ', link)
}
if (config.mobile) {
  const phone = $<HTMLAnchorElement>('phone')
  phone.textContent = 'Open the desktop version'
  phone.href = '?'
}

const client = await createClient(config)
const button = $<ConnectElement>('connect')
button.pairOptions = {
  chains: ['eip155:31337'],
  metadata: { name: 'scope-connect example dApp', url: location.origin },
}
// The list follows the Client: wallet apps by universal link in the phone version.
button.setAttribute('mobile', String(config.mobile))
button.client = client
setUpSigning(client)

// Exposed for the browser tests: the Client, and the real localStorage-backed store of the
// library's default key across a real reload.
Object.assign(window, {
  scopeConnectExample: { config, client, store: createBrowserUniversalLinkStore() },
})

const resumed = await client.resume()
document.body.dataset.ready = 'true'
if (resumed.status === 'awaitingSignature') {
  resumed.signature().then(showSignature, showSignError)
} else if (resumed.status === 'discarded') {
  console.warn(`The stored flow was discarded: ${resumed.reason}`)
} else {
  // A restored flow that failed (the wallet said no): the modal says so and offers to retry.
  resumed.wait().catch(() => button.open())
}
