import { randomBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryPairingVault } from '../../machines/pairing/pairing.vault'
import { connectRelay, type RelayTestClient } from '../../server/test/support/relay-client'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import type { AppError } from '../../src/errors'
import { openEnvelope, sealEnvelope } from '../../src/relay/crypto'
import { payloadId } from '../../src/relay/protocol'
import { dappPairing, walletSimulator } from './support/pairing-setup'

let server: TestServer
const cleanups: Array<() => void> = []
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** A paired dApp and wallet, and an attacker subscribed to the session topic on the same relay. */
async function pairedWithAttacker() {
  const vault = createMemoryPairingVault()
  const dappDropped: AppError[] = []
  const dapp = dappPairing(server, { vault, onDropped: (e) => dappDropped.push(e) })
  const wallet = walletSimulator(server)
  const walletDropped: AppError[] = []
  wallet.wallet.onError((e) => walletDropped.push(e))
  cleanups.push(
    () => dapp.stop(),
    () => wallet.close(),
  )
  await wallet.pairAndApprove(dapp.uri as string)
  await dapp.approval
  const secrets = vault.get(dapp.actor.getSnapshot().context.pairingId)
  const topic = secrets?.sessionTopic as string
  const key = secrets?.symKeyS as Uint8Array
  const attacker: RelayTestClient = await connectRelay(server.baseUrl)
  cleanups.push(() => attacker.close())
  await attacker.request('scr_subscribe', { topic })
  const publish = (message: string) =>
    attacker.request('scr_publish', { topic, message, ttl: 60, tag: 1108 })
  return { dapp, wallet, dappDropped, walletDropped, topic, key, attacker, publish }
}

const reasons = (errors: AppError[]) => errors.map((e) => `${e.code}: ${e.details?.[0]?.reason}`)

describe('messages that must not be acted on', () => {
  it('a tampered ciphertext is dropped as RELAY_ERROR; the session keeps working', async () => {
    const s = await pairedWithAttacker()
    await s.dapp.signMessage('first')
    await s.attacker.waitForPushes(2) // the request and its answer
    const captured = s.attacker.pushes[0]?.data.message as string
    const bytes = base64.decode(captured)
    bytes[20] = (bytes[20] ?? 0) ^ 0xff
    await s.publish(base64.encode(bytes))
    await waitUntil(() => s.walletDropped.length === 1)
    expect(reasons(s.walletDropped)).toEqual([
      'RELAY_ERROR: failed authentication (tampered, or sealed with another key or topic)',
    ])
    // The dApp got the tampered copy as well (same topic): dropped there too.
    await waitUntil(() => s.dappDropped.length === 1)
    expect(s.dappDropped[0]?.code).toBe('RELAY_ERROR')
    await s.dapp.signMessage('second')
    expect(s.wallet.requests.length).toBe(2)
  })

  it('an envelope sealed with another key is dropped as RELAY_ERROR', async () => {
    const s = await pairedWithAttacker()
    const forged = sealEnvelope(
      randomBytes(32),
      s.topic,
      JSON.stringify({
        jsonrpc: '2.0',
        id: payloadId(Date.now(), 0.5),
        method: 'scr_sessionRequest',
        params: {
          chainId: 'eip155:31337',
          request: { method: 'personal_sign', params: ['0x00', s.wallet.evm.address] },
        },
      }),
    )
    await s.publish(forged)
    await waitUntil(() => s.walletDropped.length === 1)
    expect(reasons(s.walletDropped)[0]).toMatch(/failed authentication/)
    expect(s.wallet.requests).toEqual([])
  })

  it('a replayed envelope (same bytes) is dropped as a duplicate; a replayed request id with the right key is refused', async () => {
    const s = await pairedWithAttacker()
    await s.dapp.signMessage('only once')
    await s.attacker.waitForPushes(2)
    const captured = s.attacker.pushes[0]?.data.message as string
    // 1. The same bytes again: the relay client drops them by messageId, silently.
    await s.publish(captured)
    // 2. The same request re-sealed (a new nonce, so a new messageId) — what a replay after the
    //    receiver lost its messageId memory looks like: the request id was seen on the topic.
    const payload = openEnvelope(s.key, s.topic, captured)
    await s.publish(sealEnvelope(s.key, s.topic, payload))
    await waitUntil(() => s.walletDropped.length === 1)
    expect(reasons(s.walletDropped)).toEqual([
      'RELAY_ERROR: replays a request id already seen on this topic',
    ])
    // 3. A well-sealed request whose id is 20 minutes old: outside the replay window.
    const stale = JSON.parse(payload) as { id: number }
    stale.id = payloadId(Date.now() - 20 * 60_000, 0.1)
    await s.publish(sealEnvelope(s.key, s.topic, JSON.stringify(stale)))
    await waitUntil(() => s.walletDropped.length === 2)
    expect(reasons(s.walletDropped)[1]).toMatch(/outside the replay window/)
    // 4. Garbage that decrypts but is not JSON-RPC.
    await s.publish(sealEnvelope(s.key, s.topic, '{"hello":"world"}'))
    await waitUntil(() => s.walletDropped.length === 3)
    expect(reasons(s.walletDropped)[2]).toMatch(/not a JSON-RPC/)
    expect(s.wallet.requests.length).toBe(1)
    await s.dapp.signMessage('still works')
    expect(s.wallet.requests.length).toBe(2)
  })

  it('a forged answer to a request the dApp never sent is ignored; a request with bad params is refused by the wallet', async () => {
    const s = await pairedWithAttacker()
    await s.publish(
      sealEnvelope(s.key, s.topic, JSON.stringify({ jsonrpc: '2.0', id: 12345, result: '0xdead' })),
    )
    const badId = payloadId(Date.now(), 0.3)
    await s.publish(
      sealEnvelope(
        s.key,
        s.topic,
        JSON.stringify({
          jsonrpc: '2.0',
          id: badId,
          method: 'scr_sessionRequest',
          params: {
            chainId: 'eip155:31337',
            request: { method: 'personal_sign', params: ['not hex', s.wallet.evm.address] },
          },
        }),
      ),
    )
    await s.attacker.waitForPushes(1)
    const answer = JSON.parse(
      openEnvelope(s.key, s.topic, s.attacker.pushes[0]?.data.message as string),
    )
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: badId,
      error: { code: -32602, message: 'Invalid request params.' },
    })
    expect(s.wallet.requests).toEqual([])
    expect(s.dapp.actor.getSnapshot().matches({ active: { flow: { paired: 'idle' } } })).toBe(true)
    await s.dapp.signMessage('fine')
  })
})
