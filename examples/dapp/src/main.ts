import { createBrowserUniversalLinkStore, isAppError } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { Eip6963Connector, listEip6963Providers } from 'scope-connect/connectors'

// The page a dApp team would write: discover EIP-6963 wallets, connect one through the Client
// (custom connectors option), sign, and show the connect actor's state as it changes.
const $ = (id: string) => document.getElementById(id) as HTMLElement
// The backend of `npm start` unless the page URL names another: `?backend=…&appKey=…`.
const query = new URLSearchParams(location.search)
const baseUrl = query.get('backend') ?? 'http://127.0.0.1:8787'
const appKey = query.get('appKey') ?? 'sample-app-key'
const client = new Client({ baseUrl, appKey, mobile: false })

async function showWallets() {
  // Give wallets a moment to announce themselves (EIP-6963 request/announce).
  await new Promise((r) => setTimeout(r, 50))
  for (const { info } of listEip6963Providers()) {
    const item = document.createElement('li')
    const button = document.createElement('button')
    button.textContent = `Connect ${info.name}`
    button.dataset.rdns = info.rdns
    button.onclick = () => connect(info.rdns)
    item.append(button)
    $('wallets').append(item)
  }
  $('status').textContent = 'ready'
}

async function connect(rdns: string) {
  const connector = new Eip6963Connector(rdns)
  const custom = new Client({
    baseUrl,
    appKey,
    connectors: [connector],
    mobile: false,
  })
  await custom.selectWallet(connector.id, { namespace: 'eip155' })
  custom.connectActor.subscribe((s) => {
    $('status').textContent = String(s.value)
  })
  try {
    const connection = await custom.connect()
    $('account').textContent = connection.accounts[0] ?? ''
    const sign = $('sign') as HTMLButtonElement
    sign.disabled = false
    sign.onclick = async () => {
      try {
        $('signature').textContent = await custom.signMessage('Hello from the dApp')
      } catch (error) {
        $('signature').textContent = isAppError(error) ? `error: ${error.code}` : 'error'
      }
    }
  } catch (error) {
    $('status').textContent = isAppError(error) ? `error: ${error.code}` : 'error'
  }
}

// Exposed for the browser test: the real localStorage-backed store across a real reload.
Object.assign(window, { scopeConnectExample: { client, store: createBrowserUniversalLinkStore() } })
void showWallets()
