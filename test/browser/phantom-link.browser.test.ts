import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleBrowserScript } from '../../examples/wallet-simulator/serve'
import { createPhantomPhoneDouble } from '../support/phantom-phone-double'
import { closeContexts, sharedChromium } from './support/chromium'

// Phantom's deeplinks in Chromium with a real navigation away and back: the page's connector
// navigates to the loopback phone TEST DOUBLE (`/phone/ul/v1/{method}`), which answers as the
// public docs describe by redirecting (302) to the page's redirect_link; the reloaded page calls
// `client.resume()` and shows connected / the signature.

let server: Server
let origin: string
let browser: Browser
const phone = { current: createPhantomPhoneDouble() }
const answers: string[] = []

beforeAll(async () => {
  const script = await bundleBrowserScript(
    fileURLToPath(new URL('./support/phantom-link-page.ts', import.meta.url)),
  )
  const html =
    '<!doctype html><html><body><script type="module" src="/page.js"></script></body></html>'
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin)
    if (url.pathname === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    } else if (url.pathname.startsWith('/phone/ul/v1/')) {
      const back = phone.current.handle(url.toString())
      answers.push(back)
      res.writeHead(302, { location: back }).end()
    } else res.writeHead(200, { 'content-type': 'text/html' }).end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  phone.current = createPhantomPhoneDouble({ baseUrl: `${origin}/phone/ul/v1/` })
  browser = await sharedChromium()
}, 60_000)

afterAll(async () => {
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
})

type Shown = { status?: string; address?: string; signature?: string; error?: string }
const shown = (page: Page) => page.evaluate(() => ({ ...document.body.dataset }) as Shown)
/** Runs `action` (which navigates to the double) and waits for the page to come back and resume. */
async function roundTrip(page: Page, action: string, arg?: string) {
  const before = answers.length
  // Only a freshly loaded page (after the wallet's redirect) says ready again.
  await page.evaluate(() => {
    document.body.dataset.ready = 'left'
  })
  await page.evaluate(
    ([name, value]) =>
      (window as unknown as { app: Record<string, (v?: string) => unknown> }).app[name as string]?.(
        value ?? undefined,
      ),
    [action, arg] as const,
  )
  await page.waitForFunction(() => document.body.dataset.ready === 'true')
  expect(page.url()).toContain('scPhantomFlow=')
  expect(answers.length).toBe(before + 1)
  return shown(page)
}

describe('Phantom deeplinks in Chromium: navigate to the wallet and back', () => {
  it('connects, signs, refuses a replayed answer, and a rejection is USER_REJECTED with the connection kept', async () => {
    const page = await browser.newPage({
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    })
    try {
      await page.goto(origin)
      await page.waitForFunction(() => document.body.dataset.ready === 'true')
      expect((await shown(page)).status).toBe('none')

      const connected = await roundTrip(page, 'connect')
      expect(connected).toMatchObject({ status: 'connected', address: phone.current.address })
      const stored = await page.evaluate(() => localStorage.getItem('scope-connect:phantom-link'))
      expect(stored).toContain('"formatVersion":1')

      const signed = await roundTrip(page, 'sign', 'Hello from Chromium')
      expect(signed.status).toBe('signed')
      expect(
        phone.current.verify(
          signed.signature ?? '',
          new TextEncoder().encode('Hello from Chromium'),
        ),
      ).toBe(true)

      // The same answer again (a reload of the redirect, or a replay): refused, flow kept.
      await page.goto(answers.at(-1) as string)
      await page.waitForFunction(() => document.body.dataset.ready === 'true')
      expect(await shown(page)).toMatchObject({ status: 'refused', error: 'WALLET_ERROR' })
      await page.goto(origin)
      await page.waitForFunction(() => document.body.dataset.ready === 'true')
      expect(await shown(page)).toMatchObject({
        status: 'connected',
        address: phone.current.address,
      })

      phone.current.setMode('reject')
      const rejected = await roundTrip(page, 'sign', 'no')
      expect(rejected).toMatchObject({ status: 'failed', error: 'USER_REJECTED' })
      phone.current.setMode('approve')
      const again = await roundTrip(page, 'sign', 'again')
      expect(again.status).toBe('signed')
    } finally {
      await page.close()
    }
  }, 60_000)
})
