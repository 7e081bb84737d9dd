import type { ConnectElement } from '../define'
import { mountButton } from './button'

export { applyMessages } from './messages/active'

import { mountModal } from './modal'

/** The elements `defineConnectElements` registers, by kind. */
export type ElementKind = 'button' | 'modal'

/** A rendered element, as its shell drives it. */
export interface MountedElement {
  /** The `client` property changed. */
  update(): void
  open(): void
  close(): void
  /** The element left the page: stop following the Client. */
  unmount(): void
}

/** Renders `host` (its shadow root) as the element of `kind`. */
export function mount(kind: ElementKind, host: ConnectElement): MountedElement {
  return kind === 'button' ? mountButton(host) : mountModal(host)
}
