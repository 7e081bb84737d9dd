import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { Browser, Page, Request } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANVIL_ACCOUNT_0 } from '../../examples/wallet-simulator/src/injected'
import { runDemoCommand } from '../../scripts/demo'
import { buildSignedMessageEnvelope } from '../../src/wire'
import { closeContexts, sharedChromium } from './support/chromium'

// `npm run demo` as a person runs it (scripts/demo.ts in its own process, on free ports: the
// backend with the sample project, a real anvil, the dApp page and the wallet simulator page),
// clicked through in real Chromium: the three flows of docs/demo.md. Every signature the dApp
// page shows is verified here: secp256k1 by recovery (viem), ed25519 over the session envelope.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The injected wallet's account (anvil's first) and the relay simulator's (anvil's second). */
const INJECTED = privateKeyToAccount(ANVIL_ACCOUNT_0)
const RELAY_WALLET = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)

let demo: ChildProcess
let output = ''
let urls: { dapp: string; wallet: string; backend: string }
let browser: Browser

/** Resolves with the URLs once the demo printed them; rejects if it exits first. */
function startDemo(): Promise<typeof urls> {
  // Ports 0 and DEV_CHAIN_PORT=0 only so parallel runs do not collide; the rest is the command.
  demo = spawn(
    'npm',
    ['run', 'demo', '--', '--port', '0', '--dapp-port', '0', '--wallet-port', '0'],
    {
      cwd: ROOT,
      env: { ...process.env, DEV_CHAIN_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npm, tsx, node and anvil stop together
    },
  )
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk
      const dapp = /dApp page:\s+(\S+)/.exec(output)?.[1]
      const wallet = /wallet simulator:\s+(\S+)/.exec(output)?.[1]
      const backend = /backend:\s+(\S+)/.exec(output)?.[1]
      if (dapp && wallet && backend) resolve({ dapp, wallet, backend })
    }
    demo.stdout?.on('data', read)
    demo.stderr?.on('data', read)
    demo.once('exit', (code) => reject(new Error(`the demo exited (${code}):\n${output}`)))
  })
}

beforeAll(async () => {
  urls = await startDemo()
  browser = await sharedChromium()
}, 90_000)

afterAll(async () => {
  await closeContexts(browser)
  if (demo?.pid !== undefined && demo.exitCode === null) {
    const exited = once(demo, 'exit')
    process.kill(-demo.pid, 'SIGTERM')
    await exited
  }
})

/** The page's Client view (what the connect button renders). */
interface PageView {
  isConnected: boolean
  address: string | null
  pairingUri: string | null
}

/**
 * How the waits below ask the page: every 50 ms, not on every frame (Playwright's default), which
 * keeps headless Chromium drawing 60 frames a second for as long as a wait lasts.
 */
const WAITING = { polling: 50, timeout: 20_000 }

/** Waits until the Client view of the dApp page satisfies `check`; returns it. */
async function viewOf(page: Page, check: string): Promise<PageView> {
  await page.waitForFunction(
    (check) => {
      // After a navigation back the page's script may not have run yet.
      const example = (window as unknown as Partial<ExampleWindow>).scopeConnectExample
      return example && new Function('view', `return ${check}`)(example.client.getView())
    },
    check,
    WAITING,
  )
  return page.evaluate(() =>
    (window as unknown as ExampleWindow).scopeConnectExample.client.getView(),
  )
}

type ExampleWindow = { scopeConnectExample: { client: { getView(): PageView } } }

/** Waits until the element's text (or a textarea's value) satisfies `check`; returns it. */
async function textOf(page: Page, id: string, check: string | RegExp): Promise<string> {
  const pattern =
    typeof check === 'string' ? `^${check.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : check.source
  await page.waitForFunction(
    ([id, pattern]) => {
      const element = document.getElementById(id) as HTMLTextAreaElement | null
      const text = element?.tagName === 'TEXTAREA' ? element.value : (element?.textContent ?? '')
      return new RegExp(pattern).test(text)
    },
    [id, pattern] as const,
    WAITING,
  )
  return page.$eval(`#${id}`, (element) =>
    element.tagName === 'TEXTAREA'
      ? (element as HTMLTextAreaElement).value
      : (element.textContent ?? ''),
  )
}

/** The signature the dApp page shows (in full in `data-signature`), once it does. */
async function signatureOf(page: Page): Promise<Hex> {
  await page.waitForSelector('#signature[data-signature]', { timeout: 20_000 })
  return (await page.getAttribute('#signature', 'data-signature')) as Hex
}

async function openDapp(query = ''): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(`${urls.dapp}${query}`)
  await page.waitForSelector('body[data-ready]')
  return page
}

/** Opens the connect modal and picks `wallet` in its list. */
async function choose(page: Page, wallet: RegExp) {
  await page.getByRole('button', { name: 'Connect wallet' }).click()
  await page.getByRole('button', { name: wallet }).click()
}

/** The modal's live status line. */
const modalStatus = (page: Page) => page.locator('scope-connect-modal [role="status"]')

describe('npm run demo in Chromium', () => {
  it('prints the URLs of the dApp page, the wallet simulator page and the backend', async () => {
    expect(urls.dapp).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(urls.wallet).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const health = await fetch(`${urls.backend}/api/v1/connect/config`, {
      headers: { 'x-app-key': 'sample-app-key' },
    })
    expect(health.status).toBe(200)
    expect(output).toMatch(/dev chain:\s+http:\/\/127\.0\.0\.1:\d+ \(eip155:31337\)/)
  })

  it('desktop: the injected test-key wallet connects from the modal and signs; Connect gives way to the account chip', async () => {
    const page = await openDapp()
    expect(await page.isDisabled('#sign')).toBe(true)
    await choose(page, /Wallet Simulator \(test key\)/)
    expect((await viewOf(page, 'view.isConnected')).address).toBe(INJECTED.address)
    expect(await page.getByRole('button', { name: 'Connect wallet' }).count()).toBe(0)
    await expect
      .poll(() => page.getByRole('button', { name: /^Account/ }).textContent())
      .toMatch(/0xf39F…2266.*\d ETH/)

    await page.click('#sign')
    const signature = await signatureOf(page)
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(
      await verifyMessage({ address: INJECTED.address, message: 'Hello from the dApp', signature }),
    ).toBe(true)
    // A short form on the page, not the raw hex.
    expect(await page.textContent('#signature code')).toBe(
      `${signature.slice(0, 6)}…${signature.slice(-4)}`,
    )
    await page.close()
  })

  it('phone version: the universal link opens the wallet page, which calls back and returns; resume() finishes', async () => {
    const page = await openDapp('?mobile=1')
    const callbacks: Request[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/v1/connect/callback/'))
        callbacks.push(request)
    })

    // Connect: to the wallet page with the sc* parameters, approve, back to the reloaded dApp.
    await choose(page, /Scope Test Wallet/)
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    expect(await textOf(page, 'link-method', 'connect')).toBe('connect')
    const walletAddress = await textOf(page, 'solana-address', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    const connectLink = new URL(page.url())
    expect(connectLink.searchParams.get('scReturnUrl')).toBe(`${urls.dapp}?mobile=1`)
    await page.click('#link-approve')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    expect((await viewOf(page, 'view.isConnected')).address).toBe(walletAddress)

    // Sign: the same round trip; the wallet signs the session envelope with its ed25519 key.
    await page.click('#sign')
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    expect(await textOf(page, 'link-method', 'signMessage')).toBe('signMessage')
    const signLink = new URL(page.url()).searchParams
    await page.click('#link-approve')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    const signature = await signatureOf(page)
    expect((await viewOf(page, 'view.isConnected')).address).toBe(walletAddress)

    const [connect, sign] = callbacks
    expect(callbacks.map((c) => new URL(c.url()).pathname)).toEqual([
      '/api/v1/connect/callback/connect',
      '/api/v1/connect/callback/sign',
    ])
    // Each callback carries the nonce of its link (the callback binding of the backend).
    expect(await connect?.headerValue('x-session-nonce')).toBe(
      connectLink.searchParams.get('scNonce'),
    )
    expect(await sign?.headerValue('x-session-nonce')).toBe(signLink.get('scNonce'))
    const body = sign?.postDataJSON() as { signature: string; timestamp: number }
    expect(body.signature).toBe(signature)
    const envelope = buildSignedMessageEnvelope(
      signLink.get('scSessionId') ?? '',
      signLink.get('scNonce') ?? '',
      walletAddress,
      body.timestamp,
    )
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode(envelope),
        base58.decode(walletAddress),
      ),
    ).toBe(true)
    await page.close()
  })

  it('QR pairing: the wallet page pairs from the copied link, approves and answers personal_sign; the session survives a reload, Disconnect ends it', async () => {
    const dapp = await openDapp()
    await choose(dapp, /Other wallet/)
    const { pairingUri: uri } = await viewOf(dapp, 'view.pairingUri !== null')
    expect(uri).toMatch(/^scope:[0-9a-f]{64}@1\?/)
    await expect
      .poll(() => dapp.getByRole('img', { name: 'Pairing QR code' }).innerHTML())
      .toMatch(/^<svg/)

    const wallet = await browser.newPage()
    await wallet.goto(urls.wallet)
    await wallet.fill('#pair-uri', uri ?? '')
    await wallet.click('#pair')
    expect(await textOf(wallet, 'proposal-name', /./)).toBe('scope-connect example dApp')
    expect(await textOf(wallet, 'proposal-chains', /./)).toBe('eip155:31337')
    await wallet.click('#proposal-approve')
    await textOf(wallet, 'pair-status', /^paired/)
    // Paired: the modal closes, the used pairing URI is gone, the chip shows the account.
    const paired = await viewOf(dapp, 'view.isConnected')
    expect(paired.address).toBe(RELAY_WALLET.address)
    expect(paired.pairingUri).toBeNull()
    expect(await dapp.getByRole('img', { name: 'Pairing QR code' }).count()).toBe(0)

    await dapp.click('#sign')
    await wallet.click('#requests button.approve')
    const signature = await signatureOf(dapp)
    expect(
      await verifyMessage({
        address: RELAY_WALLET.address,
        message: 'Hello from the dApp',
        signature,
      }),
    ).toBe(true)
    expect(await wallet.textContent('#requests')).toContain('personal_sign: "Hello from the dApp"')

    // The session survives a reload of the dApp page (client.resume() from localStorage).
    await dapp.reload()
    await dapp.waitForSelector('body[data-ready]')
    const resumed = await viewOf(dapp, 'view.isConnected')
    expect(resumed.address).toBe(RELAY_WALLET.address)
    expect(resumed.pairingUri).toBeNull()
    await dapp.click('#sign')
    await wallet.click('#requests li:nth-child(2) button.approve')
    const again = await signatureOf(dapp)
    expect(
      await verifyMessage({
        address: RELAY_WALLET.address,
        message: 'Hello from the dApp',
        signature: again,
      }),
    ).toBe(true)

    // Disconnect (the account chip's modal) tells the wallet, and a reload finds nothing to restore.
    await dapp.getByRole('button', { name: /^Account/ }).click()
    await dapp.getByRole('button', { name: 'Disconnect' }).click()
    await dapp.getByRole('button', { name: 'Connect wallet' }).waitFor()
    await textOf(wallet, 'pair-status', 'the dApp ended the session')
    await dapp.reload()
    await dapp.waitForSelector('body[data-ready]')
    expect((await viewOf(dapp, 'true')).isConnected).toBe(false)
    expect(await dapp.getByRole('button', { name: 'Connect wallet' }).count()).toBe(1)
    await wallet.close()
    await dapp.close()
  })
})

describe('npm run demo in Chromium: the user says no', () => {
  it('a universal link rejected on the wallet page: back on the dApp, the modal says so and offers to retry', async () => {
    const page = await openDapp('?mobile=1')
    await choose(page, /Scope Test Wallet/)
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    await page.click('#link-reject')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    await expect
      .poll(() => modalStatus(page).textContent(), { timeout: 20_000 })
      .toBe('Scope Test Wallet rejected the request')
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1)
    expect((await viewOf(page, 'true')).isConnected).toBe(false)
    await page.close()
  })

  it('a rejected request and a rejected proposal reach the dApp page as USER_REJECTED', async () => {
    const dapp = await openDapp()
    const wallet = await browser.newPage()
    await wallet.goto(urls.wallet)

    await choose(dapp, /Other wallet/)
    await wallet.fill(
      '#pair-uri',
      (await viewOf(dapp, 'view.pairingUri !== null')).pairingUri ?? '',
    )
    await wallet.click('#pair')
    await wallet.click('#proposal-approve')
    expect((await viewOf(dapp, 'view.isConnected')).address).toBe(RELAY_WALLET.address)
    await dapp.click('#sign')
    await wallet.click('#requests button.reject')
    await expect.poll(() => dapp.getAttribute('#signature', 'data-error')).toBe('USER_REJECTED')
    expect(await dapp.textContent('#signature')).toBe('You rejected the request in the wallet.')

    // A second pairing, whose proposal the wallet rejects: the modal's rejected screen.
    await dapp.getByRole('button', { name: /^Account/ }).click()
    await dapp.getByRole('button', { name: 'Disconnect' }).click()
    await choose(dapp, /Other wallet/)
    await wallet.fill(
      '#pair-uri',
      (await viewOf(dapp, 'view.pairingUri !== null')).pairingUri ?? '',
    )
    await wallet.click('#pair')
    await textOf(wallet, 'pair-status', 'the dApp asks to connect')
    await wallet.click('#proposal-reject')
    await expect.poll(() => modalStatus(dapp).textContent()).toBe('The wallet rejected the request')
    expect((await viewOf(dapp, 'true')).isConnected).toBe(false)
    await wallet.close()
    await dapp.close()
  })
})

/**
 * `npm run demo -- …args` beside the running one, in this process: the command's own code
 * (`runDemoCommand`, which `npm run demo` runs), without a second npm, tsx and module load per
 * case; the command as a person types it is the one started above. Resolves with what it printed
 * and its exit code: 1 when it could not start, null when it started (it is stopped then).
 */
async function runAnotherDemo(args: string[]): Promise<{ output: string; code: number | null }> {
  let output = ''
  const printed = { write: (text: string) => (output += text) }
  const demo = await runDemoCommand(args, { ...process.env, DEV_CHAIN_PORT: '0' }, printed, printed)
  await demo?.close()
  return { output, code: demo ? null : 1 }
}

// Concurrent: each test runs its own demo (ports 0, or a port the running demo holds); assertions
// use the test's own `expect`.
describe.concurrent('npm run demo when a port is taken', () => {
  it('the backend port of a running backend: says how to reuse it or move, and exits 1', async ({
    expect,
  }) => {
    const port = new URL(urls.backend).port
    const { output, code } = await runAnotherDemo([
      '--port',
      port,
      '--dapp-port',
      '0',
      '--wallet-port',
      '0',
    ])
    expect(code).toBe(1)
    expect(output).toContain(`demo: port ${port} is taken`)
    expect(output).toContain(`npm run demo -- --backend http://127.0.0.1:${port}`)
    expect(output).toContain('npm run demo -- --port 0')
    expect(output).not.toContain('EADDRINUSE')
  })

  it('--backend reuses the running backend: the pages start and talk to it', async ({ expect }) => {
    const { output } = await runAnotherDemo([
      '--backend',
      urls.backend,
      '--dapp-port',
      '0',
      '--wallet-port',
      '0',
    ])
    expect(output).toMatch(new RegExp(`backend:\\s+${urls.backend.replace(/\./g, '\\.')} `))
    expect(output).toMatch(/dev chain:\s+the running backend's/)
    expect(output).toMatch(/dApp page:\s+http:\/\/127\.0\.0\.1:\d+\//)
  })

  it('the dApp page port: names --dapp-port; a backend that is not there: says so', async ({
    expect,
  }) => {
    const taken = await runAnotherDemo([
      '--backend',
      urls.backend,
      '--dapp-port',
      new URL(urls.dapp).port,
      '--wallet-port',
      '0',
    ])
    expect(taken.code).toBe(1)
    expect(taken.output).toContain('(the dApp page) is taken')
    expect(taken.output).toContain('npm run demo -- --dapp-port 0')
    const missing = await runAnotherDemo(['--backend', 'http://127.0.0.1:9', '--dapp-port', '0'])
    expect(missing.code).toBe(1)
    expect(missing.output).toContain('no backend answers at http://127.0.0.1:9')
  })
})
