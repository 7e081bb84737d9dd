// @vitest-environment happy-dom-node
import { act, createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createTestKeyProvider } from '../../examples/wallet-simulator/src/injected'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { type ConnectElement, defineConnectElements } from '../../src/ui'

// `<scope-connect-button>` rendered by React 19 (react-dom in happy-dom): React hands the Client
// to the element as a property, and the element renders the Client's view — connected with a
// real key (the wallet simulator's EIP-1193 provider), then another Client when the prop changes.

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

const wallet = createTestKeyProvider()

function newClient(): Client {
  return new Client({
    baseUrl: 'http://127.0.0.1:9', // never read: no config or balance is asked for here
    appKey: 'sample-app-key',
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
  })
}

/** The button's shadow text once `check` holds (the elements' code loads on first use). */
async function shadowText(element: Element, check: (text: string) => boolean): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = element.shadowRoot?.querySelector('.chip')?.textContent ?? ''
    if (check(text)) return text
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)))
  }
  throw new Error(`the element never showed the expected text: ${element.shadowRoot?.innerHTML}`)
}

describe('scope-connect/ui in React 19', () => {
  it('renders on the server as a plain tag, without customElements', () => {
    expect(typeof customElements).not.toBe('undefined') // happy-dom has them; the server render never asks
    const html = renderToString(h('scope-connect-button', { client: newClient(), id: 'connect' }))
    expect(html).toBe('<scope-connect-button id="connect"></scope-connect-button>')
  })

  it('takes the Client as a property, follows its view, and follows a new Client', async () => {
    defineConnectElements()
    defineConnectElements() // twice: once registered, the second call does nothing
    const container = document.createElement('div')
    document.body.append(container)
    const root = createRoot(container)
    // Before the app has a Client, the button holds its place, disabled.
    await act(() => root.render(h('scope-connect-button', { client: null })))
    const element = container.querySelector('scope-connect-button') as ConnectElement
    expect(await shadowText(element, (t) => t !== '')).toBe('Connect wallet')
    expect(element.shadowRoot?.querySelector('button')?.disabled).toBe(true)

    const first = newClient()
    await act(() => root.render(h('scope-connect-button', { client: first })))
    expect(element.client).toBe(first)
    await expect.poll(() => element.shadowRoot?.querySelector('button')?.disabled).toBe(false)

    await act(async () => {
      await first.selectWallet('metamask', { namespace: 'eip155' })
      await first.connect()
    })
    const address = wallet.account.address
    const chip = await shadowText(element, (t) => t.includes('Account'))
    expect(chip).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`)

    const second = newClient()
    await act(() => root.render(h('scope-connect-button', { client: second })))
    expect(element.client).toBe(second)
    expect(await shadowText(element, (t) => !t.includes('Account'))).toBe('Connect wallet')
    await act(() => root.unmount())
    await first.disconnect()
    container.remove()
  })
})
