import type { Browser, BrowserContext, Page } from 'playwright-core'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningDemo, startDemo } from '../../scripts/demo'
import { closeContexts, sharedChromium } from './support/chromium'

// Issue 31, item 7: closing the modal while the wallet is asked keeps the flow. In real Chromium on
// the demo's dApp page (scripts/demo.ts in process: the backend, anvil, the pages) with a test
// wallet in the page (EIP-6963) whose connection request waits until the test releases it, as a
// person who has not yet clicked "Connect" in the extension. Closing the modal (Escape, ×, a click
// beside it) leaves the request pending: the button says "Connecting…", reopening shows the pending
// screen, and approving in the wallet afterwards connects. Only Cancel cancels (ABORTED), and the
// next connect works.

/** Anvil's third dev account. */
const ACCOUNT = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
)

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

/**
 * The dApp page with "Held Wallet": an extension-like EIP-1193 wallet announced by EIP-6963 whose
 * `eth_requestAccounts` waits until `testWallet.release()` (the user approves in the extension).
 */
async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  await page.addInitScript(
    ({ address }) => {
      const held: Array<() => void> = []
      const w = window as unknown as { testWallet: { release(): void; waiting(): number } }
      w.testWallet = {
        release: () => {
          for (const answer of held.splice(0)) answer()
        },
        waiting: () => held.length,
      }
      const provider = {
        request({ method }: { method: string }) {
          if (method === 'eth_requestAccounts')
            return new Promise((resolve) => held.push(() => resolve([address])))
          if (method === 'eth_accounts') return Promise.resolve([address])
          if (method === 'eth_chainId') return Promise.resolve('0x7a69')
          if (method === 'wallet_revokePermissions') return Promise.resolve(null)
          return Promise.reject(Object.assign(new Error(`${method}?`), { code: 4200 }))
        },
        on() {},
        removeListener() {},
      }
      const detail = Object.freeze({
        info: {
          uuid: crypto.randomUUID(),
          name: 'Held Wallet',
          icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
          rdns: 'io.example.held',
        },
        provider,
      })
      const announce = () =>
        window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { address: ACCOUNT.address },
  )
  await page.goto(demo.dappUrl)
  await page.waitForSelector('body[data-ready]')
  return page
}

const dialog = (page: Page) => page.locator('scope-connect-modal dialog')
const status = (page: Page) => page.locator('scope-connect-modal [role="status"]')
const view = (page: Page) =>
  page.evaluate(() => {
    const v = window.scopeConnectExample.client.getView()
    return { status: v.status, address: v.address, error: v.error?.code ?? null }
  })
const waiting = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { testWallet: { waiting(): number } }).testWallet.waiting(),
  )
const release = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { testWallet: { release(): void } }).testWallet.release(),
  )

/** Opens the modal from the page's button (named "Connect wallet", or "Connecting…" while busy). */
async function openModal(page: Page, name: string | RegExp) {
  await page.getByRole('button', { name }).click()
  await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
}

/** Picks the held wallet: the pending screen shows, and the wallet holds the request. */
async function askWallet(page: Page) {
  await openModal(page, 'Connect wallet')
  await page.getByRole('button', { name: /^Held Wallet/ }).click()
  await expect.poll(() => status(page).textContent()).toBe('Waiting for Held Wallet')
  await expect.poll(() => waiting(page)).toBe(1)
}

describe('closing the modal while the wallet is asked keeps the flow (Chromium)', () => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    page = await openPage(context)
  })
  afterAll(() => context?.close())

  it('Escape, then ×, then a click beside it: the flow stays; reopening shows it; approving afterwards connects', async () => {
    await askWallet(page)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    expect(await view(page)).toMatchObject({ status: 'connecting', error: null })
    // The button says the flow goes on, and reopens the pending screen.
    await openModal(page, 'Connecting…')
    await expect.poll(() => status(page).textContent()).toBe('Waiting for Held Wallet')
    expect(await dialog(page).textContent()).toContain('Confirm in Held Wallet')
    await page.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    await openModal(page, 'Connecting…')
    await page.mouse.click(5, 5) // beside the dialog: on its backdrop
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    expect(await view(page)).toMatchObject({ status: 'connecting', error: null })

    // The user approves in the wallet with the modal closed: the dApp is connected.
    await release(page)
    await expect
      .poll(() => view(page))
      .toMatchObject({
        status: 'connected',
        address: ACCOUNT.address,
        error: null,
      })
    await expect
      .poll(() => page.getByRole('button', { name: /^Account 0x3C44…93BC/ }).count())
      .toBe(1)
    expect(await dialog(page).getAttribute('open')).toBeNull()
    await page.evaluate(() => window.scopeConnectExample.client.disconnect())
    await expect.poll(() => view(page)).toMatchObject({ status: 'disconnected' })
  })

  it('only Cancel cancels: closed and reopened, Cancel ends it with ABORTED; the next connect works', async () => {
    await askWallet(page)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog(page).getAttribute('open')).toBeNull()
    await openModal(page, 'Connecting…')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => view(page)).toMatchObject({ error: 'ABORTED' })
    expect((await view(page)).status).not.toBe('connecting')
    await expect.poll(() => page.getByRole('button', { name: /^Held Wallet/ }).count()).toBe(1)
    await release(page) // the abandoned request's late answer connects nothing
    await page.getByRole('button', { name: /^Held Wallet/ }).click()
    await expect.poll(() => waiting(page)).toBe(1)
    await release(page)
    await expect
      .poll(() => view(page))
      .toMatchObject({
        status: 'connected',
        address: ACCOUNT.address,
        error: null,
      })
  })
})
