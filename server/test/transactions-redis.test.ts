import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../../test/support/anvil'
import { keyWallet, rpc } from '../../test/support/evm-transactions'
import { sharedRedis } from '../../test/support/shared-services'
import {
  createRedisTransactionFeed,
  type RedisTransactionFeed,
} from '../src/transactions/feed-redis'
import { call } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'

const CHAIN = 'eip155:31337'
const BLOCK_POLL_MS = 100

/**
 * Two instances on one redis-server and one anvil: one block watcher for the deployment (the
 * lease holder reads heads and publishes them), waiters on both instances woken by the same block,
 * and a pending transaction seen by one instance recognised as replaced by the other.
 */
describe('transaction long-polls across two instances on Redis', () => {
  const redis = sharedRedis()
  let anvil: RunningAnvil
  const feeds: RedisTransactionFeed[] = []
  const servers: TestServer[] = []
  const headReads = [0, 0]

  beforeAll(async () => {
    anvil = await startAnvil({ args: ['--no-mining'] })
    const networks = [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }]
    for (const index of [0, 1]) {
      const feed = createRedisTransactionFeed(redis.url, { keyPrefix: 'tx:' })
      await feed.ready()
      feeds.push(feed)
      const counting: typeof fetch = (input, init) => {
        if (String(init?.body).includes('"eth_blockNumber"')) headReads[index]!++
        return fetch(input, init)
      }
      servers.push(
        await startTestServer({
          projects: { projects: [{ ...TEST_PROJECT, networks }] },
          transactions: { feed, blockPollMs: BLOCK_POLL_MS, fetch: counting },
        }),
      )
    }
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all(feeds.map((feed) => feed.close()))
    await anvil?.stop()
  })

  const status = (server: TestServer, query: Record<string, string>, etag?: string) =>
    call(server.baseUrl, `/transactions?${new URLSearchParams({ chainId: CHAIN, ...query })}`, {
      headers: { 'x-app-key': 'test-app-key', ...(etag ? { 'if-none-match': etag } : {}) },
    })

  it('one instance polls the chain; a block wakes the waiters of both', async () => {
    const hash = await keyWallet(anvil.rpcUrl).sendTransaction({
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: 1n,
      chain: null,
    })
    const etags = await Promise.all(
      servers.map(async (server) => (await status(server, { hash })).headers.get('etag')!),
    )
    headReads.fill(0)
    const waits = servers.map((server, index) =>
      status(server, { hash, waitMs: '10000' }, etags[index]),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await rpc(anvil.rpcUrl, 'evm_mine')
    const answers = await Promise.all(waits)
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ status: 'confirmed', confirmations: 1 })
    }
    // ~1 s at one read per 100 ms by the lease holder; the other reads the head once, for the
    // request's first read before it heard any announcement, and polls nothing.
    expect(Math.min(...headReads)).toBeLessThanOrEqual(1)
    expect(Math.max(...headReads)).toBeGreaterThan(3)
    expect(Math.max(...headReads)).toBeLessThanOrEqual(16)
  })

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
  })
})
