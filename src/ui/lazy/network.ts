import type { ClientView } from '../../../machines/client/client.view'
import type { Caip2ChainId } from '../../registry/types'
import type { ConnectElementClient } from '../define'
import { projectConfig } from './data'
import { h } from './dom'
import { M } from './messages/active'

/**
 * The network of the account chip and of the modal's account screen: a switcher over the
 * project's networks of the wallet's namespace (with "Wrong network" while the wallet is on a chain
 * the project does not enable), or a label with one network or without a Client. A refused switch
 * shows the chain the wallet is still on.
 */
export function networkControl(
  current: ConnectElementClient | null,
  view: ClientView,
): HTMLElement {
  const chainId = view.chainId ?? ''
  const bad = view.chainSupported === false
  const label = h(
    'span',
    { class: bad ? 'btn net bad' : 'btn net muted' },
    bad ? M.wrongNetwork : chainId,
  )
  if (!current) return label
  void projectConfig(current).then((config) => {
    const networks = config?.networks.filter((n) => n.namespace === chainId.split(':')[0]) ?? []
    const here = networks.find((n) => n.networkId === chainId)
    if (networks.length < 2) {
      if (here && !bad) label.textContent = here.name
      return
    }
    const select = h(
      'select',
      { 'aria-label': M.network, class: bad ? 'net bad' : 'net' },
      ...(here ? [] : [h('option', { value: chainId, disabled: true }, M.wrongNetwork)]),
      ...networks.map((n) => h('option', { value: n.networkId }, n.name)),
    )
    select.value = chainId
    select.addEventListener('change', () => {
      current.switchChain(select.value as Caip2ChainId).catch(() => {
        select.value = chainId // the wallet said no: show where it still is
      })
    })
    label.replaceWith(select)
  })
  return label
}
