// Issue 30 (the bugs lane's finding): a relay request the dApp gave up on — its signature timed out
// on the root (`signatureMs`) or the app called `cancel()` — kept the pairing waiting for it until
// the pairing's own `requestTimeout` (300 s), so the next signature was queued behind it and timed
// out too. The real backend and relay (startTestServer), a wallet on the real relay with a real
// viem key (the answering relay wallet) that holds an answer until the test lets it go.
import { type Hex, recoverMessageAddress, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { Client } from '../../src/client'
import { setConsoleLogging, setDebugMode } from '../../src/logging'
import type { WebSocketConstructor } from '../../src/relay/client/websocket'
import { createAnsweringRelayWallet } from '../relay/support/answering-relay-wallet'
import { DAPP_METADATA } from '../relay/support/pairing-setup'
import { failure, useRelayServer } from '../relay/support/relay-faults'

const CHAIN = 'eip155:31337'
const SIGNATURE_MS = 1_500
const evm = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)

const server = useRelayServer()

/**
 * A paired Client and a wallet that signs every message at once, except `held` ones: their
 * signature waits until `release(message)` (a wallet that answers late, or never).
 */
async function pairedWithWallet(held: string[]) {
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    timeouts: { signatureMs: SIGNATURE_MS },
  })
  const releases = new Map<string, () => void>()
  const wallet = createAnsweringRelayWallet({
    appKey: server.appKey,
    namespaces: () => ({
      eip155: {
        accounts: [`${CHAIN}:${evm.address}`],
        chains: [CHAIN],
        methods: ['personal_sign'],
      },
    }),
    answer: async ({ params }) => {
      const raw = (params as [Hex])[0]
      const held_ = held.find((message) => stringToHex(message) === raw)
      if (held_ !== undefined) await new Promise<void>((resolve) => releases.set(held_, resolve))
      return evm.signMessage({ message: { raw } })
    },
  })
  const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
  await wallet.pairAndApprove(flow.uri as string)
  await flow.approval
  const received = () => wallet.requests.map(({ params }) => (params as [Hex])[0])
  return {
    client,
    wallet,
    received,
    /** Lets the wallet send its (late) signature of `message`. */
    release: (message: string) => releases.get(message)?.(),
    close() {
      for (const release of releases.values()) release()
      wallet.close()
      client.actor.stop()
    },
  }
}

/** The next signature goes out at once and is answered within `signatureMs`. */
async function expectNextSignatureWorks(client: Client, message: string) {
  const started = Date.now()
  const signature = (await client.signMessage(message)) as Hex
  expect(Date.now() - started).toBeLessThan(SIGNATURE_MS)
  expect(await recoverMessageAddress({ message, signature })).toBe(evm.address)
  return signature
}

describe('issue 30: a relay request the dApp gave up on does not block the next one', () => {
  it('error: the wallet does not answer a signature — TIMEOUT; the next signature, answered at once, succeeds', async () => {
    const paired = await pairedWithWallet(['Never answered'])
    try {
      const error = await failure(paired.client.signMessage('Never answered'))
      expect(error.code).toBe('TIMEOUT')
      expect(error.message).toBe('The wallet did not sign in time.')
      await expectNextSignatureWorks(paired.client, 'Answered at once')
      expect(paired.received()).toEqual([
        stringToHex('Never answered'),
        stringToHex('Answered at once'),
      ])
      expect(paired.client.getView()).toMatchObject({ status: 'connected', isBusy: false })
    } finally {
      paired.close()
    }
  }, 30_000)

  it('error: the app cancels a signature the wallet holds — ABORTED; the next signature succeeds', async () => {
    const paired = await pairedWithWallet(['Cancelled'])
    try {
      const cancelled = failure(paired.client.signMessage('Cancelled'))
      // In flight: the wallet has it.
      await expect.poll(paired.received, { timeout: 5_000 }).toEqual([stringToHex('Cancelled')])
      paired.client.cancel()
      expect((await cancelled).code).toBe('ABORTED')
      await expectNextSignatureWorks(paired.client, 'After the cancel')
    } finally {
      paired.close()
    }
  }, 30_000)

  it('behavior: the abandoned request answered late is not taken as the answer to the next one', async () => {
    const paired = await pairedWithWallet(['Answered late', 'Next'])
    setDebugMode(true)
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    const dropped = () =>
      debug.mock.calls.filter(([line]) => String(line).includes('dropped an answer to no request'))
    try {
      const error = await failure(paired.client.signMessage('Answered late'))
      expect(error.code).toBe('TIMEOUT')
      const next = paired.client.signMessage('Next')
      await expect
        .poll(paired.received, { timeout: 5_000 })
        .toEqual([stringToHex('Answered late'), stringToHex('Next')])
      // The late answer to the abandoned request arrives first, while `Next` is in flight.
      paired.release('Answered late')
      // The dApp's peer no longer waits for it: dropped there, logged at debug.
      await expect.poll(() => dropped().length, { timeout: 5_000 }).toBe(1)
      expect(paired.client.getView()).toMatchObject({ status: 'awaitingSignature' })
      paired.release('Next')
      const signature = (await next) as Hex
      expect(await recoverMessageAddress({ message: 'Next', signature })).toBe(evm.address)
      expect(paired.client.getView()).toMatchObject({ status: 'connected', isBusy: false })
      expect(dropped()).toEqual([
        [
          '[scope-connect:relay-peer] dropped an answer to no request waiting (given up or answered before)',
        ],
      ])
    } finally {
      debug.mockRestore()
      setDebugMode(false)
      setConsoleLogging(false)
      paired.close()
    }
  }, 30_000)
})
