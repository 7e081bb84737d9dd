/**
 * `scope-connect/ui`: framework-free custom elements over a `Client` — a connect button that turns
 * into an account chip, and a modal with the wallet list, the pairing QR code and the pending,
 * rejected and account screens. `defineConnectElements()` registers small shells; the code that
 * renders them loads on first use (a dynamic import), when the first element enters the page.
 */

'use client'

export {
  CONNECT_ELEMENT_TAGS,
  type ConnectElement,
  type ConnectElementClient,
  type ConnectElementsOptions,
  type ConnectTheme,
  defineConnectElements,
} from './define'
export type { ConnectMessages } from './lazy/messages/en'
