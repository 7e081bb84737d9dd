import type { Server } from 'node:http'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveDapp } from '../../examples/dapp/serve'
import { closeContexts, sharedChromium } from './support/chromium'

// Issue 26 items 2 and 3 in real Chromium, on the example dApp (examples/dapp/serve.ts), which
// registers no connector of its own:
// - a phone page inside a wallet (iPhone and Android user agents, the wallet's provider injected as
//   its in-app browser does: `window.ethereum` with its flag, announced by EIP-6963) shows that
//   wallet "Installed" in the modal and connects and signs through it (not the SDK, not a link);
// - a wallet the registry does not know, announced by EIP-6963, is listed with its announced name
//   and icon and connects from the modal; its failure twins (rejects, errors, hangs past the named
//   timeout on Chromium's fake clock) each end on the error screen and the next try works.
// The wallets are EIP-1193 test wallets in the page that sign in Node with real viem keys.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%2300a"/%3E%3C/svg%3E'
/** The Client's `walletAnswerMs` default (DEFAULT_CLIENT_TIMEOUTS). */
const WALLET_ANSWER_MS = 300_000

const account = privateKeyToAccount(generatePrivateKey())
let server: Server
let browser: Browser
let origin: string

beforeAll(async () => {
  ;({ url: origin, server } = await serveDapp(0))
  browser = await sharedChromium()
}, 90_000)

afterAll(async () => {
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
})

interface InjectedWallet {
  name: string
  rdns: string
  /** The flag it sets on `window.ethereum` (an in-app browser), if any. */
  flag?: string
}

/**
 * A page with a wallet's provider injected: it answers per `window.testWallet.mode` (approve,
 * reject 4001, error -32603, hold forever) and records the methods it received.
 */
async function openPage(
  context: BrowserContext,
  wallet: InjectedWallet,
  options: { fakeClock?: boolean } = {},
): Promise<Page> {
  const page = await context.newPage()
  if (options.fakeClock) await page.clock.install()
  await page.exposeFunction('signInNode', (hex: Hex) =>
    account.signMessage({ message: { raw: hex } }),
  )
  await page.addInitScript(
    ({ address, icon, wallet }) => {
      const w = window as unknown as {
        signInNode(hex: string): Promise<string>
        testWallet: { mode: string; methods: string[] }
        ethereum?: unknown
      }
      w.testWallet = { mode: 'approve', methods: [] }
      const answer = <T>(value: () => T | Promise<T>): Promise<T> => {
        const { mode } = w.testWallet
        if (mode === 'reject')
          return Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 }))
        if (mode === 'error')
          return Promise.reject(Object.assign(new Error('Internal error'), { code: -32603 }))
        if (mode === 'hold') return new Promise(() => {})
        return Promise.resolve(value())
      }
      const provider: Record<string, unknown> = {
        request({ method, params }: { method: string; params?: unknown[] }) {
          w.testWallet.methods.push(method)
          if (method === 'eth_requestAccounts') return answer(() => [address])
          if (method === 'eth_accounts') return Promise.resolve([address])
          if (method === 'eth_chainId') return Promise.resolve('0x1')
          if (method === 'personal_sign') return answer(() => w.signInNode(String(params?.[0])))
          if (method === 'wallet_revokePermissions') return Promise.resolve(null)
          return Promise.reject(Object.assign(new Error(`${method}?`), { code: 4200 }))
        },
        on() {},
        removeListener() {},
      }
      if (wallet.flag) {
        provider[wallet.flag] = true
        w.ethereum = provider
      }
      const detail = Object.freeze({
        info: { uuid: crypto.randomUUID(), name: wallet.name, icon, rdns: wallet.rdns },
        provider,
      })
      const announce = () =>
        window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { address: account.address, icon: ICON, wallet },
  )
  await page.goto(origin)
  await page.waitForSelector('body[data-ready]')
  return page
}

const dialog = (page: Page) => page.locator('scope-connect-modal dialog')
const view = (page: Page) =>
  page.evaluate(() => window.scopeConnectExample.client.getView() as { address: string | null })
const methods = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { testWallet: { methods: string[] } }).testWallet.methods,
  )
const setMode = (page: Page, mode: string) =>
  page.evaluate((m) => {
    ;(window as unknown as { testWallet: { mode: string } }).testWallet.mode = m
  }, mode)

async function openModal(page: Page) {
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
}

async function signAndVerify(page: Page) {
  await page.click('#sign')
  await page.waitForSelector('#signature[data-signature]')
  const signature = (await page.getAttribute('#signature', 'data-signature')) as Hex
  expect(
    await verifyMessage({ address: account.address, message: 'Hello from the dApp', signature }),
  ).toBe(true)
}

describe.each([
  ['iPhone', IPHONE],
  ['Android', ANDROID],
])('inside a wallet’s in-app browser on %s', (_, userAgent) => {
  it('MetaMask (window.ethereum isMetaMask, announced): listed "Installed", connects and signs through the page’s provider', async () => {
    const context = await browser.newContext({ userAgent, isMobile: true, hasTouch: true })
    const page = await openPage(context, {
      name: 'MetaMask',
      rdns: 'io.metamask',
      flag: 'isMetaMask',
    })
    await openModal(page)
    const row = page.getByRole('button', { name: /MetaMask/ })
    await expect.poll(() => row.textContent()).toContain('Installed')
    await row.click()
    await expect
      .poll(async () => (await view(page)).address, { timeout: 10_000 })
      .toBe(account.address)
    expect(
      await page.evaluate(() => window.scopeConnectExample.client.getConnection()),
    ).toMatchObject({ walletId: 'metamask', connectorId: 'eip6963:io.metamask' })
    await signAndVerify(page)
    expect(await methods(page)).toEqual(
      expect.arrayContaining(['eth_requestAccounts', 'personal_sign']),
    )
    await context.close()
  })

  it('Rainbow (window.ethereum isRainbow, not announced): connects through window.ethereum', async () => {
    const context = await browser.newContext({ userAgent, isMobile: true, hasTouch: true })
    const page = await openPage(context, { name: 'Rainbow', rdns: '', flag: 'isRainbow' })
    const connection = await page.evaluate(async () => {
      const client = window.scopeConnectExample.client
      await client.selectWallet('rainbow', { namespace: 'eip155' })
      return client.connect()
    })
    expect(connection).toMatchObject({ walletId: 'rainbow', connectorId: 'injected' })
    await signAndVerify(page)
    await context.close()
  })
})

describe('a wallet the registry does not know (EIP-6963), no connector registered by the app', () => {
  it('is listed with its announced name and icon and connects and signs from the modal (desktop)', async () => {
    const context = await browser.newContext()
    const page = await openPage(context, { name: 'Example Wallet', rdns: 'io.example.wallet' })
    await openModal(page)
    const row = page.getByRole('button', { name: /Example Wallet/ })
    await expect.poll(() => row.textContent()).toContain('Installed')
    expect(await row.locator('img').getAttribute('src')).toBe(ICON)
    await row.click()
    await expect
      .poll(async () => (await view(page)).address, { timeout: 10_000 })
      .toBe(account.address)
    expect(
      await page.evaluate(() => window.scopeConnectExample.client.getConnection()?.walletId),
    ).toBe('eip6963:io.example.wallet')
    await signAndVerify(page)
    await context.close()
  })

  it('failure twins: rejects, errors, hangs past walletAnswerMs → the error screen; then "Try again" connects', async () => {
    const context = await browser.newContext({ userAgent: ANDROID, isMobile: true })
    const walletPage = await openPage(
      context,
      { name: 'Example Wallet', rdns: 'io.example.wallet' },
      { fakeClock: true },
    )
    await openModal(walletPage)
    const row = walletPage.getByRole('button', { name: /Example Wallet/ })
    const error = walletPage.locator('scope-connect-modal .bad')
    const retry = walletPage.getByRole('button', { name: 'Try again' })

    await setMode(walletPage, 'reject')
    await row.click()
    await expect.poll(() => error.textContent()).toBe('Example Wallet rejected the request')

    await setMode(walletPage, 'error')
    await retry.click()
    await expect.poll(() => error.textContent()).toBe('Example Wallet did not connect')
    expect(
      await walletPage.evaluate(() => window.scopeConnectExample.client.getView().error?.code),
    ).toBe('WALLET_ERROR')

    await setMode(walletPage, 'hold')
    await retry.click()
    await expect.poll(() => walletPage.locator('scope-connect-modal .bad').count()).toBe(0)
    await walletPage.clock.runFor(WALLET_ANSWER_MS + 1_000)
    await expect.poll(() => error.textContent()).toBe('Example Wallet did not connect')
    expect(
      await walletPage.evaluate(() => window.scopeConnectExample.client.getView().error?.code),
    ).toBe('TIMEOUT')

    await setMode(walletPage, 'approve')
    await retry.click()
    await expect
      .poll(async () => (await view(walletPage)).address, { timeout: 10_000 })
      .toBe(account.address)
    await context.close()
  })
})

declare global {
  interface Window {
    scopeConnectExample: { client: import('../../src/client').Client }
  }
}
