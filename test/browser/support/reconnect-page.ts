import { Client } from '../../../src/client'

// The page of test/browser/reconnect.browser.test.ts: a Client with its default connection store
// (localStorage), driven by the test through `window.app`.
const client = new Client({ baseUrl: 'http://127.0.0.1:1', appKey: 'k', mobile: false })

;(window as unknown as { app: object }).app = {
  connect: async () => (await client.connect()).accounts[0],
  resume: async () => (await client.resume()).status,
  disconnect: () => client.disconnect(),
  view: () => {
    const view = client.getView()
    return { status: view.status, address: view.address, error: view.error?.code ?? null }
  },
}
document.body.dataset.ready = 'true'
