/**
 * Issue 28, item 2, re-run: what one caller's balances batches cost the node. Real anvil (no
 * Multicall3 on the chain, as configured) behind a proxy that counts every JSON-RPC call and the
 * requests in flight; the real backend with its default limits (600 units a minute per caller).
 *   - calls per 100-query batch (100 token contracts, decimals not given) and the charge;
 *   - the upstream calls one caller causes in one rate-limit window (batches until the 429);
 *   - the most connections in flight for 20 concurrent batches (the node holds each answer 20 ms).
 *
 *   npx tsx bench/balances-upstream-cost.ts
 *
 * Prints the figures; docs/benchmarks.md ("Balances: upstream work per batch") quotes them beside
 * the attack's (10,814 calls a minute, 921 connections).
 */
import type { Address } from 'viem'
import { createChainRegistry } from '../server/src/chains'
import { startEvmFixture } from '../server/test/chains/support/evm-fixture'
import { startCountingProxy } from '../server/test/support/counting-proxy'
import { call } from '../server/test/support/http'
import { startTestServer, TEST_PROJECT } from '../server/test/support/server'

const CHAIN = 'eip155:10'
const TOKENS = 100

async function main() {
  const fx = await startEvmFixture()
  const tokens: Address[] = []
  for (let i = 0; i < TOKENS; i++) tokens.push(await fx.deploy('TestToken', [18]))
  const proxy = await startCountingProxy(fx.anvil.rpcUrl)
  const networks = [{ chainId: CHAIN, rpcUrl: proxy.url, multicall3: null }]
  const server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks),
  })
  let seed = 0
  const batch = () =>
    call(server.baseUrl, '/balances', {
      method: 'POST',
      headers: { 'x-app-key': TEST_PROJECT.appKeys[0]! },
      body: {
        queries: tokens.map((token) => ({
          chainId: CHAIN,
          tokenAddress: token,
          account: `0x${(++seed).toString(16).padStart(40, '0')}`,
        })),
      },
    })
  const remaining = (headers: Headers) =>
    Number(/r=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1])

  proxy.reset()
  const first = await batch()
  const perBatch = proxy.methods.length
  const charge = 600 - remaining(first.headers)
  let batches = 1
  const started = performance.now()
  for (;;) {
    const answer = await batch()
    if (answer.status === 429) break
    batches++
  }
  const windowCalls = proxy.methods.length
  const seconds = (performance.now() - started) / 1000

  // A new caller window would be needed for more batches: a second server, limits off.
  const open = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks,
          rateLimits: { appKey: { limit: 1_000_000, windowSeconds: 60 } },
        },
      ],
    },
    chains: createChainRegistry(networks),
  })
  proxy.reset()
  proxy.holdMs = 20
  await Promise.all(
    Array.from({ length: 20 }, (_, b) =>
      call(open.baseUrl, '/balances', {
        method: 'POST',
        headers: { 'x-app-key': TEST_PROJECT.appKeys[0]! },
        body: {
          queries: tokens.slice(0, 50).map((token, i) => ({
            chainId: CHAIN,
            tokenAddress: token,
            account: `0x${(10_000 + b * 100 + i).toString(16).padStart(40, '0')}`,
          })),
        },
      }),
    ),
  )
  const rows = [
    `| Upstream calls of one 100-query batch (100 tokens, no Multicall3) | ${perBatch} |`,
    `| Its charge (units of the caller's 600 a minute) | ${charge} |`,
    `| Batches one caller gets through in a window | ${batches} |`,
    `| Upstream calls one caller causes in a minute's window | ${windowCalls} (in ${seconds.toFixed(1)} s) |`,
    `| Most upstream requests in flight, 20 concurrent 50-query batches | ${proxy.maxInFlight} (${proxy.methods.length} calls) |`,
  ]
  console.log(rows.join('\n'))
  await open.close()
  await server.close()
  await proxy.close()
  await fx.anvil.stop()
}

await main()
