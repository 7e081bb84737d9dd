import { recoverMessageAddress } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/src/app'
import { generateRelaySigningKey } from '../../server/src/relay/token'
import { TEST_APP_KEY, TEST_PROJECTS } from '../../server/test/support/server'
import { dappPairing, walletSimulator } from './support/pairing-setup'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const signingKeys = [generateRelaySigningKey()]

async function serverOn(port: number) {
  const app = await buildApp({ projects: TEST_PROJECTS, relay: { signingKeys } })
  await app.listen({ port, host: '127.0.0.1' })
  const address = app.server.address()
  const actual = typeof address === 'object' && address ? address.port : 0
  return { app, port: actual, baseUrl: `http://127.0.0.1:${actual}`, appKey: TEST_APP_KEY }
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('the relay restarts under a paired session', () => {
  it('both sides reconnect, resubscribe and fetch; a request sent meanwhile arrives once and is answered once', async () => {
    let server = await serverOn(0)
    const port = server.port
    const fast = { backoff: { baseMs: 100, maxMs: 400, maxAttempts: 50 } }
    const connectivity: string[] = []
    const dapp = dappPairing(server, { relay: fast })
    dapp.actor.subscribe((s) => {
      const region = (s.value as { active?: { connectivity: string } }).active?.connectivity
      if (region && connectivity.at(-1) !== region) connectivity.push(region)
    })
    const wallet = walletSimulator(server, fast)
    cleanups.push(
      () => dapp.stop(),
      () => wallet.close(),
    )
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval

    await server.app.close() // close 1001 to every socket
    await waitUntil(() => connectivity.at(-1) === 'reconnecting')
    // Sent while the relay is down: waits in the relay client, goes out after the reconnect.
    const signing = dapp.signMessage('sent during the outage')
    await new Promise((r) => setTimeout(r, 300))
    server = await serverOn(port)
    cleanups.push(() => server.app.close())

    const signature = await signing
    expect(
      await recoverMessageAddress({
        message: 'sent during the outage',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.evm.address)
    expect(wallet.requests.map((r) => r.method)).toEqual(['personal_sign'])
    expect(connectivity).toEqual(['connecting', 'online', 'reconnecting', 'online'])
    expect(dapp.actor.getSnapshot().context.lastRequest?.status).toBe('answered')

    // Nothing arrives twice, later: a second request is the second the wallet sees.
    await dapp.signMessage('after the outage')
    await new Promise((r) => setTimeout(r, 200))
    expect(wallet.requests.length).toBe(2)
  })
})
