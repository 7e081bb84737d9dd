import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import type { Address } from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { createEvmAdapter } from '../../src/chains/evm'
import { MULTICALL3_ADDRESS } from '../../src/chains/multicall3'
import { createChainRegistry } from '../../src/chains/registry'
import { startTestServer, TEST_PROJECT } from '../support/server'
import { DEV_ACCOUNT_BALANCE, startEvmFixture, UNTOUCHED_DEV_ACCOUNT } from './support/evm-fixture'

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>
type Mode = 'pass' | 'drop' | 'hang' | 'garbage'

/**
 * A loopback WebSocket proxy in front of anvil's own WebSocket endpoint: it records the method of
 * every frame a client sends, and can drop the socket, swallow the frame, or answer garbage.
 */
async function startWsProxy(target: string) {
  const seen: string[] = []
  const clients = new Set<WebSocket>()
  let mode: Mode = 'pass'
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  server.on('connection', (client) => {
    clients.add(client)
    client.on('close', () => clients.delete(client))
    const upstream = new WebSocket(target)
    const ready = new Promise((resolve) => upstream.once('open', resolve))
    upstream.on('message', (data) => client.send(String(data)))
    upstream.on('error', () => {})
    client.on('close', () => upstream.terminate())
    client.on('message', async (data) => {
      seen.push((JSON.parse(String(data)) as { method: string }).method)
      if (mode === 'drop') return client.terminate()
      if (mode === 'hang') return
      if (mode === 'garbage') return client.send('{"jsonrpc":"2.0","id":')
      await ready
      upstream.send(String(data))
    })
  })
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    clients,
    set mode(next: Mode) {
      mode = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.terminate()
        server.close(() => resolve())
      }),
  }
}

describe('EVM reads over a WebSocket (wsUrl), rpcUrl the fallback (real anvil)', () => {
  let fx: Fixture
  let proxy: Awaited<ReturnType<typeof startWsProxy>>
  let token: Address
  const overHttp: string[] = []
  const countingFetch: typeof fetch = async (input, init) => {
    overHttp.push((JSON.parse(String(init?.body)) as { method: string }).method)
    return fetch(input, init)
  }
  const adapters: ReturnType<typeof createEvmAdapter>[] = []
  const adapter = (options: { rpcUrl?: string | undefined; multicall3?: null } = {}) => {
    const created = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      wsUrl: proxy.url,
      fetch: countingFetch,
      blockTimeMs: 0,
      timeoutMs: 400,
      wsRestAfterFaultMs: 200,
      ...options,
    })
    adapters.push(created)
    return created
  }
  const queries = () => [
    { chainId: fx.chainId, tokenAddress: token, account: UNTOUCHED_DEV_ACCOUNT },
    { chainId: fx.chainId, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
  ]
  const expected = [
    { raw: 5n, decimals: 6 },
    { raw: DEV_ACCOUNT_BALANCE, decimals: 18 },
  ]
  const read = async (created: ReturnType<typeof createEvmAdapter>) =>
    (await created.readBalances(queries())).map((o) =>
      o.ok ? { raw: o.result.raw, decimals: o.result.decimals } : o.error.message,
    )
  const rest = () => new Promise((resolve) => setTimeout(resolve, 250))

  beforeAll(async () => {
    fx = await startEvmFixture()
    await fx.deployMulticall3()
    token = await fx.deploy('TestToken', [6])
    await fx.send(token, 'TestToken', 'mint', [UNTOUCHED_DEV_ACCOUNT, 5n])
    proxy = await startWsProxy(fx.anvil.rpcUrl.replace('http://', 'ws://'))
  })
  afterAll(async () => {
    await proxy?.close()
    await fx?.anvil.stop()
  })
  beforeEach(() => {
    overHttp.length = 0
    proxy.seen.length = 0
    proxy.mode = 'pass'
  })
  afterEach(() => {
    for (const created of adapters.splice(0)) created.close?.()
  })

  it('reads a batch over the socket: one frame, nothing over HTTP, and the socket stays open', async () => {
    const created = adapter()
    expect(await read(created)).toEqual(expected)
    expect(await read(created)).toEqual(expected)
    expect(proxy.seen).toEqual(['eth_call', 'eth_call'])
    expect(overHttp).toEqual([])
    expect(proxy.clients.size).toBe(1)
  })

  it("passes a node's error answer on as its answer (a revert), without falling back", async () => {
    // Without Multicall3 each read is its own eth_call; balanceOf on Multicall3 itself reverts.
    const created = adapter({ multicall3: null })
    const [outcome] = await created.readBalances([
      { chainId: fx.chainId, tokenAddress: MULTICALL3_ADDRESS, account: UNTOUCHED_DEV_ACCOUNT },
    ])
    expect(outcome?.ok === false && outcome.error.message).toMatch(
      /not an ERC-20 token: balanceOf\(address\) failed/,
    )
    expect(overHttp).toEqual([])
    expect(proxy.seen).toContain('eth_call')
  })

  it.each([
    ['drops the socket', 'drop'],
    ['never answers', 'hang'],
    ['answers garbage', 'garbage'],
  ] as const)(
    'when the socket %s, the read answers over HTTP; the socket rests, then carries reads again',
    async (_, mode) => {
      const created = adapter()
      expect(await read(created)).toEqual(expected) // the socket is open
      proxy.mode = mode
      proxy.seen.length = 0
      expect(await read(created)).toEqual(expected)
      expect(proxy.seen).toEqual(['eth_call'])
      expect(overHttp).toEqual(['eth_call'])
      // Resting: the next read goes straight to HTTP, the socket is not tried.
      proxy.mode = 'pass'
      expect(await read(created)).toEqual(expected)
      expect(proxy.seen).toEqual(['eth_call'])
      expect(overHttp).toEqual(['eth_call', 'eth_call'])
      await rest()
      expect(await read(created)).toEqual(expected)
      expect(proxy.seen).toEqual(['eth_call', 'eth_call'])
      expect(overHttp).toHaveLength(2)
    },
  )

  it('without an rpcUrl a socket fault is UpstreamError for every query, and the next read works', async () => {
    const created = adapter({ rpcUrl: undefined })
    proxy.mode = 'drop'
    const failed = await created.readBalances(queries())
    expect(failed.map((o) => !o.ok && o.error.name)).toEqual(['UpstreamError', 'UpstreamError'])
    expect(failed.map((o) => !o.ok && o.error.message)).toEqual([
      expect.stringMatching(/^EVM RPC read failed: WebSocket RPC: .*the socket closed/),
      expect.stringMatching(/^EVM RPC read failed: WebSocket RPC: .*the socket closed/),
    ])
    proxy.mode = 'pass'
    await rest()
    expect(await read(created)).toEqual(expected)
  })

  it('falls back when nothing listens at wsUrl, and closes its socket with the server', async () => {
    const down = createEvmAdapter({
      chainId: fx.chainId,
      rpcUrl: fx.anvil.rpcUrl,
      wsUrl: 'ws://127.0.0.1:9', // discard port: refused
      fetch: countingFetch,
      blockTimeMs: 0,
    })
    adapters.push(down)
    expect(await read(down)).toEqual(expected)
    expect(overHttp).toEqual(['eth_call'])

    const registry = createChainRegistry([
      { chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl, wsUrl: proxy.url },
    ])
    await registry.get(fx.chainId)!.readBalances(queries())
    expect(proxy.clients.size).toBe(1)
    registry.close?.()
    await expect.poll(() => proxy.clients.size).toBe(0)
  })

  it('serves POST /balances over the socket from a projects file with wsUrl, and lets it go on close', async () => {
    const server = await startTestServer({
      projects: {
        projects: [
          {
            ...TEST_PROJECT,
            networks: [{ chainId: fx.chainId, rpcUrl: 'http://127.0.0.1:9', wsUrl: proxy.url }],
          },
        ],
      },
    })
    try {
      const answer = await server.app.inject({
        method: 'POST',
        url: '/api/v1/connect/balances',
        headers: { 'x-app-key': server.appKey },
        payload: { queries: queries() },
      })
      expect(answer.statusCode).toBe(200)
      expect(answer.json().balances.map((b: { raw: string }) => b.raw)).toEqual(
        expected.map((e) => e.raw.toString()),
      )
      expect(proxy.seen).toEqual(['eth_call'])
      expect(proxy.clients.size).toBe(1)
    } finally {
      await server.close()
    }
    await expect.poll(() => proxy.clients.size).toBe(0)
  })

  it('answers every read right through random socket faults, and the next read after them works', async () => {
    const created = adapter({ rpcUrl: fx.anvil.rpcUrl })
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Mode>('pass', 'pass', 'drop', 'hang', 'garbage'), {
          minLength: 1,
          maxLength: 5,
        }),
        async (modes) => {
          for (const mode of modes) {
            proxy.mode = mode
            expect(await read(created)).toEqual(expected)
          }
          proxy.mode = 'pass'
          await rest()
          proxy.seen.length = 0
          overHttp.length = 0
          expect(await read(created)).toEqual(expected)
          expect(proxy.seen).toEqual(['eth_call'])
          expect(overHttp).toEqual([])
        },
      ),
      { numRuns: 12 },
    )
  })

  it('refuses at start a wsUrl for a Solana chain, and two wsUrls for one chain', () => {
    expect(() =>
      createChainRegistry([
        { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', wsUrl: 'wss://sol.example' },
      ]),
    ).toThrow(/wsUrl is for EVM chains/)
    expect(() =>
      createChainRegistry([
        { chainId: 'eip155:1', wsUrl: 'wss://a.example' },
        { chainId: 'eip155:1', wsUrl: 'wss://b.example' },
      ]),
    ).toThrow(/two different wsUrls/)
  })
})
