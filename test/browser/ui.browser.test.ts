import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningDemo, startDemo } from '../../scripts/demo'
import { seriousViolations } from './support/axe'
import { closeContexts, sharedChromium } from './support/chromium'

// `scope-connect/ui` in real Chromium, on the demo's dApp page (scripts/demo.ts in process: the
// backend with the sample project, a real anvil, the pages) with a test wallet in the page that
// approves, rejects or holds on command and signs in Node with a real key. Each flow is checked
// through what a person sees (the wallet list, the pending, rejected and QR screens, the account
// chip), axe-core finds no serious or critical violation in any state, and the screenshots of
// docs/ui.md and docs/demo.md are taken here, on a desktop and a phone viewport, when asked
// (`npm run docs:screenshots`): the QR code differs every run, so a plain test run writes none.

const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url))
/** Anvil's third dev account: funded on the dev chain, so the chip shows a balance. */
const ACCOUNT = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
)
const WALLET_ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%23f08c00"/%3E%3Ccircle cx="16" cy="16" r="7" fill="%23fff"/%3E%3C/svg%3E'

let demo: RunningDemo
let browser: Browser

beforeAll(async () => {
  demo = await startDemo({ port: 0, dappPort: 0, walletPort: 0, devChainPort: 0 })
  browser = await sharedChromium()
}, 90_000)

afterAll(async () => {
  await closeContexts(browser)
  await demo?.close()
})

type Mode = 'approve' | 'reject' | 'hold'

/**
 * The dApp page with "Test Wallet" in it: an extension-like EIP-1193 wallet announced by
 * EIP-6963 whose answers `setMode` picks (approve, reject with 4001, or never answer).
 */
async function openPage(context: BrowserContext, query = ''): Promise<Page> {
  const page = await context.newPage()
  await page.exposeFunction('signInNode', (hex: Hex) =>
    ACCOUNT.signMessage({ message: { raw: hex } }),
  )
  await page.addInitScript(
    ({ address, icon }) => {
      const w = window as unknown as {
        signInNode(hex: string): Promise<string>
        testWallet: { mode: string }
      }
      w.testWallet = { mode: 'approve' }
      const answer = <T>(value: () => T | Promise<T>): Promise<T> => {
        if (w.testWallet.mode === 'reject')
          return Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 }))
        if (w.testWallet.mode === 'hold') return new Promise(() => {})
        return Promise.resolve(value())
      }
      let chainId = '0x7a69'
      const listeners = new Set<{ event: string; listener: (value: unknown) => void }>()
      const switchTo = (params: unknown[] | undefined) => {
        chainId = (params as [{ chainId: string }])[0].chainId
        for (const { event, listener } of listeners) if (event === 'chainChanged') listener(chainId)
        return null
      }
      const provider = {
        request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts') return answer(() => [address])
          if (method === 'eth_accounts') return Promise.resolve([address])
          if (method === 'eth_chainId') return Promise.resolve(chainId)
          if (method === 'personal_sign') return answer(() => w.signInNode(String(params?.[0])))
          if (method === 'wallet_switchEthereumChain') return answer(() => switchTo(params))
          if (method === 'wallet_revokePermissions') return Promise.resolve(null)
          return Promise.reject(Object.assign(new Error(`${method}?`), { code: 4200 }))
        },
        on(event: string, listener: (value: unknown) => void) {
          listeners.add({ event, listener })
        },
        removeListener(event: string, listener: (value: unknown) => void) {
          for (const entry of listeners)
            if (entry.event === event && entry.listener === listener) listeners.delete(entry)
        },
      }
      const detail = Object.freeze({
        info: { uuid: crypto.randomUUID(), name: 'Test Wallet', icon, rdns: 'io.example.wallet' },
        provider,
      })
      const announce = () =>
        window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { address: ACCOUNT.address, icon: WALLET_ICON },
  )
  await page.goto(`${demo.dappUrl}${query}`)
  await page.waitForSelector('body[data-ready]')
  return page
}

const setMode = (page: Page, mode: Mode) =>
  page.evaluate((m) => {
    ;(window as unknown as { testWallet: { mode: string } }).testWallet.mode = m
  }, mode)

/** The modal's dialog (in the button's shadow root; Playwright's CSS pierces open shadow roots). */
const dialog = (page: Page) => page.locator('scope-connect-modal dialog')

/** The modal's live status line. */
const status = (page: Page) => page.locator('scope-connect-modal [role="status"]')

async function openModal(page: Page) {
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
}

const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1'

/** A screenshot for the docs: the page, only the modal's dialog, or only the page's header. */
async function shoot(page: Page, name: string, only: 'page' | 'dialog' | 'header' = 'page') {
  if (!UPDATE_SCREENSHOTS) return
  await page.waitForTimeout(250) // the dialog's and the balance's last paint
  const path = `${IMAGES}${name}.png`
  if (only === 'dialog') await dialog(page).screenshot({ path })
  else if (only === 'header') await page.locator('body > header').screenshot({ path })
  else await page.screenshot({ path })
}

// One page for the desktop cases, in order, as a person goes: list, pending, rejected, connected,
// signed, disconnected, QR.
describe('scope-connect/ui in Chromium (desktop)', () => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(demo.dappUrl).origin,
    })
    page = await openPage(context)
  })
  afterAll(() => context?.close())

  it('lists the announced wallets with their icons and an "Installed" badge, and the project wallets', async () => {
    expect(await seriousViolations(page)).toEqual([])
    await openModal(page)
    const row = page.getByRole('button', { name: /^Test Wallet/ })
    await expect.poll(() => row.textContent()).toContain('Installed')
    expect(await row.locator('img').getAttribute('src')).toBe(WALLET_ICON)
    // The sample project's wallets, each by a path it completes: the demo serves no WalletConnect,
    // so MetaMask and Rabby (no extension here) link to their sites, never to the scope QR code;
    // the project's partner wallet (the sc* links and the scr relay) pairs by that QR code.
    expect(await page.getByRole('button', { name: /MetaMask/ }).count()).toBe(0)
    expect(await page.getByRole('link', { name: /MetaMask/ }).getAttribute('href')).toBe(
      'https://metamask.io',
    )
    expect(await page.getByRole('link', { name: /Rabby/ }).getAttribute('href')).toBe(
      'https://rabby.io',
    )
    expect(await page.getByRole('button', { name: /^Scope Test Wallet/ }).textContent()).toContain(
      'QR code',
    )
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-wallets-desktop')
  })

  it('keeps focus in the modal; Escape closes it', async () => {
    const inModal = () =>
      page.evaluate(() => {
        let active = document.activeElement
        while (active?.shadowRoot?.activeElement) {
          if (active.tagName === 'SCOPE-CONNECT-MODAL') return true
          active = active.shadowRoot.activeElement
        }
        return false
      })
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab')
      expect(await inModal()).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    // Focus is back on the button that opened the modal.
    const focused = await page.evaluate(() => {
      let active = document.activeElement
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
      return active?.textContent
    })
    expect(focused).toBe('Connect wallet')
  })

  it('a held request shows the pending screen; Cancel ends it and the list comes back', async () => {
    await setMode(page, 'hold')
    await openModal(page)
    await page.getByRole('button', { name: /^Test Wallet/ }).click()
    await expect.poll(() => status(page).textContent()).toBe('Waiting for Test Wallet')
    expect(await dialog(page).textContent()).toContain('Confirm in Test Wallet')
    expect(await page.getByRole('button', { name: 'Connecting…' }).count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-pending', 'dialog')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => page.getByRole('button', { name: /^Test Wallet/ }).count()).toBe(1)
    expect(await page.evaluate(() => window.scopeConnectExample.client.getView().status)).not.toBe(
      'connecting',
    )
  })

  it('a rejected request shows the rejected screen; Try again connects', async () => {
    await setMode(page, 'reject')
    await page.getByRole('button', { name: /^Test Wallet/ }).click()
    await expect.poll(() => status(page).textContent()).toBe('Test Wallet rejected the request')
    expect(await dialog(page).getAttribute('open')).toBe('')
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-rejected', 'dialog')

    await setMode(page, 'approve')
    await page.getByRole('button', { name: 'Try again' }).click()
    // Connected: the modal closes, the chip shows the account and its balance on the dev chain.
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    const chip = page.getByRole('button', { name: /^Account 0x3C44…93BC/ })
    await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toMatch(/0x3C44…93BC.*ETH/)
    expect(await page.getByRole('button', { name: 'Connect wallet' }).count()).toBe(0)
    expect(await page.locator('scope-connect-button .chip').textContent()).toContain('Anvil')
  })

  it('signs with the real key; the page shows a short, copyable signature', async () => {
    await page.click('#sign')
    await page.waitForSelector('#signature[data-signature]')
    const signature = (await page.getAttribute('#signature', 'data-signature')) as Hex
    expect(
      await verifyMessage({ address: ACCOUNT.address, message: 'Hello from the dApp', signature }),
    ).toBe(true)
    expect(await page.textContent('#signature code')).toBe(
      `${signature.slice(0, 6)}…${signature.slice(-4)}`,
    )
    await page.getByRole('button', { name: 'Copy signature' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(signature)
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'demo-connected-desktop')
  })

  it('a rejected signature says so on the page, and the next one succeeds', async () => {
    await setMode(page, 'reject')
    await page.click('#sign')
    await expect.poll(() => page.getAttribute('#signature', 'data-error')).toBe('USER_REJECTED')
    await setMode(page, 'approve')
    await page.click('#sign')
    await page.waitForSelector('#signature[data-signature]')
  })

  it('the account screen shows the balance and network; Disconnect ends the connection', async () => {
    await page.getByRole('button', { name: /^Account 0x3C44/ }).click()
    await expect.poll(() => dialog(page).textContent()).toMatch(/Balance\d+(\.\d+)? ETH/)
    // The network is the chip's switcher, on the wallet's chain.
    const network = dialog(page).getByRole('combobox', { name: 'Network' })
    await expect.poll(() => network.inputValue()).toBe('eip155:31337')
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-account', 'dialog')
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Connect wallet' }).count()).toBe(1)
    expect(await page.isDisabled('#sign')).toBe(true)
  })

  it('Other wallet shows the pairing QR code with a copy button; Cancel clears it', async () => {
    await openModal(page)
    await page.getByRole('button', { name: /Other wallet/ }).click()
    const qr = page.getByRole('img', { name: 'Pairing QR code' })
    await expect.poll(() => qr.innerHTML(), { timeout: 10_000 }).toMatch(/^<svg/)
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expect.poll(() => status(page).textContent()).toBe('Copied')
    const uri = await page.evaluate(() => navigator.clipboard.readText())
    expect(uri).toMatch(/^scope:[0-9a-f]{64}@1\?/)
    expect(await page.evaluate(() => window.scopeConnectExample.client.getView().pairingUri)).toBe(
      uri,
    )
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-qr', 'dialog')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => qr.count()).toBe(0)
    expect(await page.evaluate(() => window.scopeConnectExample.client.getView().pairingUri)).toBe(
      null,
    )
  })
})

describe('scope-connect/ui in Chromium (phone)', () => {
  it('on a phone the list opens wallet apps; the page and modal fit the screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1, // the docs images ship in the tarball: kept small
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    })
    const page = await openPage(context)
    expect(await seriousViolations(page)).toEqual([])
    await openModal(page)
    // Phantom opens its own deeplinks (phantom-link; the sample project has Solana), no QR code.
    await expect
      .poll(() => page.getByRole('button', { name: /Phantom/ }).textContent())
      .toContain('App')
    expect(await page.getByRole('button', { name: /Other wallet/ }).count()).toBe(0)
    const box = await dialog(page).boundingBox()
    expect(box?.width).toBeLessThanOrEqual(390)
    // Nothing sticks out: every row and its badge end inside the dialog.
    const overflow = await dialog(page).evaluate((element) => {
      const right = element.getBoundingClientRect().right
      return [...element.querySelectorAll('li, .badge')]
        .filter((row) => row.getBoundingClientRect().right > right + 0.5)
        .map((row) => row.textContent)
    })
    expect(overflow).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-wallets-phone')
    // An installed wallet connects on a phone too; the chip fits beside the brand.
    await page.getByRole('button', { name: /^Test Wallet/ }).click()
    const chip = page.getByRole('button', { name: /^Account 0x3C44…93BC/ })
    await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toMatch(/ETH/)
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'demo-phone-connected')
    await context.close()
  })
})

describe('scope-connect/ui in Chromium: the network switcher', () => {
  it('with a Client that switches chains, the chip offers the project networks; a refusal keeps the chain', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await openPage(context)
    await openModal(page)
    await page.getByRole('button', { name: /^Test Wallet/ }).click()
    const network = page.getByRole('combobox', { name: 'Network' })
    await expect.poll(() => network.inputValue(), { timeout: 10_000 }).toBe('eip155:31337')
    // The sample project's EVM networks, by name.
    expect(await network.locator('option').allTextContents()).toEqual([
      'Ethereum',
      'Sepolia',
      'Base',
      'Anvil / Hardhat (local)',
    ])
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-network-switcher', 'header')

    await network.selectOption('eip155:8453')
    const view = () => page.evaluate(() => window.scopeConnectExample.client.getView().chainId)
    await expect.poll(view).toBe('eip155:8453')
    await expect.poll(() => network.inputValue()).toBe('eip155:8453')

    await setMode(page, 'reject')
    await network.selectOption('eip155:1')
    await expect.poll(() => network.inputValue()).toBe('eip155:8453')
    expect(await view()).toBe('eip155:8453')
    await context.close()
  })

  for (const width of [1280, 390]) {
    it(`the account screen has the switcher too (${width} px); a refusal keeps the chain`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 844 } })
      const page = await openPage(context)
      const chip = await connectTestWallet(page)
      await chip.click()
      await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
      const network = dialog(page).getByRole('combobox', { name: 'Network' })
      await expect.poll(() => network.inputValue(), { timeout: 10_000 }).toBe('eip155:31337')
      expect(await network.locator('option').count()).toBe(4)
      expect(await seriousViolations(page)).toEqual([])
      const view = () => page.evaluate(() => window.scopeConnectExample.client.getView().chainId)
      await network.selectOption('eip155:8453')
      await expect.poll(view).toBe('eip155:8453')
      await expect.poll(() => network.inputValue()).toBe('eip155:8453')
      await setMode(page, 'reject')
      await network.selectOption('eip155:1')
      await expect.poll(() => network.inputValue()).toBe('eip155:8453')
      expect(await view()).toBe('eip155:8453')
      await context.close()
    })
  }
})

/** Connects Test Wallet through the modal and waits for the chip's balance. */
async function connectTestWallet(page: Page) {
  await openModal(page)
  await page.getByRole('button', { name: /^Test Wallet/ }).click()
  const chip = page.getByRole('button', { name: /^Account 0x3C44…93BC/ })
  await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toMatch(/ETH/)
  return chip
}

/** The Test Wallet moves to a chain the project does not have (its own chainChanged). */
const walletToUnknownChain = (page: Page) =>
  page.evaluate(() => {
    type Provider = { request(args: { method: string; params: unknown[] }): Promise<unknown> }
    const found: Provider[] = []
    const take = (event: Event) => {
      const { detail } = event as CustomEvent
      if (detail.info.name === 'Test Wallet') found.push(detail.provider)
    }
    window.addEventListener('eip6963:announceProvider', take)
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    window.removeEventListener('eip6963:announceProvider', take)
    return (found[0] as Provider).request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x3e7' }],
    })
  })

/** The computed colours of the chip inside the button's shadow root. */
const chipColours = (page: Page) =>
  page.evaluate(() => {
    const chip = document
      .querySelector('scope-connect-button')
      ?.shadowRoot?.querySelector('[part="chip"]') as HTMLElement
    const style = getComputedStyle(chip)
    return { background: style.backgroundColor, color: style.color }
  })

describe('scope-connect/ui in Chromium: the phone layout and themes', () => {
  for (const width of [320, 390, 520]) {
    it(`at ${width} px the chip keeps the network, the balance and Wrong network, and nothing overflows`, async () => {
      const context = await browser.newContext({
        viewport: { width, height: 844 },
        deviceScaleFactor: 1,
      })
      const page = await openPage(context)
      const chip = await connectTestWallet(page)
      const network = page.getByRole('combobox', { name: 'Network' })
      await expect.poll(() => network.inputValue(), { timeout: 10_000 }).toBe('eip155:31337')
      expect(await network.isVisible()).toBe(true)
      const balance = page.locator('scope-connect-button .bal')
      expect(await balance.isVisible()).toBe(true)
      expect(await balance.textContent()).toMatch(/ETH/)
      await walletToUnknownChain(page)
      await expect
        .poll(() => network.locator('option:checked').textContent(), { timeout: 10_000 })
        .toBe('Wrong network')
      expect(await network.isVisible()).toBe(true)
      expect(await chip.isVisible()).toBe(true)
      const fits = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }))
      const wide = await page.evaluate((w) => {
        const all = [...document.querySelectorAll('body *')]
        const b = document.querySelector('scope-connect-button')?.shadowRoot
        if (b) all.push(...b.querySelectorAll('*'))
        return all
          .filter((e) => e.getBoundingClientRect().right > w)
          .map((e) => `${e.tagName}.${e.className}:${e.getBoundingClientRect().right}`)
      }, width)
      expect(wide).toEqual([])
      expect(fits.scroll).toBeLessThanOrEqual(fits.client)
      for (const box of [await network.boundingBox(), await balance.boundingBox()]) {
        expect(box).not.toBeNull()
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width)
      }
      expect(await seriousViolations(page)).toEqual([])
      if (width === 390) await shoot(page, 'ui-phone-wrong-network')
      await context.close()
    })
  }

  it('light, dark and auto presets; auto follows the OS setting live; a custom property beats the preset', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await openPage(context)
    await connectTestWallet(page)
    const button = page.locator('scope-connect-button')
    const light = await chipColours(page)
    expect(light.color).toBe('rgb(22, 24, 29)')
    await button.evaluate((b) => b.setAttribute('theme', 'dark'))
    const dark = await chipColours(page)
    expect(dark.color).toBe('rgb(236, 238, 242)')
    expect(dark.background).toBe('rgb(23, 25, 30)')
    await page.emulateMedia({ colorScheme: 'light' })
    await button.evaluate((b) => b.setAttribute('theme', 'auto'))
    expect((await chipColours(page)).color).toBe('rgb(22, 24, 29)')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect((await chipColours(page)).color).toBe('rgb(236, 238, 242)')
    await page.emulateMedia({ colorScheme: 'light' })
    expect((await chipColours(page)).color).toBe('rgb(22, 24, 29)')
    await button.evaluate((b) => {
      b.setAttribute('theme', 'dark')
      b.style.setProperty('--scope-connect-text', 'rgb(1, 2, 3)')
    })
    expect((await chipColours(page)).color).toBe('rgb(1, 2, 3)')
    await context.close()
  })

  it('the dark preset passes axe in the wallet list and the account screen', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await openPage(context)
    await page.evaluate(() => {
      document.querySelector('scope-connect-button')?.setAttribute('theme', 'dark')
    })
    await openModal(page)
    expect(await dialog(page).evaluate((d) => getComputedStyle(d).backgroundColor)).toBe(
      'rgb(23, 25, 30)',
    )
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-dark-wallets', 'dialog')
    await page.getByRole('button', { name: /^Test Wallet/ }).click()
    const chip = page.getByRole('button', { name: /^Account 0x3C44…93BC/ })
    await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toMatch(/ETH/)
    await chip.click()
    await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'ui-dark-account', 'dialog')
    await context.close()
  })
})

declare global {
  interface Window {
    scopeConnectExample: { client: import('../../src/client').Client }
  }
}

describe('scope-connect/ui in Chromium: locales', () => {
  it('in Arabic the modal is translated, right to left (close button at the inline end), axe finds nothing serious', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await openPage(context, '?locale=ar')
      await page.getByRole('button', { name: 'ربط المحفظة' }).click()
      await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
      expect(await dialog(page).getAttribute('dir')).toBe('rtl')
      expect(await dialog(page).locator('h2').textContent()).toBe('اربط محفظة')
      const close = await dialog(page).locator('.x').boundingBox()
      const title = await dialog(page).locator('h2').boundingBox()
      expect(close && title && close.x < title.x).toBe(true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(
        true,
      )
      expect(await seriousViolations(page)).toEqual([])
      await shoot(page, 'modal-ar', 'dialog')
    } finally {
      await context.close()
    }
  })
})
