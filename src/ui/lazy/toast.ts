import type { ClientView } from '../../../machines/client/client.view'
import type { ConnectElement } from '../define'
import type { networkOf } from './data'
import type { h } from './dom'
import type { shorten } from './format'
import { explorerTransactionUrl } from './history'
import type { ConnectMessages } from './messages/en'

export { explorerTransactionUrl, historySection } from './history'

/**
 * What the toast and the history use of the elements chunk, handed in: this chunk then shares no
 * module with it (esbuild would split each shared module into a chunk of its own).
 */
export interface UiKit {
  h: typeof h
  shorten: typeof shorten
  networkOf: typeof networkOf
  M: ConnectMessages
}

/** How long a settled transaction's toast stays, unless the element's `toast-timeout` says. */
export const TOAST_TIMEOUT_MS = 6_000

/** The delay (ms) of the element's `toast-timeout` attribute; 0 keeps the toast; garbage: default. */
function timeoutOf(host: ConnectElement): number {
  const raw = host.getAttribute('toast-timeout')
  const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw)
  return Number.isFinite(value) && value >= 0 ? value : TOAST_TIMEOUT_MS
}

/** The pending-transaction toast's line, from the view only: stage, confirmations, hash. */
function transactionText({ transaction: t }: ClientView, { M, shorten }: UiKit): string {
  if (!t || t.stage === 'aborted') return ''
  if (t.stage === 'awaitingWallet') return M.confirmInYourWallet
  const words = [
    M.transaction,
    t.isActive
      ? M.transactionPending(t.confirmations, t.confirmationsWanted)
      : M.transactionStage(t.stage),
  ]
  if (t.hash) words.push(shorten(t.hash))
  return words.join(' ') + (t.revertReason ? `: ${t.revertReason}` : '')
}

/**
 * The transaction toast of `<scope-connect-button>` (loaded with the first transaction; `box` and its live region `line` are in the page from the start): the
 * transaction's line, a link to the network's explorer (`part="toast-link"`) and a dismiss button
 * (`part="toast-dismiss"`). Once settled it goes after `toast-timeout` ms (0: it stays); a
 * dismissed toast shows again for the next transaction.
 */
export function createToast(
  host: ConnectElement,
  box: HTMLElement,
  line: HTMLElement,
  kit: UiKit,
): (view: ClientView) => void {
  const { h, networkOf, M } = kit
  const link = h('a', {
    class: 'tl',
    part: 'toast-link',
    target: '_blank',
    rel: 'noopener noreferrer',
    hidden: true,
  })
  link.textContent = M.viewOnExplorer
  const close = h(
    'button',
    { type: 'button', class: 'x', part: 'toast-dismiss', 'aria-label': M.dismiss, hidden: true },
    '×',
  )
  box.append(link, close)
  let dismissed = false
  let last: ClientView['transaction'] = null
  let timer: ReturnType<typeof setTimeout> | undefined
  let timed = ''
  let linkFor = ''
  let view: ClientView | null = null

  function hide() {
    dismissed = true
    if (view) render(view)
  }
  close.addEventListener('click', hide)

  function render(next: ClientView) {
    view = next
    const t = next.transaction
    // A new transaction (the wallet asked again, or another hash) shows even after a dismiss.
    const fresh =
      t !== null &&
      (last === null ||
        (t.stage === 'awaitingWallet' && last.stage !== 'awaitingWallet') ||
        (t.hash !== null && last.hash !== null && t.hash !== last.hash))
    if (fresh) dismissed = false
    last = t
    const text = dismissed ? '' : transactionText(next, kit)
    line.textContent = text
    close.toggleAttribute('hidden', text === '')
    const settled = text !== '' && t !== null && !t.isActive
    const key = settled ? `${t.chainId}|${t.hash}|${t.stage}` : ''
    if (key !== timed) {
      clearTimeout(timer)
      timer = undefined
      timed = key
      const ms = timeoutOf(host)
      if (key && ms > 0) timer = setTimeout(hide, ms)
    }
    const hash = text === '' ? null : (t?.hash ?? null)
    const wanted = hash && t ? `${t.chainId}|${hash}` : ''
    if (wanted !== linkFor) {
      linkFor = wanted
      link.toggleAttribute('hidden', true)
      link.removeAttribute('href')
      const client = host.client
      if (hash && t && client) {
        // A read that failed (e.g. one begun before the page was ready) is asked once more.
        const read = async () =>
          (await networkOf(client, t.chainId)) ?? (await networkOf(client, t.chainId))
        void read().then((network) => {
          const href = explorerTransactionUrl(network?.explorerUrl, hash)
          if (linkFor !== wanted) return
          if (!network) linkFor = '' // still unread: the next render asks again
          if (!href) return
          link.setAttribute('href', href)
          link.toggleAttribute('hidden', false)
        })
      }
    } else if (!wanted) link.toggleAttribute('hidden', true)
  }

  return render
}
