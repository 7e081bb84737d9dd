import { afterAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../support/anvil'

// The anvil launcher of the tests, `npm start` and the benches (server/src/anvil.ts): another
// anvil already on the port answers eth_chainId 31337 just as ours would, and must not be taken
// for the child this call started (parallel test files probe free ports at the same time).

describe('startAnvil', () => {
  const started: RunningAnvil[] = []
  afterAll(() => Promise.all(started.map((anvil) => anvil.stop())))

  it('refuses a port another anvil holds instead of taking that anvil for its own', async () => {
    const first = await startAnvil()
    started.push(first)
    await expect(startAnvil({ port: first.port })).rejects.toThrow(
      new RegExp(`anvil on port ${first.port} did not start`),
    )
    // The first one is untouched, and a launch on a free port still works.
    const second = await startAnvil()
    started.push(second)
    expect(second.port).not.toBe(first.port)
  })

  it('reports every request the node serves when asked (onRequest)', async () => {
    const methods: string[] = []
    const anvil = await startAnvil({ onRequest: (method) => methods.push(method) })
    started.push(anvil)
    await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    })
    await expect.poll(() => methods.includes('eth_blockNumber')).toBe(true)
  })
})
