import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { recoverMessageAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bundleBrowserScript, servePage } from '../../examples/wallet-simulator/serve'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from '../support/walletconnect-relay-double'
import {
  startWalletConnectWallet,
  type TestWalletConnectWallet,
} from '../support/walletconnect-wallet'

// Issue 26 item 1 in real Chromium: a page with the Client (its `walletConnect` option) and the
// connect modal, the real sign-client bundled into the page, the loopback relay double between it
// and the Node-side wallet (the real sign-client, a viem key). The wallet pairs from the URI read
// off the modal (its "Copy link" button, through the clipboard; a first version — decoding the QR
// image itself needs a decoder such as jsqr). On an iPhone user agent the modal shows each
// wallet's WalletConnect deep link with the right `?uri=`.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil()

let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet
let server: Server
let origin: string
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url, rpcUrl: backend.anvil.rpcUrl })
  wallet.chains = [CHAIN]
  const script = await bundleBrowserScript(
    fileURLToPath(new URL('./support/walletconnect-page.ts', import.meta.url)),
  )
  const html =
    '<!doctype html><html lang="en"><head><title>WalletConnect</title></head><body><script type="module" src="/page.js"></script></body></html>'
  ;({ url: origin, server } = await servePage(0, html, new Map([['/page.js', script]])))
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
  await wallet?.close()
  await relay?.close()
})

afterEach(async () => {
  wallet.proposals = 'approve'
  for (const context of contexts.splice(0)) await context.close()
})

type App = {
  open(): void
  signMessage(message: string): Promise<string>
  send(to: string): Promise<{ hash: string; status: string }>
  disconnect(): Promise<void>
  view(): { address: string | null; connected: boolean; error: string | null }
}

async function open(userAgent?: string): Promise<Page> {
  const context = await browser.newContext(userAgent ? { userAgent } : {})
  contexts.push(context)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const page = await context.newPage()
  const query = new URLSearchParams({
    relay: relay.url,
    backend: backend.server.baseUrl,
    appKey: backend.server.appKey,
  })
  await page.goto(new URL(`/?${query}`, origin).href)
  await page.waitForFunction(() => document.body.dataset.ready === 'true')
  await page.evaluate(() => (window as unknown as { app: App }).app.open())
  return page
}

const view = (page: Page) => page.evaluate(() => (window as unknown as { app: App }).app.view())
const dialog = (page: Page) => page.locator('scope-connect-modal dialog')

/** The `wc:` URI off the modal: its "Copy link" button, read back from the clipboard. */
async function copiedUri(page: Page): Promise<string> {
  await dialog(page).getByRole('button', { name: 'Copy link' }).click()
  await expect.poll(() => dialog(page).getByRole('button', { name: 'Copied' }).count()).toBe(1)
  return page.evaluate(() => navigator.clipboard.readText())
}

describe('WalletConnect through the modal in Chromium', () => {
  it('desktop: the WalletConnect row shows the QR code; the wallet pairs from the copied URI; the page connects, signs, sends on anvil (watched through the backend) and disconnects', async () => {
    const page = await open()
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    await expect
      .poll(() => dialog(page).locator('[aria-label="Pairing QR code"] svg').count(), {
        timeout: 20_000,
      })
      .toBe(1)
    const uri = await copiedUri(page)
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=/)
    await wallet.pair(uri)
    await expect.poll(async () => (await view(page)).connected, { timeout: 20_000 }).toBe(true)
    expect((await view(page)).address).toBe(wallet.account.address)
    const signature = await page.evaluate(() =>
      (window as unknown as { app: App }).app.signMessage('hello from chromium'),
    )
    expect(
      await recoverMessageAddress({
        message: 'hello from chromium',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.account.address)
    // A transaction on anvil, sent by the wallet and watched through the real backend.
    const sent = await page.evaluate(
      (to) => (window as unknown as { app: App }).app.send(to),
      RECIPIENT,
    )
    expect(sent.status).toBe('confirmed')
    expect(wallet.received).toContain('eth_sendTransaction')
    const onChain = await fetch(backend.anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getTransactionReceipt',
        params: [sent.hash],
      }),
    }).then((r) => r.json() as Promise<{ result: { status: string; from: string } }>)
    expect(onChain.result.status).toBe('0x1')
    expect(onChain.result.from.toLowerCase()).toBe(wallet.account.address.toLowerCase())
    await page.evaluate(() => (window as unknown as { app: App }).app.disconnect())
    expect((await view(page)).connected).toBe(false)
  }, 90_000)

  it('the wallet rejects: the modal says so; "Try again" shows a new code and connects', async () => {
    const page = await open()
    wallet.proposals = 'reject'
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    await wallet.pair(await copiedUri(page))
    await expect
      .poll(() => dialog(page).getByText('rejected the request').count(), { timeout: 20_000 })
      .toBeGreaterThan(0)
    expect((await view(page)).error).toBe('USER_REJECTED')
    wallet.proposals = 'approve'
    await dialog(page).getByRole('button', { name: 'Try again' }).click()
    await expect
      .poll(() => dialog(page).getByRole('button', { name: 'Copy link' }).count(), {
        timeout: 20_000,
      })
      .toBe(1)
    await wallet.pair(await copiedUri(page))
    await expect.poll(async () => (await view(page)).connected, { timeout: 20_000 }).toBe(true)
  }, 60_000)

  it('iPhone: each wallet opens by its WalletConnect deep link (link + ?uri=); the wallet pairs from it', async () => {
    const page = await open(IPHONE)
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    const rainbow = dialog(page).locator('a[data-wallet="rainbow"]')
    await expect.poll(() => rainbow.count(), { timeout: 20_000 }).toBe(1)
    const href = (await rainbow.getAttribute('href')) ?? ''
    expect(href).toMatch(/^https:\/\/rnbwapp\.com\/wc\?uri=wc%3A/)
    const uri = new URL(href).searchParams.get('uri') ?? ''
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    const metamask =
      (await dialog(page).locator('a[data-wallet="metamask"]').getAttribute('href')) ?? ''
    expect(metamask).toBe(`https://metamask.app.link/wc?uri=${encodeURIComponent(uri)}`)
    await wallet.pair(uri)
    await expect.poll(async () => (await view(page)).connected, { timeout: 20_000 }).toBe(true)
  }, 60_000)
})
