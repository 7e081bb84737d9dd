import type { ClientView } from '../../../machines/client/client.view'
import { parseSettled, settledKey } from '../../balance/settled'
import { CONNECT_ELEMENT_TAGS, type ConnectElement } from '../define'
import { nativeBalance, networkOf } from './data'
import { h } from './dom'
import { shorten } from './format'
import { M } from './messages/active'
import type { MountedElement } from './mount'
import { networkControl } from './network'
import { STYLES } from './styles'

/**
 * The connect button (`<scope-connect-button>`): "Connect wallet" while disconnected, the account
 * chip (address and balance) and the network once connected; both open its modal.
 */
export function mountButton(host: ConnectElement): MountedElement {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  const modal = document.createElement(CONNECT_ELEMENT_TAGS.modal) as ConnectElement
  const slot = h('div', { class: 'chip', dir: M.dir })
  // In the page from the start: screen readers announce a live region's changes, not its arrival.
  const line = h('p', { class: 'toast', role: 'status', 'aria-live': 'polite', part: 'toast' })
  const box = h('div', { class: 'tw', dir: M.dir }, line)
  root.replaceChildren(h('style', {}, STYLES), slot, modal, box)
  // The toast's code (dismiss, timeout, explorer link) loads with the first transaction.
  let toast: ((view: ClientView) => void) | null = null
  let latest: ClientView | null = null

  let shown = ''
  // The chip's balance is read again at a receipt's block (docs/transactions.md).
  let settledSeen: string | null = null
  let showBalance: ((settled: string | null) => void) | null = null
  let stop: (() => void) | null = null
  let client = host.client

  function render(view: ClientView) {
    latest = view
    if (toast) toast(view)
    else if (view.transaction) {
      toast = () => {}
      void import('./toast').then((m) => {
        toast = m.createToast(host, box, line, { h, shorten, networkOf, M })
        if (latest) toast(latest)
      })
    }
    const key = view.isConnected
      ? `on|${view.address}|${view.chainId}|${view.chainSupported === false}`
      : `off|${view.isBusy}`
    const settled = settledKey(view)
    const receipt = settled !== settledSeen
    settledSeen = settled
    if (key === shown) {
      if (receipt) showBalance?.(settled)
      return
    }
    shown = key
    showBalance = null
    const open = () => {
      update() // the theme attribute may have changed since
      modal.open()
    }
    if (!view.isConnected) {
      slot.replaceChildren(
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            part: 'button',
            'aria-haspopup': 'dialog',
            'aria-busy': view.isBusy ? 'true' : null,
            onclick: open,
          },
          view.isBusy ? M.connecting : M.connectWallet,
        ),
      )
      return
    }
    const address = view.address ?? ''
    const balance = h('span', { class: 'muted bal' })
    const account = h(
      'button',
      { type: 'button', part: 'chip', 'aria-haspopup': 'dialog', onclick: open },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'sr' }, M.accountPrefix),
      shorten(address),
      balance,
    )
    slot.replaceChildren(networkControl(host.client, view), account)
    const current = host.client
    const chainId = view.chainId
    if (current && chainId) {
      showBalance = (at) => {
        const block = at === null ? undefined : parseSettled(at)
        const atLeast = block?.chainId === chainId ? block.blockNumber : undefined
        void nativeBalance(current, chainId, address, atLeast).then((text) => {
          // A failed read again keeps the figure shown.
          if (text !== null || atLeast === undefined) balance.textContent = text ?? ''
        })
      }
      showBalance(settled)
    }
  }

  function update() {
    modal.client = host.client
    modal.pairOptions = host.pairOptions
    for (const name of ['mobile', 'theme']) {
      const value = host.getAttribute(name)
      if (value === null) modal.removeAttribute(name)
      else modal.setAttribute(name, value)
    }
    if (host.client !== client) {
      stop?.()
      stop = null
      client = host.client
      shown = ''
    }
    if (client && !stop) stop = client.subscribe(render)
    // Until the app hands it a Client, the button holds its place.
    if (!client) {
      shown = ''
      slot.replaceChildren(
        h('button', { type: 'button', class: 'primary', disabled: true }, M.connectWallet),
      )
    }
  }

  update()
  return {
    update,
    open() {
      update()
      modal.open()
    },
    close: () => modal.close(),
    unmount() {
      stop?.()
      stop = null
    },
  }
}
