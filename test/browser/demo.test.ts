import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { type Browser, chromium, type Page, type Request } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANVIL_ACCOUNT_0 } from '../../examples/wallet-simulator/src/injected'
import { buildSignedMessageEnvelope } from '../../src/wire'

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
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  })
}, 90_000)

afterAll(async () => {
  await browser?.close()
  if (demo?.pid !== undefined && demo.exitCode === null) {
    const exited = once(demo, 'exit')
    process.kill(-demo.pid, 'SIGTERM')
    await exited
  }
})

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
    { timeout: 20_000 },
  )
  return page.$eval(`#${id}`, (element) =>
    element.tagName === 'TEXTAREA'
      ? (element as HTMLTextAreaElement).value
      : (element.textContent ?? ''),
  )
}

async function openDapp(): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(urls.dapp)
  await textOf(page, 'status', 'ready')
  return page
}

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

  it('1. desktop: the injected test-key wallet connects through the Client and signs', async () => {
    const page = await openDapp()
    await page.click('button[data-rdns="org.scope-connect.wallet-simulator"]')
    await textOf(page, 'status', 'connected')
    expect(await textOf(page, 'account', /^0x/)).toBe(INJECTED.address)

    await page.click('#sign')
    const signature = (await textOf(page, 'signature', /^0x[0-9a-f]{130}$/)) as Hex
    expect(
      await verifyMessage({ address: INJECTED.address, message: 'Hello from the dApp', signature }),
    ).toBe(true)
    await page.close()
  })

  it('2. mobile: the universal link opens the wallet page, which calls back and returns; resume() finishes', async () => {
    const page = await openDapp()
    const callbacks: Request[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/v1/connect/callback/'))
        callbacks.push(request)
    })

    // Connect: to the wallet page with the sc* parameters, approve, back to the reloaded dApp.
    await page.click('#ul-connect')
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    expect(await textOf(page, 'link-method', 'connect')).toBe('connect')
    const walletAddress = await textOf(page, 'solana-address', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    const connectLink = new URL(page.url())
    expect(connectLink.searchParams.get('scReturnUrl')).toBe(urls.dapp)
    await page.click('#link-approve')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    await textOf(page, 'ul-status', 'connected')
    expect(await textOf(page, 'ul-account', /./)).toBe(walletAddress)

    // Sign: the same round trip; the wallet signs the session envelope with its ed25519 key.
    await page.click('#ul-sign')
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    expect(await textOf(page, 'link-method', 'signMessage')).toBe('signMessage')
    const signLink = new URL(page.url()).searchParams
    await page.click('#link-approve')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    await textOf(page, 'ul-status', 'signed')
    expect(await textOf(page, 'ul-account', /./)).toBe(walletAddress)
    const signature = await textOf(page, 'ul-signature', /./)

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

  it('3. QR pairing: the wallet page pairs from the pasted URI, approves and answers personal_sign; the session survives a reload', async () => {
    const dapp = await openDapp()
    await dapp.click('#pair')
    const uri = await textOf(dapp, 'pair-uri', /^scope:[0-9a-f]{64}@1\?/)
    expect(await dapp.$eval('#pair-qr', (element) => element.innerHTML)).toMatch(/^<svg/)
    await textOf(dapp, 'pair-status', 'awaitingApproval')

    const wallet = await browser.newPage()
    await wallet.goto(urls.wallet)
    await wallet.fill('#pair-uri', uri)
    await wallet.click('#pair')
    expect(await textOf(wallet, 'proposal-name', /./)).toBe('scope-connect example dApp')
    expect(await textOf(wallet, 'proposal-chains', /./)).toBe('eip155:31337')
    await wallet.click('#proposal-approve')
    await textOf(wallet, 'pair-status', /^paired/)
    expect(await textOf(dapp, 'pair-account', /^0x/)).toBe(RELAY_WALLET.address)
    await textOf(dapp, 'pair-status', 'paired')

    await dapp.click('#pair-sign')
    await wallet.click('#requests button.approve')
    const signature = (await textOf(dapp, 'pair-signature', /^0x[0-9a-f]{130}$/)) as Hex
    expect(
      await verifyMessage({
        address: RELAY_WALLET.address,
        message: 'Hello over the relay',
        signature,
      }),
    ).toBe(true)
    expect(await wallet.textContent('#requests')).toContain('personal_sign: "Hello over the relay"')

    // The session survives a reload of the dApp page (client.resume() from localStorage).
    await dapp.reload()
    await textOf(dapp, 'pair-status', 'paired')
    expect(await textOf(dapp, 'pair-account', /^0x/)).toBe(RELAY_WALLET.address)
    expect(await dapp.inputValue('#pair-uri')).toBe('')
    await dapp.click('#pair-sign')
    await wallet.click('#requests li:nth-child(2) button.approve')
    const again = (await textOf(dapp, 'pair-signature', /^0x[0-9a-f]{130}$/)) as Hex
    expect(
      await verifyMessage({
        address: RELAY_WALLET.address,
        message: 'Hello over the relay',
        signature: again,
      }),
    ).toBe(true)

    // Disconnect tells the wallet, and a reload finds nothing to restore.
    await dapp.click('#pair-disconnect')
    await textOf(dapp, 'pair-status', 'disconnected')
    await textOf(wallet, 'pair-status', 'the dApp ended the session')
    await dapp.reload()
    await textOf(dapp, 'status', 'ready')
    expect(await dapp.textContent('#pair-status')).toBe('idle')
    await wallet.close()
    await dapp.close()
  })
})

describe('npm run demo in Chromium: the user says no', () => {
  it('a universal link rejected on the wallet page: resume() reports USER_REJECTED', async () => {
    const page = await openDapp()
    await page.click('#ul-connect')
    await page.waitForURL((url) => url.href.startsWith(urls.wallet), { timeout: 20_000 })
    await page.click('#link-reject')
    await page.waitForURL((url) => url.href.startsWith(urls.dapp), { timeout: 20_000 })
    expect(await textOf(page, 'ul-status', /^rejected/)).toBe('rejected: USER_REJECTED')
    expect(await page.textContent('#ul-account')).toBe('')
    await page.close()
  })

  it('a rejected request and a rejected proposal reach the dApp page as USER_REJECTED', async () => {
    const dapp = await openDapp()
    const wallet = await browser.newPage()
    await wallet.goto(urls.wallet)

    await dapp.click('#pair')
    await wallet.fill('#pair-uri', await textOf(dapp, 'pair-uri', /^scope:/))
    await wallet.click('#pair')
    await wallet.click('#proposal-approve')
    expect(await textOf(dapp, 'pair-account', /^0x/)).toBe(RELAY_WALLET.address)
    await dapp.click('#pair-sign')
    await wallet.click('#requests button.reject')
    expect(await textOf(dapp, 'pair-signature', /^error/)).toBe('error: USER_REJECTED')

    // A second pairing, whose proposal the wallet rejects.
    await dapp.click('#pair')
    await wallet.fill('#pair-uri', await textOf(dapp, 'pair-uri', /^scope:/))
    await wallet.click('#pair')
    await textOf(wallet, 'pair-status', 'the dApp asks to connect')
    await wallet.click('#proposal-reject')
    expect(await textOf(dapp, 'pair-status', /^error/)).toBe('error: USER_REJECTED')
    expect(await dapp.textContent('#pair-account')).toBe('')
    await wallet.close()
    await dapp.close()
  })
})
