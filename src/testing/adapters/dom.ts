import type { ClientView } from '../../../machines/client/client.view'
import type { Client } from '../../client/client'
import { checkArgument } from '../arguments'
import type { ClientPathStep, UserAction, UserActionType } from '../paths/types'
import type { ClientPathDriver } from '../run/run-path'

/** A rendered UI: its root element and how to remove it (Testing Library's `render` returns both). */
export interface RenderedUi {
  container: HTMLElement
  unmount(): void
}

/** Options of `createDomDriver`. */
export interface DomDriverOptions {
  /** Renders the app's UI on `client` (e.g. Testing Library's `render(<App client={client} />)`). */
  render(client: Client): RenderedUi | Promise<RenderedUi>
  /**
   * How the user performs each action in the UI (a click, a form). An action type without an entry
   * fails the path: the UI offers no way to do what the flow needs.
   */
  act: Partial<
    Record<UserActionType, (ui: HTMLElement, action: UserAction) => void | Promise<void>>
  >
  /** Throws when the UI does not show `view` (retried until it does, up to `retryMs`). */
  expect(view: ClientView, ui: HTMLElement, step: ClientPathStep | null): void | Promise<void>
  /**
   * How long `expect` is retried while the UI catches up (React renders after the change), on the
   * run's clock (virtual time when the run is); default 1 000 ms.
   */
  retryMs?: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** How often `expect` is tried again while the UI catches up. */
const RETRY_EVERY_MS = 10

/**
 * A `runClientPath` driver for a DOM: happy-dom or jsdom under vitest with Testing Library, or a
 * real page (the Playwright fixture runs the same driver in Chromium). It renders the UI once per
 * Client, performs actions with `act`, and retries `expect` until the UI shows the view.
 *
 * @throws AppError `INVALID_CONFIG` when `options` lacks `render` / `expect` functions or an `act`
 * table of functions (the field is named).
 */
export function createDomDriver(options: DomDriverOptions): ClientPathDriver {
  checkArgument('domDriverOptions', options, 'createDomDriver options')
  let rendered: RenderedUi | null = null
  const ui = (): HTMLElement => {
    if (!rendered) throw new Error('createDomDriver: the UI is not mounted')
    return rendered.container
  }
  return {
    async mount(client) {
      rendered = await options.render(client)
    },
    async act(action) {
      const perform = options.act[action.type]
      if (!perform)
        throw new Error(`the UI has no way to ${action.description} (act.${action.type})`)
      await perform(ui(), action)
    },
    async expect(view, step, wait = sleep) {
      const retryMs = options.retryMs ?? 1_000
      for (let waited = 0; ; waited += RETRY_EVERY_MS) {
        try {
          await options.expect(view, ui(), step)
          return
        } catch (error) {
          if (waited >= retryMs) throw error
          await wait(RETRY_EVERY_MS)
        }
      }
    },
    unmount() {
      rendered?.unmount()
      rendered = null
    },
  }
}

/**
 * Clicks the enabled button named `name` in `ui` (its text or `aria-label`); throws when there is none.
 *
 * @throws AppError `INVALID_CONFIG` when `ui` is not an element or `name` not a string.
 */
export function clickButton(ui: HTMLElement, name: string): void {
  checkArgument('element', ui, 'clickButton ui')
  checkArgument('string', name, 'clickButton name')
  const button = [...ui.querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name,
  )
  if (!button) throw new Error(`no button "${name}"`)
  if (button.disabled) throw new Error(`the button "${name}" is disabled`)
  button.click()
}
