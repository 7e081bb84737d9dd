import type { Browser, Page } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningDemo, startDemo } from '../../scripts/demo'
import { seriousViolations } from './support/axe'
import { closeContexts, sharedChromium } from './support/chromium'

// Issue 31 item 6 in real Chromium, on the demo (the example dApp, the backend with the sample project, anvil): the registry wallets of the list show
// their SVG icons (the lazily loaded icons chunk) instead of letter tiles, and the wallet last used
// to connect comes first with a "Recent" badge after a reload. The wallet in the page is an
// EIP-1193 test wallet announced by EIP-6963 (a real viem key's address).

const account = privateKeyToAccount(generatePrivateKey())
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

async function openPage(page: Page) {
  await page.addInitScript((address) => {
    const provider = {
      request({ method }: { method: string }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts')
          return Promise.resolve([address])
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
        name: 'Example Wallet',
        icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
        rdns: 'io.example.wallet',
      },
      provider,
    })
    const announce = () =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  }, account.address)
  await page.goto(demo.dappUrl)
  await page.waitForSelector('body[data-ready]')
}

const dialog = (page: Page) => page.locator('scope-connect-modal dialog')
const rows = (page: Page) => dialog(page).locator('li')

async function openModal(page: Page) {
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await expect.poll(() => dialog(page).getAttribute('open')).toBe('')
  await expect.poll(() => rows(page).count()).toBeGreaterThan(2)
}

/** Each row: its name, its badge and its icon (an image's src, or the letter tile's text). */
const listed = (page: Page) =>
  rows(page).evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector('.name')?.textContent,
      badge: item.querySelector('.badge')?.textContent,
      image: item.querySelector('img.icon')?.getAttribute('src') ?? null,
    })),
  )

describe('the wallet list', () => {
  it('the registry wallets show their SVG icons, not letter tiles', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await openPage(page)
    await openModal(page)
    const shown = await listed(page)
    // the sample project's registry wallets that rainbowkit ships an icon for (Solflare: none)
    for (const name of ['MetaMask', 'Coinbase Wallet', 'Rabby', 'Rainbow', 'Phantom', 'Backpack']) {
      const row = shown.find((entry) => entry.name === name)
      expect(row?.image, name).toMatch(/^data:image\/svg\+xml,/)
    }
    // each decoded and drawn (an SVG with a size), not a broken image
    const drawnWidth = () =>
      rows(page).evaluateAll((items) => {
        const row = items.find((item) => item.querySelector('.name')?.textContent === 'MetaMask')
        return (row?.querySelector('img.icon') as HTMLImageElement | null)?.naturalWidth ?? 0
      })
    await expect.poll(drawnWidth).toBeGreaterThan(0)
    await context.close()
  })

  it('the wallet last used to connect comes first with a Recent badge after a reload; a garbage stored id is ignored', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await openPage(page)
    await openModal(page)
    expect((await listed(page))[0]?.badge).toBe('Installed')
    const names = (await listed(page)).map((row) => row.name)
    const example = page.getByRole('button', { name: /Example Wallet/ })
    await example.click()
    await expect
      .poll(() => page.evaluate(() => window.scopeConnectExample.client.getView().address))
      .toBe(account.address)
    await page.evaluate(() => window.scopeConnectExample.client.disconnect())
    await page.reload()
    await page.waitForSelector('body[data-ready]')
    await openModal(page)
    const after = await listed(page)
    expect(after[0]).toMatchObject({ name: 'Example Wallet', badge: 'Recent' })
    expect(after.filter((row) => row.badge === 'Recent')).toHaveLength(1)
    expect(after.map((row) => row.name).sort()).toEqual([...names].sort())
    // garbage in storage: no Recent row, no error
    await page.evaluate(() => localStorage.setItem('scope-connect:recent-wallet', '<b>x</b>'))
    await page.reload()
    await page.waitForSelector('body[data-ready]')
    await openModal(page)
    expect((await listed(page)).some((row) => row.badge === 'Recent')).toBe(false)
    await context.close()
  })

  it('Get a wallet lists the store links (the Chrome Web Store first on a desktop), passes axe; Back returns', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await openPage(page)
    await openModal(page)
    const before = (await listed(page)).map((row) => row.name)
    await dialog(page).getByRole('button', { name: 'Get a wallet' }).click()
    const screen = dialog(page).locator('[part="get-wallet"]')
    await expect.poll(() => screen.locator('li').count()).toBeGreaterThanOrEqual(8)
    expect(await dialog(page).locator('h2').textContent()).toBe('Get a wallet')
    const metamask = screen.locator('li', { hasText: 'MetaMask' }).locator('a')
    expect(await metamask.first().getAttribute('href')).toMatch(
      /^https:\/\/chromewebstore\.google\.com\/detail\//,
    )
    expect(await metamask.allTextContents()).toEqual([
      'Chrome Web Store',
      'App Store',
      'Google Play',
    ])
    expect(await seriousViolations(page)).toEqual([])
    await dialog(page).getByRole('button', { name: 'Back' }).click()
    await expect.poll(async () => (await listed(page)).map((row) => row.name)).toEqual(before)
    expect(await dialog(page).locator('h2').textContent()).toBe('Connect a wallet')
    await context.close()
  })
})
