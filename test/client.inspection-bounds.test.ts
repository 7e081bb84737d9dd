import { createInspector } from '@statelyai/inspect'
import safeStableStringify from 'safe-stable-stringify'
import type { Hex } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import { createActor, createMachine, type InspectionEvent } from 'xstate'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import { createRedactingInspector } from '../machines/client/client.redact'
import { sanitizeInspectionEvent } from '../machines/shared/inspect'
import { MAX_INSPECTION_EVENT_BYTES } from '../machines/shared/inspection-view'
import { createSecretRegistry } from '../machines/shared/secret-registry'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, SIGN_MESSAGE_MAX_LENGTH } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'

// Issue 27, findings 6 and 9 and "What to build" 7: inspection is bounded whatever the message
// size — a settled request leaves the root context, each event is at most 16 KiB with large values
// summarised (length and hash) — and the universal-link session nonce is redacted like every
// other credential. Measured through @statelyai/inspect on a real Client: the server on anvil, a
// wallet on viem keys, the reference universal-link wallet.

const backend = useBackendWithAnvil()
const KiB = 1024
const stringify = safeStableStringify.configure({ maximumDepth: 10 })

function capturingInspector() {
  const sent: { text: string }[] = []
  const inspector = createInspector({
    send: (event) => sent.push({ text: stringify(event) ?? '' }),
  })
  return { inspector, sent }
}

async function drained(sent: unknown[]) {
  await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 5000 })
  let count = -1
  while (count !== sent.length) {
    count = sent.length
    await new Promise((r) => setTimeout(r, 50))
  }
}

const sizes = (sent: { text: string }[]) => sent.map(({ text }) => Buffer.byteLength(text))
const figures = (label: string, sent: { text: string }[]) => {
  const all = sizes(sent)
  const total = all.reduce((a, b) => a + b, 0)
  console.log(
    `${label}: ${sent.length} events, largest ${(Math.max(...all) / KiB).toFixed(1)} KiB, total ${(total / KiB).toFixed(1)} KiB`,
  )
  return { largest: Math.max(...all), total }
}

async function desktop(message: string) {
  const { inspector, sent } = capturingInspector()
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    connectionStore: null,
    inspect: inspector.inspect,
  })
  await client.selectWallet('metamask', { namespace: 'eip155' })
  const address = (await client.connect()).accounts[0] as Hex
  await client.signMessage(message)
  await drained(sent)
  const afterSign = sent.length
  await client.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account: address })
  await drained(sent)
  return { client, sent, afterSign }
}

describe('inspection bounded whatever the message size (finding 6)', () => {
  it('error: the longest message (65,536 characters) — every event ≤ 16 KiB; the balance read after it carries none of it', async () => {
    const message = 'm'.repeat(SIGN_MESSAGE_MAX_LENGTH)
    const { client, sent, afterSign } = await desktop(message)
    const { largest, total } = figures('65,536-character signature', sent)
    expect(largest).toBeLessThanOrEqual(16 * KiB)
    expect(total).toBeLessThanOrEqual(256 * KiB)
    // The settled request left the root context: the read's events do not summarise it either.
    expect(client.actor.getSnapshot().context.sign).toBeNull()
    const read = sent.slice(afterSign).map((s) => s.text)
    expect(read.length).toBeGreaterThan(0)
    for (const text of read) {
      expect(text).not.toContain('m'.repeat(64))
      expect(text).not.toContain(`${SIGN_MESSAGE_MAX_LENGTH} chars`)
    }
    expect(Math.max(...read.map((t) => Buffer.byteLength(t)))).toBeLessThanOrEqual(12 * KiB)
  })

  it('behavior: the baseline session (connect + sign + balance), measured for docs/statecharts.md', async () => {
    const { sent } = await desktop('Inspect me')
    const { largest, total } = figures('baseline connect + sign + balance', sent)
    expect(largest).toBeLessThanOrEqual(16 * KiB)
    expect(total).toBeLessThanOrEqual(96 * KiB)
  })

  it('behavior: a large value shows as its length and a hash; an event of many mid-sized strings is bounded too', () => {
    const machine = createMachine({
      context: {
        big: 'x'.repeat(1_000_000),
        many: Array.from({ length: 60 }, (_, i) => `${i}`.padEnd(900, 'y')),
      },
    })
    const seen: InspectionEvent[] = []
    const actor = createActor(machine, { inspect: (event) => seen.push(event) })
    actor.start()
    for (const event of seen) {
      for (const view of [
        sanitizeInspectionEvent(event),
        (() => {
          let out: InspectionEvent | undefined
          createRedactingInspector((e) => {
            out = e
          }, createSecretRegistry())(event)
          return out
        })(),
      ]) {
        const text = JSON.stringify(view)
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_INSPECTION_EVENT_BYTES)
        if (event.type === '@xstate.snapshot')
          expect(text).toMatch(/\[string: 1000000 chars, sha256 [0-9a-f]{16}\]/)
      }
    }
    actor.stop()
  })

  it('behavior: the bound counts UTF-8 bytes — 10 strings of 900 "€" (9,000 characters, 27,000 bytes) are summarised, 900 "e" each are not', () => {
    const shown = (char: string) => {
      const machine = createMachine({
        context: { many: Array.from({ length: 10 }, () => char.repeat(900)) },
      })
      const seen: InspectionEvent[] = []
      createActor(machine, {
        inspect: createRedactingInspector((e) => seen.push(e), createSecretRegistry()),
      })
        .start()
        .stop()
      const text = JSON.stringify(seen.find((e) => e.type === '@xstate.snapshot'))
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_INSPECTION_EVENT_BYTES)
      return text
    }
    expect(shown('€')).not.toContain('€'.repeat(900))
    expect(shown('€')).toMatch(/\[string: 900 chars, sha256 [0-9a-f]{16}\]/)
    expect(shown('e')).toContain('e'.repeat(900))
  })
})

describe('the universal-link nonce is a credential (finding 9)', () => {
  it('error: the session nonce never reaches the inspector (connect and sign over a universal link)', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { inspector, sent } = capturingInspector()
    const links: string[] = []
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      connectionStore: null,
      inspect: inspector.inspect,
      universalLink: {
        store: { save: () => {}, load: () => null, clear: () => {} },
        openLink: (url: string) => links.push(url),
        returnUrl: 'https://dapp.example/',
        pollIntervalMs: 20,
      },
    })
    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connecting = client.connect()
    await vi.waitFor(() => expect(links).toHaveLength(1))
    await wallet.handle(links[0] ?? '')
    await connecting
    const signing = client.signMessage('x')
    await vi.waitFor(() => expect(links).toHaveLength(2))
    await wallet.handle(links[1] ?? '')
    await signing
    await drained(sent)
    const nonce = new URL(links[0] ?? '').searchParams.get('scNonce') ?? ''
    expect(nonce.length).toBeGreaterThanOrEqual(16)
    const leaking = sent.filter(({ text }) => text.includes(nonce))
    expect(leaking.length, `${leaking.length} of ${sent.length} events carry the nonce`).toBe(0)
    figures('universal link: connect + sign', sent)
  })

  it('behavior: the standalone factories hide a `nonce` by key', () => {
    const machine = createMachine({ context: { session: { nonce: 'n-0123456789abcdef' } } })
    const seen: InspectionEvent[] = []
    const actor = createActor(machine, { inspect: (event) => seen.push(event) })
    actor.start()
    const text = seen.map((e) => JSON.stringify(sanitizeInspectionEvent(e))).join('\n')
    expect(text).not.toContain('n-0123456789abcdef')
    expect(text).toContain('[redacted]')
    actor.stop()
  })
})
