import { act, type ReactElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach } from 'vitest'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined
}

/**
 * A React root in the (happy-dom) document for a test file: `mount` renders an element into the
 * test's root under `act` (created on first use; a second call re-renders it, as React does),
 * `text` reads an element's text by id; the root is unmounted and removed after each test.
 */
export function useReactRoot(): {
  mount(element: ReactElement): void
  text(id: string): string
} {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true
  let root: Root | undefined
  let container: HTMLElement | undefined
  afterEach(() => {
    act(() => root?.unmount())
    container?.remove()
    root = undefined
  })
  return {
    mount(element) {
      if (!root) {
        container = document.createElement('div')
        document.body.append(container)
        root = createRoot(container)
      }
      act(() => root?.render(element))
    },
    text: (id) => document.getElementById(id)?.textContent ?? '',
  }
}
