import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import type { AppError } from '../src/errors'
import { createMemoryTransactionStore } from '../src/transaction'
import { type RunningAnvil, startAnvil } from './support/anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { ANVIL_KEY_0 } from './support/evm-transactions'

// A Client that goes away while its transaction's `GET /transactions` long-poll is open: the
// server still closes at once, and a long-poll whose client aborted ends (its waiter slot is free
// again). Real anvil (never mined, so the read keeps waiting), the real backend, a real key.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CHAIN = 'eip155:31337'

let anvil: RunningAnvil
beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
})
afterAll(async () => {
  await anvil?.stop()
})

/** A backend serving anvil's chain; `perCaller` long-polls may wait at once per caller. */
function backend(perCaller = 100): Promise<TestServer> {
  return startTestServer({
    projects: {
      projects: [{ ...TEST_PROJECT, networks: [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }] }],
    },
    transactions: {
      blockPollMs: 100,
      timeoutMs: 2_000,
      waiters: { perCaller, total: 100 },
      fetch: async (input, init) => {
        if (nodeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, nodeDelayMs))
        return fetch(input, init)
      },
    },
  })
}
/** How long the backend's node takes to answer (ms). */
let nodeDelayMs = 0

const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Resolves with how long `close` took, or rejects past `ms`. */
async function timed(close: () => Promise<void>, ms: number): Promise<number> {
  const started = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      close(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`close() still running after ${ms} ms`)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
  return Date.now() - started
}

/** A Client on `server` with an injected wallet on a real key; `longPolls`: its waiting reads. */
async function clientOf(server: TestServer): Promise<{ client: Client; longPolls: string[] }> {
  const longPolls: string[] = []
  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl, privateKeys: [ANVIL_KEY_0] })
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    fetchImpl: (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.includes('/transactions?') && url.includes('waitMs=')) longPolls.push(url)
      return fetch(input, init)
    },
    transactions: { store: createMemoryTransactionStore(), timeouts: { retryMs: 50 } },
  })
  return { client, longPolls }
}

describe('a GET /transactions long-poll whose Client went away', () => {
  it('behavior: disconnect right after sendTransaction, then close the server: it closes within 2 s', async () => {
    const server = await backend()
    try {
      const { client, longPolls } = await clientOf(server)
      await client.connect()
      const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
      void handle.wait().catch(() => {})
      await client.disconnect()
      // The transaction's watch is on the backend's long-poll now (never mined: it keeps waiting).
      await until(() => longPolls.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const took = await timed(() => server.close(), 2_000)
      expect(took).toBeLessThan(2_000)
    } finally {
      await timed(() => server.close(), 30_000).catch(() => {})
    }
  })

  it('behavior: the next transaction replaces the watched one (its long-poll aborted), then close: within 2 s', async () => {
    const server = await backend()
    try {
      const { client, longPolls } = await clientOf(server)
      await client.connect()
      const first = await client.sendTransaction({ to: RECIPIENT, value: 1n })
      const replaced = first.wait().catch((error: AppError) => error)
      await until(() => longPolls.length > 0)
      await client.disconnect()
      await client.connect()
      await client.sendTransaction({ to: RECIPIENT, value: 2n })
      expect(await replaced).toMatchObject({ code: 'ABORTED' })
      await until(() => longPolls.some((url) => !url.includes(first.hash)))
      await new Promise((resolve) => setTimeout(resolve, 200))
      const took = await timed(() => server.close(), 2_000)
      expect(took).toBeLessThan(2_000)
    } finally {
      await timed(() => server.close(), 30_000).catch(() => {})
    }
  })

  it('behavior: a long-poll waiting when the server closes is answered 304, and its connection closes with it', async () => {
    const server = await backend()
    try {
      const hash = `0x${'cd'.repeat(32)}`
      const url = `${server.baseUrl}/api/v1/connect/transactions?chainId=${CHAIN}&hash=${hash}`
      const headers = { 'x-app-key': server.appKey }
      const first = await fetch(url, { headers })
      const etag = first.headers.get('etag')!
      await first.text()
      const waiting = fetch(`${url}&waitMs=20000`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const took = await timed(() => server.close(), 2_000)
      expect((await waiting).status).toBe(304)
      expect(took).toBeLessThan(2_000)
    } finally {
      await timed(() => server.close(), 30_000).catch(() => {})
    }
  })

  it('behavior: a long-poll its client aborts ends: its waiter slot is free for the next one at once', async () => {
    const server = await backend(1)
    try {
      const hash = `0x${'ab'.repeat(32)}`
      const url = `${server.baseUrl}/api/v1/connect/transactions?chainId=${CHAIN}&hash=${hash}`
      const headers = { 'x-app-key': server.appKey }
      const first = await fetch(url, { headers })
      expect(first.status).toBe(200)
      const etag = first.headers.get('etag')!
      const controller = new AbortController()
      const waiting = fetch(`${url}&waitMs=20000`, {
        headers: { ...headers, 'if-none-match': etag },
        signal: controller.signal,
      }).catch((error: Error) => error)
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The one slot of this caller is taken while it waits.
      const refused = await fetch(`${url}&waitMs=20000`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      expect(refused.status).toBe(429)
      controller.abort()
      expect(await waiting).toBeInstanceOf(Error)
      // The aborted wait ended on the server: the next long-poll is admitted (and waits).
      await new Promise((resolve) => setTimeout(resolve, 200))
      const next = await fetch(`${url}&waitMs=300`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      expect(next.status).toBe(304)
      const took = await timed(() => server.close(), 2_000)
      expect(took).toBeLessThan(2_000)
    } finally {
      await timed(() => server.close(), 30_000).catch(() => {})
    }
  })

  it('behavior: a long-poll its client aborts during its first read ends too (not at waitMs)', async () => {
    const server = await backend(1)
    try {
      const hash = `0x${'ef'.repeat(32)}`
      const url = `${server.baseUrl}/api/v1/connect/transactions?chainId=${CHAIN}&hash=${hash}`
      const headers = { 'x-app-key': server.appKey }
      const first = await fetch(url, { headers })
      const etag = first.headers.get('etag')!
      await first.text()
      nodeDelayMs = 600
      const controller = new AbortController()
      const waiting = fetch(`${url}&waitMs=20000`, {
        headers: { ...headers, 'if-none-match': etag },
        signal: controller.signal,
      }).catch((error: Error) => error)
      // Gone while the backend still reads the transaction from the node (before its wait).
      await new Promise((resolve) => setTimeout(resolve, 200))
      controller.abort()
      expect(await waiting).toBeInstanceOf(Error)
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      nodeDelayMs = 0
      // Its wait ended once its read came back: the caller's one slot is free again.
      const next = await fetch(`${url}&waitMs=300`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      expect(next.status).toBe(304)
    } finally {
      nodeDelayMs = 0
      await timed(() => server.close(), 30_000).catch(() => {})
    }
  })
})
