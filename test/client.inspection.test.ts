import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect'
import safeStableStringify from 'safe-stable-stringify'
import type { Hex } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import type { InspectionEvent } from 'xstate'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'

// What an app sees through Stately's inspector (`@statelyai/inspect`'s `createInspector` with an
// adapter that serialises each event as its WebSocket adapter does), on a real Client: a desktop
// wallet on viem keys and anvil, the real server for the balance read.

const backend = useBackendWithAnvil()

const KiB = 1024
const stringify = safeStableStringify.configure({ maximumDepth: 10 })

/** A Stately inspector whose adapter keeps every event as the text it would put on the wire. */
function capturingInspector() {
  const sent: { event: StatelyInspectionEvent; text: string }[] = []
  const inspector = createInspector({
    send: (event) => sent.push({ event, text: stringify(event) ?? '' }),
  })
  return { inspector, sent }
}

/**
 * The redaction loads on demand and the inspector defers each event (`setTimeout(0)` in Node):
 * wait for the first event, then until none arrives for a while.
 */
async function drained(sent: unknown[]) {
  await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0), { timeout: 5000 })
  let count = -1
  while (count !== sent.length) {
    count = sent.length
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A desktop connect, a signature and a balance read of the connected address, all inspected. */
async function desktopSession(
  inspect: ClientOptions['inspect'],
  seen: unknown[],
  extra: Partial<ClientOptions> = {},
) {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    timeouts: { signatureMs: 123_456, walletAnswerMs: 234_567 },
    inspect,
    ...extra,
  })
  await client.selectWallet('metamask', { namespace: 'eip155' })
  const connection = await client.connect()
  const address = connection.accounts[0] as Hex
  const signature = (await client.signMessage('Inspect me')) as string
  await client.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account: address })
  await drained(seen)
  return { address, signature }
}

async function statelySession() {
  const { inspector, sent } = capturingInspector()
  return { sent, ...(await desktopSession(inspector.inspect, sent)) }
}

describe('inspection through @statelyai/inspect: small events, secrets by value', () => {
  it('desktop connect + sign + balance read: no event over 16 KiB, 256 KiB in all', async () => {
    const { sent } = await statelySession()
    const sizes = sent.map(({ text }) => Buffer.byteLength(text))
    const total = sizes.reduce((a, b) => a + b, 0)
    console.log(
      `inspection: ${sent.length} events, largest ${(Math.max(...sizes) / KiB).toFixed(1)} KiB, total ${(total / KiB).toFixed(1)} KiB`,
    )
    expect(sent.length).toBeGreaterThan(20)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16 * KiB)
    expect(total).toBeLessThanOrEqual(256 * KiB)
  })

  it('shows the connected address and the named timeouts; never the signature', async () => {
    const { sent, address, signature } = await statelySession()
    const text = sent.map((s) => s.text).join('\n')
    expect(text).toContain(address)
    expect(text).toContain('"signatureMs":123456')
    expect(text).toContain('"walletAnswerMs":234567')
    // The root's definition, which the inspector draws, names its actions.
    expect(text).toContain('askSignature')
    expect(text).not.toContain(signature)
    expect(text).not.toContain(signature.slice(2))
    expect(text).toContain('[redacted]')
  })

  it('a plain observer gets JSON-safe events: refs as ids; keys named like secrets show as they are', async () => {
    const seen: InspectionEvent[] = []
    const { signature } = await desktopSession((event) => seen.push(event), seen)
    const refKeys = new Set(['id', 'sessionId', 'systemId'])
    const isRefView = (ref: object) => Object.keys(ref).every((key) => refKeys.has(key))
    const texts = seen.map((event) => {
      expect(isRefView(event.actorRef)).toBe(true)
      if (event.type === '@xstate.event' && event.sourceRef)
        expect(isRefView(event.sourceRef)).toBe(true)
      if ('snapshot' in event)
        for (const child of Object.values((event.snapshot as { children?: object }).children ?? {}))
          expect(isRefView(child)).toBe(true)
      return JSON.stringify(event)
    })
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(16 * KiB)
    const text = texts.join('\n')
    expect(text).not.toContain(signature)
    // What the old key-name redaction hid: a timeout, an empty signature, a token address.
    expect(text).toContain('"signatureMs":123456')
    expect(text).toContain('"signature":null')
    expect(text).toContain('"tokenAddress":"native"')
    // The ref a reader follows still gives the actor's snapshot, redacted the same way.
    const root = seen.find((e) => e.actorRef.sessionId === seen[0]?.actorRef.sessionId)
    const snapshot = JSON.stringify(root?.actorRef.getSnapshot())
    expect(snapshot).toContain('"signatureMs":123456')
    expect(snapshot).not.toContain(signature)
  })

  it('sanitizeInspection: false shows the secrets (local debugging), refs still as ids', async () => {
    const seen: InspectionEvent[] = []
    const { signature } = await desktopSession((event) => seen.push(event), seen, {
      sanitizeInspection: false,
    })
    const text = seen.map((event) => JSON.stringify(event)).join('\n')
    expect(text).toContain(signature)
    expect(text).not.toContain('[redacted]')
  })

  it('universal link: the session token and the signature are hidden, the signature count is not', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const { inspector, sent } = capturingInspector()
    const links: string[] = []
    let saved: string | null = null
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      mobile: true,
      partnerWallets: [TEST_PARTNER_WALLET],
      solanaChainId: SOLANA_DEVNET,
      inspect: inspector.inspect,
      universalLink: {
        store: {
          save: (state) => {
            saved = JSON.stringify(state)
          },
          load: () => null,
          clear: () => {},
        },
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
    const signature = await signing
    await drained(sent)
    const token = Object.values(JSON.parse(saved ?? '{}').tokens ?? {})[0] as string
    expect(token.length).toBeGreaterThan(20)
    const text = sent.map((s) => s.text).join('\n')
    expect(text).not.toContain(token)
    expect(text).not.toContain(signature)
    expect(text).toContain('"signatures":1')
    expect(Math.max(...sent.map((s) => s.text.length))).toBeLessThanOrEqual(16 * KiB)
  })
})
