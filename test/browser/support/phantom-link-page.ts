import { Client } from '../../../src/client'
import { createBrowserPhantomLinkStore } from '../../../src/phantom-link/browser-store'
import { PhantomLinkConnector } from '../../../src/phantom-link/face/connector'

// The page of test/browser/phantom-link.browser.test.ts: a phone page whose Phantom-link connector
// opens the loopback phone double (a real navigation away); when the double redirects back, the
// page loads again and calls `client.resume()` (it reads `location.href`), then shows the outcome.
const connector = new PhantomLinkConnector({
  walletId: 'phantom',
  baseUrl: `${location.origin}/phone/ul/v1/`,
  redirectLink: `${location.origin}/`,
  store: createBrowserPhantomLinkStore(),
})
const client = new Client({
  baseUrl: 'http://127.0.0.1:1',
  appKey: 'k',
  mobile: true,
  connectors: [connector],
})

;(window as unknown as { app: object }).app = {
  connect: async () => {
    await client.selectWallet('phantom', { namespace: 'solana' })
    void client.connect().catch(() => {})
  },
  sign: (message: string) => {
    void client.signMessage(message).catch(() => {})
  },
}

const result = await client.resume()
const show = document.body.dataset
show.status = result.status
show.address = client.getView().address ?? ''
if (result.status === 'signed') show.signature = await result.signature()
if (result.status === 'failed' || result.status === 'refused') show.error = result.error.code
document.body.textContent = `${result.status} ${show.address} ${show.signature ?? ''}`
show.ready = 'true'
