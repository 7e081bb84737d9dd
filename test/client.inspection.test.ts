import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect'
import safeStableStringify from 'safe-stable-stringify'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { type RunningAnvil, startAnvil } from './support/anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'

// What an app sees through Stately's inspector (`@statelyai/inspect`'s `createInspector` with an
// adapter that serialises each event as its WebSocket adapter does), on a real Client: a desktop
// wallet on viem keys and anvil, the real server for the balance read.

let anvil: RunningAnvil
let server: TestServer

beforeAll(async () => {
  anvil = await startAnvil()
  server = await startTestServer({
    projects: {
      projects: [
        { ...TEST_PROJECT, networks: [{ chainId: 'eip155:31337', rpcUrl: anvil.rpcUrl }] },
      ],
    },
  })
})
afterAll(async () => {
  await server?.close()
  await anvil?.stop()
})

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

async function desktopSession(extra: Partial<ClientOptions> = {}) {
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  const { inspector, sent } = capturingInspector()
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    timeouts: { signatureMs: 123_456, walletAnswerMs: 234_567 },
    inspect: inspector.inspect,
    ...extra,
  })
  await client.selectWallet('metamask', { namespace: 'eip155' })
  const connection = await client.connect()
  const address = connection.accounts[0] as Hex
  const signature = (await client.signMessage('Inspect me')) as string
  await client.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account: address })
  await drained(sent)
  return { sent, address, signature }
}

describe('inspection through @statelyai/inspect: small events, secrets by value', () => {
  it('desktop connect + sign + balance read: no event over 16 KiB, 256 KiB in all', async () => {
    const { sent } = await desktopSession()
    const sizes = sent.map(({ text }) => text.length)
    const total = sizes.reduce((a, b) => a + b, 0)
    console.log(
      `inspection: ${sent.length} events, largest ${(Math.max(...sizes) / KiB).toFixed(1)} KiB, total ${(total / KiB).toFixed(1)} KiB`,
    )
    expect(sent.length).toBeGreaterThan(20)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16 * KiB)
    expect(total).toBeLessThanOrEqual(256 * KiB)
  })

  it('shows the connected address and the named timeouts; never the signature', async () => {
    const { sent, address, signature } = await desktopSession()
    const text = sent.map((s) => s.text).join('\n')
    expect(text).toContain(address)
    expect(text).toContain('"signatureMs":123456')
    expect(text).toContain('"walletAnswerMs":234567')
    expect(text).not.toContain(signature)
    expect(text).not.toContain(signature.slice(2))
    expect(text).toContain('[redacted]')
  })
})
