import type { Browser, Page } from 'playwright-core'
import { createPublicClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningDemo, startDemo } from '../../scripts/demo'
import { formatUnits } from '../../src/ui/lazy/format'
import { keyWallet } from '../support/evm-transactions'
import { seriousViolations } from './support/axe'
import { closeContexts, sharedChromium } from './support/chromium'

// Issue 31 item 1 in real Chromium: the account chip of `<scope-connect-button>` on the demo's
// dApp page (the real backend, a real anvil) shows the chain's balance within one head poll of a
// transaction's receipt. The wallet in the page is EIP-6963-announced and sends with a real key in
// Node (anvil's fourth dev account). Its twin: the read again after the receipt fails (the page's
// requests to /balances answered 503 at the network layer, the backend untouched), the chip keeps
// its figure, and the next receipt brings the chain's.

const KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'
const ACCOUNT = privateKeyToAccount(KEY)
const RECIPIENT = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'
/** One head poll of the backend's block watcher (its default 500 ms), a little over. */
const HEAD_POLL_MS = 600

let demo: RunningDemo
let browser: Browser
let page: Page

beforeAll(async () => {
  demo = await startDemo({ port: 0, dappPort: 0, walletPort: 0, devChainPort: 0 })
  browser = await sharedChromium()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.exposeFunction('sendInNode', async (to: string, value: string) =>
    keyWallet(demo.rpcUrl!, KEY).sendTransaction({
      to: to as Hex,
      value: BigInt(value),
      chain: null,
    }),
  )
  await page.addInitScript((address) => {
    const w = window as unknown as { sendInNode(to: string, value: string): Promise<string> }
    const provider = {
      request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts')
          return Promise.resolve([address])
        if (method === 'eth_chainId') return Promise.resolve('0x7a69')
        if (method === 'eth_sendTransaction') {
          const tx = (params as [{ to: string; value: string }])[0]
          return w.sendInNode(tx.to, BigInt(tx.value).toString())
        }
        if (method === 'wallet_revokePermissions') return Promise.resolve(null)
        return Promise.reject(Object.assign(new Error(`${method}?`), { code: 4200 }))
      },
      on() {},
      removeListener() {},
    }
    const detail = Object.freeze({
      info: {
        uuid: crypto.randomUUID(),
        name: 'Key Wallet',
        icon: 'data:,',
        rdns: 'io.example.key',
      },
      provider,
    })
    const announce = () =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  }, ACCOUNT.address)
  await page.goto(demo.dappUrl)
  await page.waitForSelector('body[data-ready]')
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await page.getByRole('button', { name: /^Key Wallet/ }).click()
  const connected = `${await figure()} ETH`
  const shown = await chipWithin(10_000, connected)
  if (shown !== connected) throw new Error(`the chip shows "${shown}" once connected`)
}, 120_000)

afterAll(async () => {
  await closeContexts(browser)
  await demo?.close()
})

const chipBalance = () =>
  page.evaluate(
    () =>
      document.querySelector('scope-connect-button')?.shadowRoot?.querySelector('.bal')
        ?.textContent ?? '',
  )
const figure = async () =>
  formatUnits(
    await createPublicClient({ transport: http(demo.rpcUrl!) }).getBalance({
      address: ACCOUNT.address,
    }),
    18,
  )

/** The page's Client sends 1 ETH and waits for the receipt (read by the backend). */
const pay = () =>
  page.evaluate(async (to) => {
    const { client } = (
      window as unknown as {
        scopeConnectExample: {
          client: {
            sendTransaction(p: { to: string; value: bigint }): Promise<{ wait(): Promise<unknown> }>
          }
        }
      }
    ).scopeConnectExample
    const handle = await client.sendTransaction({ to, value: 10n ** 18n })
    await handle.wait()
  }, RECIPIENT)

/** The chip's text once `ms` passed or it equals `expected`. */
async function chipWithin(ms: number, expected: string): Promise<string> {
  const until = Date.now() + ms
  let shown = await chipBalance()
  while (shown !== expected && Date.now() < until) {
    await page.waitForTimeout(20)
    shown = await chipBalance()
  }
  return shown
}

describe("the account chip's balance after a receipt (Chromium)", () => {
  it('equals the chain balance within one head poll of the receipt', async () => {
    const before = await chipBalance()
    await pay()
    const expected = `${await figure()} ETH`
    expect(expected).not.toBe(before)
    expect(await chipWithin(HEAD_POLL_MS, expected)).toBe(expected)
  })

  it('twin: the read again answers 503 (the figure kept), the next receipt brings it', async () => {
    const before = await chipBalance()
    await page.route('**/balances?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"code":"UPSTREAM_UNAVAILABLE","message":"node down"}}',
      }),
    )
    await pay()
    await page.waitForTimeout(HEAD_POLL_MS * 2)
    expect(await chipBalance()).toBe(before)
    await page.unroute('**/balances?**')
    await pay()
    const expected = `${await figure()} ETH`
    expect(await chipWithin(HEAD_POLL_MS, expected)).toBe(expected)
  })
})

// Issue 31 item 5 in Chromium: the settled transaction's toast, its Dismiss button, and the
// account screen's "Recent transactions", each passing axe.
describe('the transaction toast and history (Chromium)', () => {
  const inButton = (selector: string) => page.locator('scope-connect-button').locator(selector)

  it('a settled toast shows, passes axe, and Dismiss hides it; the account screen lists it', async () => {
    await pay()
    const line = inButton('.toast')
    await expect.poll(() => line.textContent(), { timeout: 5_000 }).toMatch(/confirmed/)
    expect(await seriousViolations(page)).toEqual([])
    await inButton('[part="toast-dismiss"]').click()
    expect(await line.textContent()).toBe('')
    expect(await inButton('[part="toast-dismiss"]').isVisible()).toBe(false)
    // The account screen (the chip's address opens it) lists the transaction, newest first.
    await inButton('[part="chip"]').click()
    const history = page.locator('scope-connect-button').locator('[part="history"]')
    await expect.poll(() => history.textContent(), { timeout: 5_000 }).toMatch(/confirmed/)
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
  })
})
