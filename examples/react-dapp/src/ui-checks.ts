import type { ClientView } from 'scope-connect/client'
import { clickButton, type UserActionType } from 'scope-connect/testing'

/**
 * What the connect panel must show for a view, checked on its DOM: the status, the account, the
 * error, and each button enabled exactly when the view allows its action. Plain DOM, so the same
 * checks run under happy-dom and in Chromium. Throws the first difference.
 */
export function checkConnectPanel(view: ClientView, ui: HTMLElement): void {
  const text = (label: string) =>
    ui.querySelector(`output[aria-label="${label}"]`)?.textContent ?? null
  const button = (name: string) =>
    [...ui.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) ?? null
  const same = (what: string, actual: unknown, expected: unknown) => {
    if (actual !== expected)
      throw new Error(`${what}: the UI shows ${String(actual)}, the view says ${String(expected)}`)
  }
  same('status', text('status'), view.status)
  same('account', text('account'), view.isConnected ? view.address : null)
  same('chain', text('chain'), view.isConnected ? view.chainId : null)
  same(
    'error',
    ui.querySelector('[role="alert"]')?.getAttribute('data-code') ?? null,
    view.error?.code ?? null,
  )
  same('Connect enabled', button('Connect')?.disabled === false, view.canConnect)
  same('Cancel enabled', button('Cancel')?.disabled === false, view.canCancel)
  same('Sign message enabled', button('Sign message')?.disabled === false, view.canSign)
  same('Disconnect shown', button('Disconnect') !== null, view.isConnected)
  const walletIdle = view.canSign && view.connectionKind === 'wallet' && view.pending === null
  same('Send transaction enabled', button('Send transaction')?.disabled === false, walletIdle)
  same(
    'transaction pending shown',
    ui.querySelector('[data-transaction="pending"]') !== null,
    view.pending === 'transaction',
  )
  const switches = [...ui.querySelectorAll('button')].filter((b) =>
    b.textContent?.startsWith('Switch to '),
  )
  same(
    'Switch to … shown',
    switches.length > 0,
    view.isConnected && view.connectionKind === 'wallet',
  )
  same(
    'Switch to … enabled',
    switches.some((b) => !b.disabled),
    walletIdle,
  )
  same('Pair a phone enabled', button('Pair a phone')?.disabled === false, !view.isBusy)
  same(
    'pairing link shown',
    ui.querySelector('a[href^="scope:"]') !== null,
    view.pairingUri !== null,
  )
}

/** The button each user action of a generated path clicks. */
export const BUTTON_OF: Partial<Record<UserActionType, string>> = {
  selectWallet: 'Use MetaMask',
  connect: 'Connect',
  pair: 'Pair a phone',
  cancel: 'Cancel',
  signMessage: 'Sign message',
  disconnect: 'Disconnect',
  sendTransaction: 'Send transaction',
}

/** The name of the button a user action clicks (`Switch to <chain>` for `switchChain`). */
export function buttonFor(action: { type: UserActionType; chainId?: string }): string {
  if (action.type === 'switchChain') return `Switch to ${action.chainId}`
  const name = BUTTON_OF[action.type]
  if (!name) throw new Error(`the panel has no button for ${action.type}`)
  return name
}

/** Performs a user action by clicking its button (throws when the UI offers none, or it is disabled). */
export function clickFor(
  ui: HTMLElement,
  action: { type: UserActionType; chainId?: string },
): void {
  clickButton(ui, buttonFor(action))
}
