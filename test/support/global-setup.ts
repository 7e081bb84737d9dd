import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort, startAnvil } from './anvil'
import { startRedis } from './redis'
import { formCluster, startClusterNodes } from './redis-cluster'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the run's shared redis-server (`sharedRedis()`). */
    sharedRedisUrl: string
    /** `127.0.0.1:<port>` of the six nodes of the run's shared Redis Cluster. */
    sharedRedisClusterNodes: string[]
    /** The run's shared anvil (chain 31337), for files that only read the chain (`sharedAnvil()`). */
    sharedAnvil: { rpcUrl: string; port: number; chainId: number }
    /**
     * Files written once a service started in the background is ready: `ok`, or why it is not
     * (`test/support/shared-services.ts` waits for them).
     */
    sharedStatus: { cluster: string; anvil: string }
  }
}

const ANVIL_CHAIN_ID = 31337

/**
 * Vitest `globalSetup` (it runs for a single file too): one redis-server, one 6-node Redis Cluster
 * and one anvil for the whole run, handed to test files by `test/support/shared-services.ts`,
 * instead of one booted by each file (a cluster takes 3 s, an anvil 0.3 to 1 s, more on a loaded
 * machine). The redis-server and the cluster's nodes start here; the cluster forms and anvil
 * starts in the background, so a run whose files use neither (one file, say) does not wait for
 * them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [redis, clusterNodes, anvilPort] = await Promise.all([
    startRedis(),
    startClusterNodes(),
    freePort(),
  ])
  const statusDir = mkdtempSync(join(tmpdir(), 'scope-shared-services-'))
  const status = { cluster: join(statusDir, 'cluster'), anvil: join(statusDir, 'anvil') }
  project.provide('sharedRedisUrl', redis.url)
  project.provide(
    'sharedRedisClusterNodes',
    clusterNodes.map((node) => `127.0.0.1:${node.port}`),
  )
  project.provide('sharedAnvil', {
    rpcUrl: `http://127.0.0.1:${anvilPort}`,
    port: anvilPort,
    chainId: ANVIL_CHAIN_ID,
  })
  project.provide('sharedStatus', status)

  const runOver = new AbortController()
  const forming = formCluster(clusterNodes, runOver.signal).then(
    () => report(status.cluster, 'ok'),
    (err: unknown) => report(status.cluster, messageOf(err)),
  )
  // On the port handed out above; the launcher checks that its own anvil holds it.
  const anvil = startAnvil({ port: anvilPort, chainId: ANVIL_CHAIN_ID }).then(
    (running) => {
      report(status.anvil, 'ok')
      return running
    },
    (err: unknown) => {
      report(status.anvil, messageOf(err))
      return undefined
    },
  )
  return async () => {
    runOver.abort()
    await forming
    await Promise.all([
      redis.stop(),
      anvil.then((running) => running?.stop()),
      ...clusterNodes.map((node) => node.stop()),
    ])
    rmSync(statusDir, { recursive: true, force: true })
  }
}

/** Written whole, then renamed: a reader never sees it half written. */
function report(file: string, outcome: string): void {
  writeFileSync(`${file}.partial`, outcome)
  renameSync(`${file}.partial`, file)
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))
