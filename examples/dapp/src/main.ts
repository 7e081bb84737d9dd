import { createBrowserUniversalLinkStore } from 'scope-connect'
import { $, readConfig } from './config'
import { showWallets } from './desktop'
import { setUpPairing } from './pairing'
import { setUpUniversalLink } from './universal-link'

// The page a dApp team would write, in three flows: a desktop browser wallet (EIP-6963), the mobile
// universal-link round trip with its reload, and QR pairing over the relay.
const config = readConfig()
if (config.walletUrl) {
  const link = Object.assign(document.createElement('a'), {
    href: config.walletUrl,
    target: '_blank',
    textContent: 'wallet simulator',
  })
  $('wallet-link').append(" (the demo's ", link, ')')
}
const pairing = setUpPairing(config)
const mobile = setUpUniversalLink(config)

// Exposed for the browser tests: the real localStorage-backed store across a real reload.
Object.assign(window, {
  scopeConnectExample: { config, pairing, mobile, store: createBrowserUniversalLinkStore() },
})
void showWallets(config)
