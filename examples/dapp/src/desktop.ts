import { isAppError } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { Eip6963Connector, listEip6963Providers } from 'scope-connect/connectors'
import { $, type DappConfig } from './config'

// Flow 1, desktop: discover EIP-6963 wallets, connect one through the Client (custom connectors
// option), sign, and show the connect actor's state as it changes.

/** Lists the wallets that announced themselves, each with a connect button. */
export async function showWallets(config: DappConfig): Promise<void> {
  // Give wallets a moment to announce themselves (EIP-6963 request/announce).
  await new Promise((r) => setTimeout(r, 50))
  for (const { info } of listEip6963Providers()) {
    const item = document.createElement('li')
    const button = document.createElement('button')
    button.textContent = `Connect ${info.name}`
    button.dataset.rdns = info.rdns
    button.onclick = () => void connect(config, info.rdns)
    item.append(button)
    $('wallets').append(item)
  }
  $('status').textContent = 'ready'
}

async function connect(config: DappConfig, rdns: string) {
  const connector = new Eip6963Connector(rdns)
  const client = new Client({
    baseUrl: config.baseUrl,
    appKey: config.appKey,
    connectors: [connector],
    mobile: false,
  })
  client.subscribe((view) => {
    $('status').textContent = view.status
  })
  try {
    await client.selectWallet(connector.id, { namespace: 'eip155' })
    const connection = await client.connect()
    $('account').textContent = connection.accounts[0] ?? ''
    const sign = $<HTMLButtonElement>('sign')
    sign.disabled = false
    sign.onclick = async () => {
      try {
        $('signature').textContent = await client.signMessage('Hello from the dApp')
      } catch (error) {
        $('signature').textContent = isAppError(error) ? `error: ${error.code}` : 'error'
      }
    }
  } catch (error) {
    $('status').textContent = isAppError(error) ? `error: ${error.code}` : 'error'
  }
}
