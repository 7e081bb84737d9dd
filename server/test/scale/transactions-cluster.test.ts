import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../../../test/support/anvil'
import { keyWallet, rpc } from '../../../test/support/evm-transactions'
import { sharedRedisCluster } from '../../../test/support/shared-services'
import {
  createRedisTransactionFeed,
  type RedisTransactionFeed,
} from '../../src/transactions/feed-redis'
import { call } from '../support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from '../support/server'

const CHAIN = 'eip155:31337'
const BLOCK_POLL_MS = 100

/**
 * The shared transaction feed on a real Redis Cluster (`--redis-cluster`: six redis-server
 * processes, `test/support/redis-cluster.ts`) with two instances and one anvil, counting each
 * instance's RPC calls: one instance reads the chain's head for both (the lease, in the chain's
 * own slot), its heads reach the other over sharded pub/sub, and a pending transaction seen by one
 * is recognised as replaced by the other.
 */
describe('transaction feed across two instances on a Redis Cluster', () => {
  let cluster: { nodes: string[] }
  let anvil: RunningAnvil
  const feeds: RedisTransactionFeed[] = []
  const servers: TestServer[] = []
  const calls: string[][] = [[], []]

  beforeAll(async () => {
    ;[cluster, anvil] = await Promise.all([
      sharedRedisCluster(),
      startAnvil({ args: ['--no-mining'] }),
    ])
    const networks = [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }]
    // Both instances', and no other file's: the cluster is the run's (shared-services.ts).
    const keyPrefix = `txcluster${Date.now()}:`
    for (const index of [0, 1]) {
      const feed = createRedisTransactionFeed(
        { cluster: cluster.nodes },
        // Generous: six redis-server processes on a loaded 2-core machine.
        { keyPrefix, connectTimeoutMs: 10_000 },
      )
      await feed.ready()
      feeds.push(feed)
      const counting: typeof fetch = (input, init) => {
        calls[index]!.push(String(JSON.parse(String(init?.body)).method))
        return fetch(input, init)
      }
      servers.push(
        await startTestServer({
          projects: { projects: [{ ...TEST_PROJECT, networks }] },
          transactions: { feed, blockPollMs: BLOCK_POLL_MS, fetch: counting },
        }),
      )
    }
  }, 120_000)
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all(feeds.map((feed) => feed.close()))
    await anvil?.stop()
  })

  const status = (server: TestServer, query: Record<string, string>, etag?: string) =>
    call(server.baseUrl, `/transactions?${new URLSearchParams({ chainId: CHAIN, ...query })}`, {
      headers: { 'x-app-key': 'test-app-key', ...(etag ? { 'if-none-match': etag } : {}) },
    })
  const count = (index: number, method: string) =>
    calls[index]!.filter((one) => one === method).length

  it('one instance reads the heads for both; a block wakes the waiters of both', async () => {
    const hash = await keyWallet(anvil.rpcUrl).sendTransaction({
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: 1n,
      chain: null,
    })
    const etags = await Promise.all(
      servers.map(async (server) => (await status(server, { hash })).headers.get('etag')!),
    )
    for (const list of calls) list.length = 0
    const waits = servers.map((server, index) =>
      status(server, { hash, waitMs: '10000' }, etags[index]),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await rpc(anvil.rpcUrl, 'evm_mine')
    const answers = await Promise.all(waits)
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ status: 'confirmed', confirmations: 1 })
    }
    const headReads = [count(0, 'eth_blockNumber'), count(1, 'eth_blockNumber')]
    // ~1.5 s at one read per 100 ms by the lease holder; the other reads none (or one, for the
    // request's first read before it heard an announcement): not twice the reads.
    expect(Math.min(...headReads)).toBeLessThanOrEqual(1)
    expect(Math.max(...headReads)).toBeGreaterThan(3)
    expect(Math.max(...headReads)).toBeLessThanOrEqual(24)
    // The block itself: one read per instance with a waiter, whatever their number.
    expect(count(0, 'eth_getBlockByNumber')).toBe(1)
    expect(count(1, 'eth_getBlockByNumber')).toBe(1)
    // Nothing read per waiter: the wait's first read reused the plain read's, the block did the rest.
    expect(count(0, 'eth_getTransactionByHash') + count(1, 'eth_getTransactionByHash')).toBe(0)
  }, 60_000)

  it('a transaction seen pending on A is named replaced on B', async () => {
    const wallet = keyWallet(anvil.rpcUrl)
    const nonce = await rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [
      wallet.account.address,
      'pending',
    ])
    const base = { to: wallet.account.address, value: 0n, gas: 21_000n, chain: null } as const
    const original = await wallet.sendTransaction({
      ...base,
      maxFeePerGas: 5_000_000_000n,
      maxPriorityFeePerGas: 1n,
      nonce: Number(nonce),
    })
    expect((await status(servers[0]!, { hash: original })).body).toMatchObject({
      status: 'pending',
    })
    const replacement = await wallet.sendTransaction({
      ...base,
      maxFeePerGas: 50_000_000_000n,
      maxPriorityFeePerGas: 2_000_000_000n,
      nonce: Number(nonce),
    })
    await rpc(anvil.rpcUrl, 'evm_mine')
    expect((await status(servers[1]!, { hash: original })).body).toMatchObject({
      status: 'unknown',
      replacedBy: replacement,
    })
  }, 30_000)
})
