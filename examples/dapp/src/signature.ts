import { isAppError } from 'scope-connect'
import type { Client } from 'scope-connect/client'
import { $ } from './config'

/** What the page asks the wallet to sign (over a universal link the wallet signs the session). */
export const MESSAGE = 'Hello from the dApp'

/** `0x1234…abcd` */
const shorten = (value: string) =>
  value.length > 14 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value

/**
 * Shows a signature in a short, copyable form; the whole value stays in `data-signature` (the
 * browser tests verify it).
 */
export function showSignature(signature: string): void {
  const copy = Object.assign(document.createElement('button'), {
    type: 'button',
    textContent: 'Copy signature',
    onclick: () =>
      void navigator.clipboard?.writeText(signature).then(() => (copy.textContent = 'Copied')),
  })
  const code = Object.assign(document.createElement('code'), {
    textContent: shorten(signature),
    title: signature,
  })
  const ok = Object.assign(document.createElement('span'), {
    className: 'ok',
    textContent: 'Signed',
  })
  const result = $('signature')
  result.dataset.signature = signature
  delete result.dataset.error
  result.replaceChildren(ok, code, copy)
}

/** Shows why the wallet did not sign. */
export function showSignError(error: unknown): void {
  const code = isAppError(error) ? error.code : 'ERROR'
  const result = $('signature')
  delete result.dataset.signature
  result.dataset.error = code
  const text =
    code === 'USER_REJECTED'
      ? 'You rejected the request in the wallet.'
      : `The wallet did not sign (${code}).`
  result.replaceChildren(
    Object.assign(document.createElement('span'), { className: 'no', textContent: text }),
  )
}

/** Wires the sign button to the Client's view: enabled while a signature can be asked for. */
export function setUpSigning(client: Client): void {
  const button = $<HTMLButtonElement>('sign')
  client.subscribe((view) => {
    button.disabled = !view.canSign
    button.textContent = view.pending === 'sign' ? 'Waiting for the wallet…' : 'Sign message'
    if (!view.isConnected && !view.isBusy) $('signature').replaceChildren()
  })
  button.onclick = async () => {
    $('signature').replaceChildren()
    try {
      showSignature(await client.signMessage(MESSAGE)) // a universal link navigates meanwhile
    } catch (error) {
      showSignError(error)
    }
  }
}
