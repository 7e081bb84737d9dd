import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleBrowserScript, servePage } from '../../examples/wallet-simulator/serve'
import { DEFAULT_CONNECTION_STORAGE_KEY } from '../../src/connection/browser-store'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { closeContexts, sharedChromium } from './support/chromium'

// A silent reconnect across a real page reload in Chromium: the Client's default connection store
// is the page's localStorage; the wallet on `window.ethereum` is the viem-keyed test wallet in
// Node (on anvil), reached from the page through an exposed function, as an extension's content
// script would relay it.

const anvil = sharedAnvil()
let server: Server
let origin: string
let browser: Browser

beforeAll(async () => {
  const script = await bundleBrowserScript(
    fileURLToPath(new URL('./support/reconnect-page.ts', import.meta.url)),
  )
  const html =
    '<!doctype html><html><body><script type="module" src="/page.js"></script></body></html>'
  ;({ url: origin, server } = await servePage(0, html, new Map([['/page.js', script]])))
  browser = await sharedChromium()
})

afterAll(async () => {
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
})

async function open(wallet: TestEip1193Wallet): Promise<Page> {
  const page = await browser.newPage()
  await page.exposeFunction('walletRequest', (args: { method: string; params?: unknown[] }) =>
    wallet.request(args),
  )
  await page.addInitScript(() => {
    const w = window as unknown as { walletRequest(args: unknown): Promise<unknown> }
    ;(window as unknown as { ethereum: object }).ethereum = {
      request: (args: unknown) => w.walletRequest(args),
      on() {},
      removeListener() {},
    }
  })
  await page.goto(origin)
  await page.waitForFunction(() => document.body.dataset.ready === 'true')
  return page
}

type App = {
  connect(): Promise<string>
  resume(): Promise<string>
  view(): { status: string; address: string | null; error: string | null }
}
const app = (page: Page) => ({
  connect: () => page.evaluate(() => (window as unknown as { app: App }).app.connect()),
  resume: () => page.evaluate(() => (window as unknown as { app: App }).app.resume()),
  view: () => page.evaluate(() => (window as unknown as { app: App }).app.view()),
})
const reload = async (page: Page) => {
  await page.reload()
  await page.waitForFunction(() => document.body.dataset.ready === 'true')
}
const stored = (page: Page) =>
  page.evaluate((key) => localStorage.getItem(key), DEFAULT_CONNECTION_STORAGE_KEY)

describe('silent reconnect in Chromium', () => {
  it('connect, reload: resume() reconnects from localStorage with eth_accounts, no prompt', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const page = await open(wallet)
    try {
      const address = await app(page).connect()
      expect(address).toBe(wallet.accounts[0]?.address)
      await expect.poll(() => stored(page)).not.toBeNull()

      await reload(page)
      expect((await app(page).view()).status).toBe('idle')
      const from = wallet.requests.length
      expect(await app(page).resume()).toBe('connected')
      expect(await app(page).view()).toEqual({ status: 'connected', address, error: null })
      const methods = wallet.requests.slice(from).map((request) => request.method)
      expect(methods).toContain('eth_accounts')
      expect(methods).not.toContain('eth_requestAccounts')
    } finally {
      await page.close()
    }
  })

  it('error: the wallet locked before the reload: none, the record removed, no error shown; connect() prompts', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const page = await open(wallet)
    try {
      await app(page).connect()
      await expect.poll(() => stored(page)).not.toBeNull()
      wallet.lock()
      await reload(page)
      expect(await app(page).resume()).toBe('none')
      expect(await stored(page)).toBeNull()
      expect(await app(page).view()).toMatchObject({ status: 'disconnected', error: null })
      const from = wallet.requests.length
      await app(page).connect()
      expect(wallet.requests.slice(from).map((request) => request.method)).toContain(
        'eth_requestAccounts',
      )
    } finally {
      await page.close()
    }
  })
})
