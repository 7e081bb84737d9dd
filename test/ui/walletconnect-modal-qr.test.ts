// @vitest-environment happy-dom-node
import { recoverMessageAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { createMemoryTransactionStore } from '../../src/transaction'
import { defineConnectElements } from '../../src/ui'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { rasterizeQrSvg, readQr } from '../support/qr-image'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from '../support/walletconnect-relay-double'
import {
  startWalletConnectWallet,
  TEST_DAPP_METADATA,
  type TestWalletConnectWallet,
  testWalletConnectOptions,
} from '../support/walletconnect-wallet'

// Issue 26 item 1 in Node: the connect modal (happy-dom) with a Client on its `walletConnect`
// option; the real sign-client wallet pairs from the URI READ OFF THE MODAL'S QR CODE (its SVG,
// painted module by module and decoded with jsQR, test/support/qr-image.ts), then the page signs
// and sends on anvil, watched through the real backend. Chromium: test/browser/walletconnect.browser.test.ts.

const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil()
let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet

beforeAll(async () => {
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url, rpcUrl: backend.anvil.rpcUrl })
  wallet.chains = [CHAIN]
})
afterEach(() => {
  wallet.proposals = 'approve'
  wallet.requests = 'approve'
})
afterAll(async () => {
  await wallet?.close()
  await relay?.close()
})

async function until<T>(read: () => T | null | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = read()
    if (value !== null && value !== undefined) return value
    if (Date.now() > end) throw new Error(`never: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

type Modal = HTMLElement & { client: unknown; open(): void }

/** A Client on the `walletConnect` option in an open modal; the modal's shadow root. */
async function openModal(): Promise<{ client: Client; modal: Modal; root: ShadowRoot }> {
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: false,
    connectionStore: null,
    transactions: { store: createMemoryTransactionStore() },
    walletConnect: testWalletConnectOptions(relay.url, [CHAIN], {
      metadata: { ...TEST_DAPP_METADATA, url: location.origin },
    }),
  })
  defineConnectElements()
  const modal = document.createElement('scope-connect-modal') as Modal
  document.body.append(modal)
  modal.client = client
  const root = await until(() => modal.shadowRoot, 'the modal mounted') // a lazy chunk
  modal.open()
  return { client, modal, root }
}

const button = (root: ShadowRoot, name: RegExp) =>
  [...root.querySelectorAll('button')].find((b) => name.test(b.textContent ?? '')) ?? null

/** The URI read off the modal's QR code (its SVG painted and decoded with jsQR), once it differs from `previous`. */
function scannedUri(root: ShadowRoot, previous?: string): Promise<string> {
  return until(() => {
    const svg = root.querySelector('[aria-label="Pairing QR code"]')?.innerHTML
    const uri = svg ? readQr(rasterizeQrSvg(svg, 0.5)) : null
    return uri !== previous ? uri : null
  }, 'a new QR code')
}

describe('WalletConnect through the modal in Node (happy-dom)', () => {
  it('the wallet pairs from the QR code decoded off the modal; the Client signs and sends on anvil', async () => {
    const { client, modal, root } = await openModal()
    ;(await until(() => button(root, /WalletConnect/), 'the WalletConnect row')).click()
    const uri = await scannedUri(root)
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?.*symKey=[0-9a-f]{64}/)
    expect(uri).toBe(client.getView().pairingUri)
    await wallet.pair(uri)
    await until(() => (client.getView().isConnected ? true : null), 'connected')
    expect(client.getView().address).toBe(wallet.account.address)
    const signature = await client.signMessage('hello from the modal')
    expect(
      await recoverMessageAddress({
        message: 'hello from the modal',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.account.address)
    const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
    expect((await handle.wait()).status).toBe('confirmed')
    await client.disconnect()
    modal.remove()
  }, 60_000)

  it('the wallet rejects the proposal: the modal says so, "Try again" shows a NEW code the wallet pairs from; a rejected signature, then the next one works', async () => {
    const { client, modal, root } = await openModal()
    wallet.proposals = 'reject'
    ;(await until(() => button(root, /WalletConnect/), 'the WalletConnect row')).click()
    const first = await scannedUri(root)
    await wallet.pair(first)
    await until(
      () => (/rejected the request/.test(root.textContent ?? '') ? true : null),
      'the rejection shown',
    )
    expect(client.getView().error?.code).toBe('USER_REJECTED')
    wallet.proposals = 'approve'
    ;(button(root, /Try again/) as HTMLButtonElement).click()
    const second = await scannedUri(root, first)
    expect(second).toBe(client.getView().pairingUri)
    await wallet.pair(second)
    await until(() => (client.getView().isConnected ? true : null), 'connected')
    wallet.requests = 'reject'
    await expect(client.signMessage('no')).rejects.toMatchObject({ code: 'USER_REJECTED' })
    wallet.requests = 'approve'
    const signature = await client.signMessage('yes')
    expect(
      await recoverMessageAddress({ message: 'yes', signature: signature as `0x${string}` }),
    ).toBe(wallet.account.address)
    await client.disconnect()
    modal.remove()
  }, 60_000)
})
