import type { ClientView } from '../../../machines/client/client.view'
import { walletConnectDeepLink } from '../../connectors/wallet-paths'
import { allWallets } from '../../registry/all-wallets'
import { supportWallets } from '../../registry/wallets'
import type { ConnectElement } from '../define'
import { nativeBalance, networkOf, projectConfig } from './data'
import { copyText, h, walletIcon } from './dom'
import { shorten } from './format'
import { M } from './messages/active'
import type { MountedElement } from './mount'
import { networkControl } from './network'
import { STYLES } from './styles'
import { type WalletOption, walletOptions } from './wallets'

type Icons = Readonly<Record<string, string>>

/** The row with the registry's icon for its wallet when it announced none. */
function withIcon(option: WalletOption, icons: Icons): WalletOption {
  const icon =
    option.walletId && Object.hasOwn(icons, option.walletId) ? icons[option.walletId] : null
  return option.icon || !icon ? option : { ...option, icon }
}

/** What the modal shows; derived from the Client's view (and the user's last choice), never stored. */
type Screen = 'wallets' | 'pending' | 'qr' | 'error' | 'account'

/** The user's last choice in the modal, to name the wallet and to retry it. */
interface Attempt {
  name: string
  /** The wallet chosen, when one was (its WalletConnect deep link comes first on a phone). */
  walletId?: string
  run(): Promise<unknown>
}

function isMobile(host: HTMLElement): boolean {
  const forced = host.getAttribute('mobile')
  if (forced !== null) return forced !== 'false'
  return /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
}

/**
 * A row's badge: "QR code" for a code to scan from this page (WalletConnect on a desktop for
 * WalletConnect wallets, the scope-connect relay for partner wallets), "App" for a path that opens
 * the wallet app or its SDK.
 */
export function badgeOf(option: WalletOption, mobile: boolean): string {
  if (option.action.kind === 'pair') return M.badgeQr
  return option.path === 'walletconnect' && !mobile ? M.badgeQr : M.badgeApp
}

function screenOf(view: ClientView, dismissed: unknown): Screen {
  if (view.pairingUri) return 'qr'
  if (view.isConnected) return 'account'
  if (view.isBusy) return 'pending'
  if (view.error && view.error.code !== 'ABORTED' && view.error !== dismissed) return 'error'
  return 'wallets'
}

/**
 * The wallet's name: the one chosen in the modal, else the registry's for the view's wallet (a
 * built-in or a registered partner wallet).
 */
function walletName(attempt: Attempt | null, view: ClientView, fallback: string): string {
  return attempt?.name ?? allWallets().find((w) => w.id === view.walletId)?.name ?? fallback
}

const TITLES = {
  wallets: 'titleWallets',
  pending: 'titlePending',
  qr: 'titleQr',
  error: 'titleError',
  account: 'titleAccount',
} as const satisfies Record<Screen, keyof typeof M>

/**
 * The modal (`<scope-connect-modal>`): a native `<dialog>` opened with `showModal()`, so the page
 * behind is inert (focus stays in the dialog) and Escape closes it. Closing keeps a pending flow:
 * the wallet may still be asked (reopening shows the pending screen, an approval afterwards
 * connects); only the Cancel button cancels.
 */
export function mountModal(host: ConnectElement): MountedElement {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
  const title = h('h2', { id: 'title' })
  const body = h('div', { class: 'body' })
  // For screen readers: every screen says the same visibly.
  const status = h('p', { class: 'sr', role: 'status', 'aria-live': 'polite' })
  const close = h(
    'button',
    { class: 'x', type: 'button', 'aria-label': M.close, onclick: () => dialog.close() },
    '×',
  )
  const dialog = h(
    'dialog',
    { part: 'dialog', dir: M.dir, 'aria-labelledby': 'title' },
    h('header', {}, title, close),
    body,
    status,
  )
  root.replaceChildren(h('style', {}, STYLES), dialog)

  let attempt: Attempt | null = null
  let dismissed: unknown = null
  let shown: string | null = null
  let stop: (() => void) | null = null
  /** The Client followed: the host's, as of the last `update()`. */
  let client = host.client
  const announce = (text: string) => {
    status.textContent = text
  }
  const ignore = () => {} // a flow's failure shows through the view

  function begin(name: string, run: () => Promise<unknown>, walletId?: string) {
    attempt = walletId === undefined ? { name, run } : { name, walletId, run }
    dismissed = null
    run().catch(ignore)
  }

  /** Runs the last choice again, or (a flow restored after a reload) connects the Client's wallet. */
  function retry(name: string) {
    const current = client
    if (attempt) begin(attempt.name, attempt.run, attempt.walletId)
    else if (current) begin(name, () => current.connect())
  }

  function choose(option: WalletOption) {
    const current = client
    if (!current) return
    const { action } = option
    if (action.kind === 'connect') {
      begin(
        option.name,
        async () => {
          await current.selectWallet(action.walletId, { namespace: action.namespace })
          await current.connect()
        },
        action.walletId,
      )
    } else if (action.kind === 'pair') {
      // Whichever wallet scans the code answers: it is not named.
      begin(M.theWallet, () => current.pair(host.pairOptions ?? {}).then((flow) => flow.approval))
    }
  }

  /** A button that copies `text` and says so on itself (and to screen readers). */
  function copyButton(label: string, text: string): HTMLButtonElement {
    const button = h('button', { type: 'button' }, label)
    button.addEventListener('click', async () => {
      const done = (await copyText(text)) ? M.copied : M.copyNotAllowed
      button.textContent = done
      announce(done)
    })
    return button
  }

  function walletRow(option: WalletOption): HTMLElement {
    const icon = walletIcon(option.name, option.icon)
    const badge =
      option.action.kind === 'link'
        ? h('span', { class: 'badge' }, M.badgeGet)
        : option.recent
          ? h('span', { class: 'badge on' }, option.recent)
          : option.installed
            ? h('span', { class: 'badge on' }, M.badgeInstalled)
            : h('span', { class: 'badge' }, badgeOf(option, isMobile(host)))
    const content = [icon, h('span', { class: 'name' }, option.name), badge]
    if (option.action.kind === 'link') {
      return h(
        'a',
        { class: 'btn', href: option.action.href, target: '_blank', rel: 'noopener' },
        ...content,
      )
    }
    return h('button', { type: 'button', onclick: () => choose(option) }, ...content)
  }

  async function renderWallets() {
    const list = h('ul', { 'aria-label': M.wallets })
    body.replaceChildren(list)
    const config = client ? await projectConfig(client) : null
    // The registry wallets' icons: a chunk of their own, loaded when the list first renders.
    // The "Recent" wallet's code too (a chunk of its own).
    const [icons, recent] = await Promise.all([
      import('./icons').then(
        (m) => m.WALLET_ICONS,
        () => ({}) as Icons,
      ),
      import('./recent').catch(() => null),
    ])
    if (shown !== 'wallets') return
    const rows = walletOptions(config, isMobile(host), client?.servedPathOptions?.() ?? {})
    list.replaceChildren(
      ...(recent ? recent.putRecentFirst(rows, recent.readRecentWallet(), M.recent) : rows).map(
        (o) => h('li', {}, walletRow(withIcon(o, icons))),
      ),
    )
    body.append(h('button', { type: 'button', onclick: () => getWallet(icons) }, M.getWallet))
  }

  /** "Get a wallet": the registry wallets' store links (a chunk of its own), then Back to the list. */
  function getWallet(icons: Icons) {
    void import('./get-wallet').then((m) => {
      if (shown !== 'wallets') return
      title.textContent = M.getWallet
      const wallets = supportWallets.map((w) => ({ ...w, icon: icons[w.id] }))
      const back = () => {
        title.textContent = M.titleWallets
        void renderWallets().then(focusFirst)
      }
      body.replaceChildren(
        ...m.getWalletScreen(
          { h, M, walletIcon },
          wallets,
          m.storePlatform(navigator.userAgent),
          back,
        ),
      )
      focusFirst()
    })
  }

  function renderPending(view: ClientView) {
    const name = walletName(attempt, view, M.yourWallet)
    body.replaceChildren(
      h(
        'div',
        { class: 'center' },
        h('div', { class: 'spin', 'aria-hidden': 'true' }),
        h('p', {}, M.confirmIn(name)),
        h('p', { class: 'muted' }, M.approveToContinue),
      ),
      view.walletUrl ? h('a', { class: 'btn', href: view.walletUrl }, M.openWalletAgain(name)) : '',
      h(
        'button',
        { type: 'button', disabled: !view.canCancel, onclick: () => client?.cancel() },
        M.cancel,
      ),
    )
    announce(M.waitingFor(name))
  }

  /**
   * A WalletConnect proposal on a phone: a link per WalletConnect wallet of the registry (its
   * `walletConnect.link` + `?uri=`), the chosen wallet's first, and the URI to copy.
   */
  function renderDeepLinks(uri: string) {
    const chosen = attempt?.walletId
    const wallets = supportWallets
      .filter((wallet) => wallet.walletConnect?.link)
      .sort((a, b) => Number(b.id === chosen) - Number(a.id === chosen))
    const links = wallets.map((wallet, index) =>
      h(
        'li',
        {},
        h(
          'a',
          {
            class: index === 0 && wallet.id === chosen ? 'btn primary' : 'btn',
            href: walletConnectDeepLink(wallet.walletConnect?.link ?? '', uri),
            'data-wallet': wallet.id,
          },
          M.openWallet(wallet.name),
        ),
      ),
    )
    body.replaceChildren(
      h('p', { class: 'muted' }, M.openAppToApprove),
      h('ul', { 'aria-label': M.walletApps }, ...links),
      h(
        'div',
        { class: 'row' },
        copyButton(M.copyLink, uri),
        h('button', { type: 'button', onclick: () => client?.cancel() }, M.cancel),
      ),
    )
    announce(M.openYourWalletApp)
  }

  function renderQr(view: ClientView) {
    const uri = view.pairingUri ?? ''
    if (uri.startsWith('wc:') && isMobile(host)) return renderDeepLinks(uri)
    const qr = h('div', { class: 'qr', role: 'img', 'aria-label': M.pairingQrCode })
    void import('../../qr').then(({ pairingQrSvg }) => {
      qr.innerHTML = pairingQrSvg(uri) // our encoder's SVG: paths only, no text of the URI
    })
    body.replaceChildren(
      h('div', { class: 'center' }, qr, h('p', { class: 'muted' }, M.scanOrCopy)),
      h(
        'div',
        { class: 'row' },
        copyButton(M.copyLink, uri),
        h('button', { type: 'button', onclick: () => client?.cancel() }, M.cancel),
      ),
    )
    announce(M.scanWithWallet)
  }

  function renderError(view: ClientView) {
    const rejected = view.error?.code === 'USER_REJECTED'
    const named = walletName(attempt, view, '')
    const name = named || M.theWallet
    const text = rejected ? M.rejected(name) : M.didNotConnect(name)
    body.replaceChildren(
      h(
        'div',
        { class: 'center' },
        h('p', { class: 'bad' }, text),
        h('p', { class: 'muted' }, rejected ? M.canTryAgain : (view.error?.message ?? '')),
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              dismissed = view.error
              update()
            },
          },
          M.back,
        ),
        h('button', { type: 'button', class: 'primary', onclick: () => retry(name) }, M.tryAgain),
      ),
    )
    announce(text)
    // A partner wallet after a reload: the project's config registers it, and so names it.
    if (client && !named && view.walletId) {
      const key = shown
      void projectConfig(client).then(() => {
        if (shown === key && walletName(attempt, view, '')) renderError(view)
      })
    }
  }

  function renderAccount(view: ClientView) {
    const current = client
    const address = view.address ?? ''
    const balance = h('dd', {}, '…')
    // The chip's network control: a switcher over the project's networks, "Wrong network" shown.
    const network = h('dd', {}, networkControl(current, view))
    if (current && view.chainId) {
      void nativeBalance(current, view.chainId, address).then((text) => {
        balance.textContent = text ?? '—'
      })
    }
    const recent = h('div')
    void import('./toast')
      .then((m) => m.historySection(current, { h, shorten, networkOf, M }))
      .then((section) => recent.replaceChildren(section ?? ''), ignore)
    body.replaceChildren(
      h(
        'dl',
        {},
        h('dt', {}, M.account),
        h('dd', { title: address }, shorten(address)),
        h('dt', {}, M.balance),
        balance,
        h('dt', {}, M.network),
        network,
      ),
      h(
        'div',
        { class: 'row' },
        copyButton(M.copyAddress, address),
        h(
          'button',
          {
            type: 'button',
            class: 'bad',
            disabled: view.isBusy,
            onclick: () => {
              void current?.disconnect().then(() => dialog.close())
            },
          },
          M.disconnect,
        ),
      ),
      recent,
    )
    announce(M.connected(shorten(address)))
  }

  function update() {
    if (host.client !== client) {
      stop?.()
      stop = null
      client = host.client
    }
    if (!client) return
    if (!stop)
      stop = client.subscribe(render) // calls render at once
    else render(client.getView())
  }

  function render(view: ClientView) {
    const screen = screenOf(view, dismissed)
    // The key changes with what the screen shows; an unchanged screen keeps its DOM and focus.
    const key =
      screen === 'wallets'
        ? screen
        : `${screen}|${view.pairingUri}|${view.address}|${view.chainId}|${view.chainSupported}|${view.isBusy}|${view.canCancel}|${view.walletUrl}`
    if (key === shown) return
    const previous = shown?.split('|')[0]
    shown = key
    const phoneLinks = screen === 'qr' && isMobile(host) && view.pairingUri?.startsWith('wc:')
    title.textContent = phoneLinks ? M.titleOpenWallet : M[TITLES[screen]]
    // A connection made from the modal closes it; the chip shows the account.
    if (screen === 'account' && (previous === 'pending' || previous === 'qr')) dialog.close()
    // Remembered once per arrival on the account screen, not again at each of its re-renders.
    const used = screen === 'account' && previous !== 'account' && view.walletId
    if (used) void import('./recent').then((m) => m.rememberRecentWallet(used), ignore)
    if (screen === 'wallets') {
      announce('')
      void renderWallets()
    } else if (screen === 'pending') renderPending(view)
    else if (screen === 'qr') renderQr(view)
    else if (screen === 'error') renderError(view)
    else renderAccount(view)
    if (dialog.open && previous !== screen) focusFirst()
  }

  function focusFirst() {
    queueMicrotask(() => (body.querySelector<HTMLElement>('.primary,button,a') ?? close).focus())
  }

  // Escape (the dialog's cancel) and the backdrop close it. A pending flow goes on (the wallet may
  // still be asked and approve): only Cancel cancels; reopening shows where it stands.
  dialog.addEventListener('close', () => {
    dismissed = client?.getView().error ?? null // a closed modal leaves the error behind
    shown = null
    host.dispatchEvent(new Event('close'))
  })
  // A modal dialog makes the page inert, but Tab can still leave it for the browser's own UI:
  // wrap around from the last control to the first, and back.
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return
    const controls = [
      ...dialog.querySelectorAll<HTMLElement>('button:not([disabled]),a[href],select'),
    ]
    const first = controls[0]
    const last = controls[controls.length - 1]
    const active = root.activeElement
    if (event.shiftKey ? active === first : active === last) {
      event.preventDefault()
      ;(event.shiftKey ? last : first)?.focus()
    }
  })
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close()
  })

  update()
  return {
    update,
    open() {
      if (!dialog.open) dialog.showModal()
      shown = null
      update()
      focusFirst()
    },
    close: () => dialog.close(),
    unmount() {
      stop?.()
      stop = null
      if (dialog.open) dialog.close()
    },
  }
}
