// @vitest-environment happy-dom-node
import { describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { createMemoryTransactionStore } from '../../src/transaction'
import { type ConnectElement, defineConnectElements } from '../../src/ui'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_0, revertingInitCode, rpc } from '../support/evm-transactions'

// The pending-transaction toast of `<scope-connect-button>`: a live region rendered from the
// Client's view only, as a real Client sends through a real key to anvil (mined by hand) and the
// real backend reads the receipts.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: { blockPollMs: 100, timeoutMs: 1_000 },
})

async function toastOf(element: Element, check: (text: string) => boolean): Promise<HTMLElement> {
  for (let i = 0; i < 250; i++) {
    const toast = element.shadowRoot?.querySelector<HTMLElement>('.toast')
    if (toast && check(toast.textContent ?? '')) return toast
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const text = element.shadowRoot?.querySelector('.toast')?.textContent
  throw new Error(`the toast never showed the expected text; it shows "${text}"`)
}

describe('the pending-transaction toast', () => {
  it('is an empty live region, then shows pending with the hash, confirmed, and a rejection; then the next send', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
    })
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
      transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
    })
    defineConnectElements()
    const element = document.createElement('scope-connect-button') as ConnectElement
    element.client = client
    document.body.append(element)
    const idle = await toastOf(element, () => true)
    expect(idle.getAttribute('role')).toBe('status')
    expect(idle.getAttribute('aria-live')).toBe('polite')
    expect(idle.textContent).toBe('')
    await client.connect()

    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    const short = `${handle.hash.slice(0, 6)}…${handle.hash.slice(-4)}`
    await toastOf(element, (text) => text === `Transaction pending 0/1 ${short}`)
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    await handle.wait()
    await toastOf(element, (text) => text === `Transaction confirmed ${short}`)

    wallet.rejectNextRequest('eth_sendTransaction')
    await expect(client.sendTransaction({ to: RECIPIENT, value: 1n })).rejects.toThrow()
    await toastOf(element, (text) => text === 'Transaction rejected')

    const reverting = await client.sendTransaction({
      data: revertingInitCode('nope'),
      gas: 100_000n,
    })
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    await reverting.wait().catch(() => {})
    await toastOf(
      element,
      (text) => text.startsWith('Transaction reverted') && text.endsWith(': nope'),
    )
    element.remove()
  })
})
