import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, inject } from 'vitest'
import { rpc } from './evm-transactions'

/**
 * The run's shared redis-server, Redis Cluster and anvil (`test/support/global-setup.ts`). Files
 * share them, so each keeps to keys under a prefix of its own; a file that stops, crashes or fills
 * a server, or changes the chain, boots its own (`startRedis`, `startRedisCluster`, `startAnvil`).
 */
export function sharedRedis(): { url: string } {
  return { url: inject('sharedRedisUrl') }
}

/** The shared cluster's nodes (`127.0.0.1:<port>`), once it has formed. */
export async function sharedRedisCluster(): Promise<{ nodes: string[] }> {
  await ready(inject('sharedStatus').cluster, 'the shared Redis Cluster')
  return { nodes: inject('sharedRedisClusterNodes') }
}

/**
 * The run's shared anvil (chain 31337, automine), for a file that only reads the chain and signs
 * off-chain: its dev accounts' balances and nonces stay anvil's defaults for every file. Call it
 * while the file is collected (top level or a `describe` body): it waits for anvil before the
 * file's tests, and checks after them that no block was mined meanwhile; a file that sends
 * transactions boots its own (`startAnvil`).
 */
export function sharedAnvil(): { rpcUrl: string; port: number; chainId: number } {
  const anvil = inject('sharedAnvil')
  let stillUnchanged: () => Promise<void> = async () => {}
  beforeAll(async () => {
    await ready(inject('sharedStatus').anvil, 'the shared anvil')
    stillUnchanged = await chainUnchangedFrom(anvil.rpcUrl)
  })
  afterAll(() => stillUnchanged())
  return anvil
}

/** Reads the chain's block number; the returned check throws once a block has been mined since. */
export async function chainUnchangedFrom(rpcUrl: string): Promise<() => Promise<void>> {
  const before = await rpc<string>(rpcUrl, 'eth_blockNumber')
  return async () => {
    const now = await rpc<string>(rpcUrl, 'eth_blockNumber')
    if (now !== before) {
      throw new Error(
        `the shared anvil is read-only, but block ${BigInt(now)} was mined after ${BigInt(before)}: a file that mines boots its own (startAnvil)`,
      )
    }
  }
}

const READY_TIMEOUT_MS = 60_000

/** Resolves once globalSetup has written `ok` to `status`; throws what it wrote otherwise. */
async function ready(status: string, what: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (!existsSync(status)) {
    if (Date.now() > deadline)
      throw new Error(`${what} was not ready within ${READY_TIMEOUT_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const outcome = readFileSync(status, 'utf8')
  if (outcome !== 'ok') throw new Error(`${what} did not start: ${outcome}`)
}
