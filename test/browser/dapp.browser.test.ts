import type { Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveDapp } from '../../examples/dapp/serve'
import { closeContexts, sharedChromium } from './support/chromium'

// The example dApp page in real Chromium (Debian's, installed by scripts/ensure-system-deps.sh),
// served by examples/dapp/serve.ts: EIP-6963 discovery and connect through the Client, a signature made in Node with a real key,
// and the localStorage-backed universal-link store across a real page reload.

const account = privateKeyToAccount(generatePrivateKey())
let server: Server
let browser: Browser
let origin: string

beforeAll(async () => {
  // The page as a person serves it by hand (`npm run example:dapp`).
  ;({ url: origin, server } = await serveDapp(0))
  browser = await sharedChromium()
})

afterAll(async () => {
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
})

/** An extension-like wallet in the page: announces itself by EIP-6963, signs through Node. */
async function openWithWallet(): Promise<Page> {
  const page = await browser.newPage()
  await page.exposeFunction('signInNode', (hex: Hex) =>
    account.signMessage({ message: { raw: hex } }),
  )
  await page.addInitScript((address: string) => {
    const w = window as unknown as { signInNode(hex: string): Promise<string> }
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address]
        if (method === 'eth_chainId') return '0x1'
        if (method === 'personal_sign') return w.signInNode(String(params?.[0]))
        if (method === 'wallet_revokePermissions') return null
        throw Object.assign(new Error(`${method} not supported`), { code: 4200 })
      },
      on() {},
      removeListener() {},
    }
    const detail = Object.freeze({
      info: {
        uuid: crypto.randomUUID(),
        name: 'Test Wallet',
        icon: 'data:image/svg+xml,<svg/>',
        rdns: 'io.example.wallet',
      },
      provider,
    })
    const announce = () =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  }, account.address)
  await page.goto(origin)
  await page.waitForSelector('body[data-ready]')
  return page
}

type ExampleWindow = {
  scopeConnectExample: {
    client: { getView(): { address: string | null; isConnected: boolean } }
    store: { save(s: unknown): void; load(): unknown; clear(): void }
  }
}

describe('example dApp in Chromium', () => {
  it('discovers the wallet by EIP-6963, connects, and signs with the real key', async () => {
    const page = await openWithWallet()
    await page.getByRole('button', { name: 'Connect wallet' }).click()
    await page.getByRole('button', { name: /Test Wallet/ }).click()
    await page.waitForFunction(
      () => (window as unknown as ExampleWindow).scopeConnectExample.client.getView().isConnected,
    )
    expect(
      await page.evaluate(
        () => (window as unknown as ExampleWindow).scopeConnectExample.client.getView().address,
      ),
    ).toBe(account.address)
    const short = `${account.address.slice(0, 6)}…${account.address.slice(-4)}`
    expect(await page.getByRole('button', { name: /^Account/ }).textContent()).toContain(short)

    await page.click('#sign')
    await page.waitForSelector('#signature[data-signature]')
    const signature = (await page.getAttribute('#signature', 'data-signature')) as Hex
    expect(
      await verifyMessage({ address: account.address, message: 'Hello from the dApp', signature }),
    ).toBe(true)
    await page.close()
  })

  it('the universal-link store survives a real reload; a corrupt value is dropped', async () => {
    const page = await openWithWallet()
    const state = {
      format: 'scope-connect/universal-link',
      formatVersion: 2,
      fingerprint: '0123456789abcdef',
      savedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      snapshot: { status: 'active', value: 'awaitingWallet', context: {} },
      tokens: {},
    }
    await page.evaluate(
      (s) => (window as unknown as ExampleWindow).scopeConnectExample.store.save(s),
      state,
    )
    await page.reload()
    await page.waitForSelector('body[data-ready]')
    expect(
      await page.evaluate(() =>
        (window as unknown as ExampleWindow).scopeConnectExample.store.load(),
      ),
    ).toEqual(state)

    await page.evaluate(() =>
      localStorage.setItem('scope-connect:universal-link', '{"format": broken'),
    )
    expect(
      await page.evaluate(() =>
        (window as unknown as ExampleWindow).scopeConnectExample.store.load(),
      ),
    ).toBeNull()
    expect(
      await page.evaluate(() => localStorage.getItem('scope-connect:universal-link')),
    ).toBeNull()
    await page.close()
  })
})
