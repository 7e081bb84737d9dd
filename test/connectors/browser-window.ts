import { Window } from 'happy-dom'
import { vi } from 'vitest'

/**
 * Installs a happy-dom `Window` as the global `window` (with its `Event` and `CustomEvent`, which
 * mipd and the library construct) while the test environment stays Node. Not the happy-dom test
 * environment: that one replaces `fetch` with a CORS-enforcing one and `URL` with its own, which
 * breaks viem's calls to the local anvil node and the anvil helper. Undo with `vi.unstubAllGlobals()`.
 */
export function installBrowserWindow(url = 'https://dapp.example/'): Window {
  const window = new Window({ url })
  vi.stubGlobal('window', window)
  vi.stubGlobal('Event', window.Event)
  vi.stubGlobal('CustomEvent', window.CustomEvent)
  return window
}
