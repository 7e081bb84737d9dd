// @vitest-environment happy-dom-node
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { clearNetworks } from '../../src/registry'
import { type ConnectElement, defineConnectElements } from '../../src/ui'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'

// Issue 29, item 1, in `<scope-connect-button>`: the network switcher offers a project's custom
// chain (Linea, eip155:59144, from the projects file) by its name, and choosing it adds the chain
// to a wallet that does not know it (4902) with the project's data, then shows it as current.

const LINEA = 'eip155:59144'
const anvil = sharedAnvil()
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({
    projects: {
      projects: [
        {
          projectId: 'linea-dapp',
          name: 'Linea dApp',
          appKeys: ['linea-app-key'],
          networks: [
            { chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl },
            {
              chainId: LINEA,
              name: 'Linea',
              nativeCurrency: { name: 'Linea Ether', symbol: 'ETH', decimals: 18 },
              publicRpcUrls: ['https://rpc.linea.build'],
            },
          ],
          wallets: ['metamask'],
        },
      ],
    },
  })
}, 60_000)
afterAll(async () => {
  // happy-dom's fetch may keep a connection open: close them, so the server stops at once.
  server?.app.server.closeAllConnections()
  await server?.close()
})
afterEach(() => clearNetworks())

async function switcherOf(element: Element): Promise<HTMLSelectElement> {
  for (let i = 0; i < 250; i++) {
    const select = element.shadowRoot?.querySelector<HTMLSelectElement>(
      'select[aria-label="Network"]',
    )
    if (select) return select
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(
    `no network switcher: ${element.shadowRoot?.innerHTML.replace(/<style>[^<]*<\/style>/g, '').slice(0, 800)}`,
  )
}

describe('the network switcher with a custom chain', () => {
  it("offers Linea by name; choosing it adds the chain with the project's data and switches", async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: 'linea-app-key',
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
    })
    await client.connect()
    defineConnectElements()
    const element = document.createElement('scope-connect-button') as ConnectElement
    element.client = client
    document.body.append(element)
    const select = await switcherOf(element)
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['eip155:31337', 'Anvil / Hardhat (local)'],
      [LINEA, 'Linea'],
    ])
    select.value = LINEA
    select.dispatchEvent(new Event('change'))
    await expect.poll(() => client.getView().chainId).toBe(LINEA)
    expect(wallet.addedChains.get(59144)).toMatchObject({
      chainName: 'Linea',
      rpcUrls: ['https://rpc.linea.build'],
    })
    await expect.poll(async () => (await switcherOf(element)).value).toBe(LINEA)
    element.remove()
  })
})
