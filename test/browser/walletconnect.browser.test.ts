import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { recoverMessageAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bundleBrowserScript, servePage } from '../../examples/wallet-simulator/serve'
import { walletConnectDeepLink } from '../../src/connectors/wallet-paths'
import { supportWallets } from '../../src/registry/wallets'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { decodePng, readQr } from '../support/qr-image'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from '../support/walletconnect-relay-double'
import {
  startWalletConnectWallet,
  type TestWalletConnectWallet,
} from '../support/walletconnect-wallet'
import { closeContexts, sharedChromium } from './support/chromium'

// Issue 26 item 1 in real Chromium: a page with the Client (its `walletConnect` option) and the
// connect modal, the real sign-client bundled into the page, the loopback relay double between it
// and the Node-side wallet (the real sign-client, a viem key). The wallet pairs from the URI READ
// OFF THE MODAL'S QR CODE: a screenshot of the painted code, decoded with jsQR (a decoder we did
// not write, test/support/qr-image.ts), as a phone's camera would. On iPhone and Android user
// agents the modal shows each WalletConnect wallet's deep link (link + `?uri=`) with the same URI.
// Failure twins: the wallet rejects the proposal (retry pairs from the NEW code), rejects or fails
// a signature and rejects a transaction; after each the next call works. No test waits a timeout.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
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
  browser = await sharedChromium()
}, 120_000)

afterAll(async () => {
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
  await wallet?.close()
  await relay?.close()
})

afterEach(async () => {
  wallet.proposals = 'approve'
  wallet.requests = 'approve'
  for (const context of contexts.splice(0)) await context.close()
})

type App = {
  open(): void
  signMessage(message: string): Promise<string>
  trySign(message: string): Promise<{ signature: string | null; error: string | null }>
  trySend(to: string): Promise<{ hash: string | null; error: string | null }>
  send(to: string): Promise<{ hash: string; status: string }>
  disconnect(): Promise<void>
  view(): {
    address: string | null
    connected: boolean
    error: string | null
    pairingUri: string | null
  }
}

async function open(userAgent?: string): Promise<Page> {
  const context = await browser.newContext(userAgent ? { userAgent } : {})
  contexts.push(context)
  // Offline as this machine is, but at once: requests off the loopback fail straight away, as in a
  // browser with no network, instead of hanging on DNS.
  await context.route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => route.abort('internetdisconnected'),
  )
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const page = await context.newPage()
  // The page's sign-client registers each proposal and request with Verify: a hidden iframe of
  // verify.walletconnect.org, awaited until a 5 s abort timer (a failed iframe fires no `error`).
  // Offline it always ends by that timer, so the test moves the page's clock past it (page.clock,
  // time otherwise flowing) as soon as the iframe's load has failed, instead of waiting 5 s.
  await page.clock.install()
  page.on('requestfailed', (request) => {
    if (new URL(request.url()).hostname === 'verify.walletconnect.org') {
      void page.clock.fastForward(5_000).catch(() => {}) // the page may be closing
    }
  })
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

/**
 * The `wc:` URI read off the modal's QR code: a screenshot of the code as painted, decoded with
 * jsQR. Polls until the code is painted and decodes to something other than `previous` (after a
 * retry the modal shows a new code).
 */
async function scannedUri(page: Page, previous?: string): Promise<string> {
  const code = dialog(page).locator('[aria-label="Pairing QR code"]')
  let scanned: string | null = null
  await expect
    .poll(
      async () => {
        if ((await code.locator('svg').count()) !== 1) return false
        scanned = readQr(decodePng(await code.screenshot({ animations: 'disabled' })))
        return scanned !== null && scanned !== previous
      },
      // The first code of a fresh page waits for sign-client to load and reach the relay: on a
      // loaded 2-core CI machine that took over 20 s once.
      { timeout: 45_000 },
    )
    .toBe(true)
  return scanned as unknown as string
}

/** The `wc:` URI off the modal: its "Copy link" button, read back from the clipboard. */
async function copiedUri(page: Page): Promise<string> {
  await dialog(page).getByRole('button', { name: 'Copy link' }).click()
  await expect.poll(() => dialog(page).getByRole('button', { name: 'Copied' }).count()).toBe(1)
  return page.evaluate(() => navigator.clipboard.readText())
}

const app = (page: Page) => ({
  signMessage: (message: string) =>
    page.evaluate((m) => (window as unknown as { app: App }).app.signMessage(m), message),
  trySign: (message: string) =>
    page.evaluate((m) => (window as unknown as { app: App }).app.trySign(m), message),
  trySend: (to: string) =>
    page.evaluate((t) => (window as unknown as { app: App }).app.trySend(t), to),
  send: (to: string) => page.evaluate((t) => (window as unknown as { app: App }).app.send(t), to),
  disconnect: () => page.evaluate(() => (window as unknown as { app: App }).app.disconnect()),
})

async function expectSignedBy(signature: string | null, message: string): Promise<void> {
  expect(await recoverMessageAddress({ message, signature: signature as `0x${string}` })).toBe(
    wallet.account.address,
  )
}

async function receipt(hash: string): Promise<{ status: string; from: string }> {
  const response = await fetch(backend.anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getTransactionReceipt',
      params: [hash],
    }),
  })
  return ((await response.json()) as { result: { status: string; from: string } }).result
}

describe('WalletConnect through the modal in Chromium', () => {
  it('desktop: the wallet pairs from the QR code decoded off the modal; the page connects, signs, sends on anvil (watched through the backend) and disconnects', async () => {
    const page = await open()
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    const uri = await scannedUri(page)
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/)
    expect(uri).toBe((await view(page)).pairingUri)
    expect(await copiedUri(page)).toBe(uri) // the "Copy link" button carries the same URI
    await wallet.pair(uri)
    await expect.poll(async () => (await view(page)).connected, { timeout: 45_000 }).toBe(true)
    expect((await view(page)).address).toBe(wallet.account.address)
    await expect.poll(() => dialog(page).evaluate((d) => (d as HTMLDialogElement).open)).toBe(false)
    await expectSignedBy(await app(page).signMessage('hello from chromium'), 'hello from chromium')
    // A transaction on anvil, sent by the wallet and watched through the real backend.
    const before = wallet.received.filter((m) => m === 'eth_sendTransaction').length
    const sent = await app(page).send(RECIPIENT)
    expect(sent.status).toBe('confirmed')
    expect(wallet.received.filter((m) => m === 'eth_sendTransaction').length).toBe(before + 1)
    const onChain = await receipt(sent.hash)
    expect(onChain.status).toBe('0x1')
    expect(onChain.from.toLowerCase()).toBe(wallet.account.address.toLowerCase())
    await app(page).disconnect()
    expect((await view(page)).connected).toBe(false)
  }, 60_000)

  it('failure twins: the wallet rejects the proposal (the modal says so; "Try again" pairs from the NEW code), rejects and fails a signature and rejects a transaction; each next call works', async () => {
    const page = await open()
    wallet.proposals = 'reject'
    await dialog(page)
      .getByRole('button', { name: /WalletConnect/ })
      .click()
    const first = await scannedUri(page)
    await wallet.pair(first)
    await expect
      .poll(() => dialog(page).getByText('rejected the request').count(), { timeout: 20_000 })
      .toBeGreaterThan(0)
    expect(await view(page)).toMatchObject({ error: 'USER_REJECTED', connected: false })
    wallet.proposals = 'approve'
    await dialog(page).getByRole('button', { name: 'Try again' }).click()
    const second = await scannedUri(page, first)
    expect(second).not.toBe(first)
    expect(second).toBe((await view(page)).pairingUri)
    await wallet.pair(second)
    await expect.poll(async () => (await view(page)).connected, { timeout: 45_000 }).toBe(true)
    expect((await view(page)).address).toBe(wallet.account.address)

    wallet.requests = 'reject'
    expect(await app(page).trySign('no')).toEqual({ signature: null, error: 'USER_REJECTED' })
    wallet.requests = 'error'
    expect(await app(page).trySign('no')).toEqual({ signature: null, error: 'WALLET_ERROR' })
    wallet.requests = 'approve'
    const signed = await app(page).trySign('yes')
    expect(signed.error).toBeNull()
    await expectSignedBy(signed.signature, 'yes')

    wallet.requests = 'reject'
    expect(await app(page).trySend(RECIPIENT)).toEqual({ hash: null, error: 'USER_REJECTED' })
    wallet.requests = 'approve'
    const sent = await app(page).trySend(RECIPIENT)
    expect(sent.error).toBeNull()
    expect((await receipt(sent.hash as string)).status).toBe('0x1')
    expect((await view(page)).connected).toBe(true)
  }, 60_000)

  it.each([
    ['iPhone', IPHONE],
    ['Android', ANDROID],
  ])(
    '%s: every WalletConnect wallet of the registry is listed with its deep link (link + ?uri=) carrying the pairing URI; the wallet pairs from one',
    async (_, userAgent) => {
      const page = await open(userAgent)
      await dialog(page)
        .getByRole('button', { name: /WalletConnect/ })
        .click()
      const links = dialog(page).locator('ul[aria-label="Wallet apps"] a')
      await expect.poll(() => links.count(), { timeout: 20_000 }).toBeGreaterThan(0)
      // No QR code on a phone: the page is on the phone that would scan it.
      expect(await dialog(page).locator('[aria-label="Pairing QR code"]').count()).toBe(0)
      const uri = (await view(page)).pairingUri ?? ''
      expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/)
      const listed = await links.evaluateAll((anchors) =>
        anchors.map((a) => ({ id: a.getAttribute('data-wallet'), href: a.getAttribute('href') })),
      )
      const expected = supportWallets.filter((w) => w.walletConnect?.link)
      expect(listed.map((l) => l.id).sort()).toEqual(expected.map((w) => w.id).sort())
      for (const { id, href } of listed) {
        const link = expected.find((w) => w.id === id)?.walletConnect?.link ?? ''
        expect(href).toBe(walletConnectDeepLink(link, uri))
        // Read back as a wallet would: the link's own `uri` parameter is the pairing URI.
        const parsed = new URL(href ?? '')
        expect(`${parsed.origin}${parsed.pathname}`).toBe(link)
        expect(parsed.searchParams.get('uri')).toBe(uri)
      }
      expect(listed.find((l) => l.id === 'rainbow')?.href).toMatch(
        /^https:\/\/rnbwapp\.com\/wc\?uri=wc%3A[0-9a-f]{64}%402%3F/,
      )
      expect(await copiedUri(page)).toBe(uri)
      const rainbow = listed.find((l) => l.id === 'rainbow')?.href ?? ''
      await wallet.pair(new URL(rainbow).searchParams.get('uri') ?? '')
      await expect.poll(async () => (await view(page)).connected, { timeout: 45_000 }).toBe(true)
    },
    60_000,
  )
})
