import type { Client } from '../client/client'
import type { ClientPairOptions } from '../client/pairing'
import type { ConnectMessages } from './lazy/messages/en'
import type { ElementKind, MountedElement } from './lazy/mount'

/** The tags `defineConnectElements()` registers: the button (or account chip) and the modal. */
export const CONNECT_ELEMENT_TAGS = {
  button: 'scope-connect-button',
  modal: 'scope-connect-modal',
} as const

/**
 * What the elements use of a `Client`: its view, the flows, config and balances. `switchChain`
 * is optional: without it the network shows as a label instead of a switcher.
 */
export type ConnectElementClient = Pick<
  Client,
  | 'getView'
  | 'subscribe'
  | 'selectWallet'
  | 'connect'
  | 'pair'
  | 'cancel'
  | 'disconnect'
  | 'loadConfig'
  | 'getBalance'
  | 'switchChain'
> &
  Partial<Pick<Client, 'servedPathOptions' | 'recentTransactions'>>

/** The properties and methods both elements have (set them from JS or as React props). */
export interface ConnectElement extends HTMLElement {
  /** The Client the element renders and drives; nothing shows until it is set. */
  client: ConnectElementClient | null
  /** Options of `client.pair()` for the QR code (chains, metadata); default the Client's. */
  pairOptions: ClientPairOptions | null
  /** Opens the modal (the button's own, or the modal element itself). */
  open(): void
  close(): void
}

/** The elements' colour presets: `auto` follows the OS's `prefers-color-scheme`. */
export type ConnectTheme = 'light' | 'dark' | 'auto'

/** The options of `defineConnectElements()`. */
export interface ConnectElementsOptions {
  /** The preset of every element without its own `theme` attribute; default `light`. */
  theme?: ConnectTheme
  /** A shipped locale: `'en'` (default, built in), `'es'` or `'ar'` (right to left), each loaded lazily. */
  locale?: 'en' | 'es' | 'ar'
  /** Overrides any subset of the locale's strings (keys of `ConnectMessages`). */
  messages?: Partial<ConnectMessages>
}

let options: ConnectElementsOptions = {}
let loading: Promise<typeof import('./lazy/mount')> | undefined

/** A shell class: holds the properties and loads the renderer when it first enters a page. */
function shellFor(kind: ElementKind): CustomElementConstructor {
  return class extends HTMLElement implements ConnectElement {
    #client: ConnectElementClient | null = null
    #pairOptions: ClientPairOptions | null = null
    #mounted: MountedElement | null = null
    #wantsOpen = false

    get client() {
      return this.#client
    }
    set client(client) {
      this.#client = client
      this.#mounted?.update()
    }
    get pairOptions() {
      return this.#pairOptions
    }
    set pairOptions(options) {
      this.#pairOptions = options
    }
    open() {
      this.#wantsOpen = true
      this.#mounted?.open()
    }
    close() {
      this.#wantsOpen = false
      this.#mounted?.close()
    }
    connectedCallback() {
      const theme = options.theme
      if (theme && !this.hasAttribute('theme')) this.setAttribute('theme', theme)
      loading ??= import('./lazy/mount').then(async (m) => {
        await m.applyMessages(options)
        return m
      })
      void loading.then(({ mount }) => {
        if (!this.isConnected || this.#mounted) return
        this.#mounted = mount(kind, this)
        if (this.#wantsOpen) this.#mounted.open()
      })
    }
    disconnectedCallback() {
      this.#mounted?.unmount()
      this.#mounted = null
    }
  }
}

/**
 * Registers `<scope-connect-button>` and `<scope-connect-modal>` (once; later calls do nothing).
 * Safe during server-side rendering: without `customElements` it does nothing. Set each
 * element's `client` property to a `Client` (`scope-connect/client`); it renders from the
 * Client's view only (`getView()`, `subscribe`). Theme them with the CSS custom properties of
 * docs/ui.md, and pick a preset with `theme` (or each element's `theme` attribute):
 * `light`, `dark` or `auto` (the OS's setting). `locale` and `messages` choose the strings
 * (docs/ui.md, "Locales"); the last call's options before the first element renders apply.
 * Values of the wrong kind are ignored (English, the light preset).
 */
export function defineConnectElements(elementsOptions: ConnectElementsOptions = {}): void {
  if (typeof customElements === 'undefined') return
  options = typeof elementsOptions === 'object' && elementsOptions ? elementsOptions : {}
  if (options.theme !== 'dark' && options.theme !== 'auto')
    options = { ...options, theme: undefined }
  for (const [kind, tag] of Object.entries(CONNECT_ELEMENT_TAGS) as [ElementKind, string][]) {
    if (!customElements.get(tag)) customElements.define(tag, shellFor(kind))
  }
}
