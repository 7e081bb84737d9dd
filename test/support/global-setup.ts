import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startAnvil } from './anvil'
import { startRedis } from './redis'
import { formCluster, startClusterNodes } from './redis-cluster'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:<port>` of the run's shared redis-server (`sharedRedis()`). */
    sharedRedisUrl: string
    /** `127.0.0.1:<port>` of the six nodes of the run's shared Redis Cluster. */
    sharedRedisClusterNodes: string[]
    /** A file written once the shared cluster has formed: `ok`, or why it did not. */
    sharedRedisClusterStatus: string
    /** The run's shared anvil (chain 31337), for files that only read the chain (`sharedAnvil()`). */
    sharedAnvil: { rpcUrl: string; port: number; chainId: number }
  }
}

/**
 * Vitest `globalSetup` (it runs for a single file too): one redis-server, one 6-node Redis Cluster
 * and one anvil for the whole run, handed to test files by `test/support/shared-services.ts`,
 * instead of one booted by each file (a cluster takes 3 s, an anvil 0.3 to 1 s, more on a loaded
 * machine). The nodes start
 * here; joining them and waiting for the replicas' sync runs in the background, so a run whose
 * files never use the cluster does not wait for it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [redis, clusterNodes, anvil] = await Promise.all([
    startRedis(),
    startClusterNodes(),
    startAnvil(),
  ])
  const statusDir = mkdtempSync(join(tmpdir(), 'scope-shared-cluster-'))
  const status = join(statusDir, 'status')
  project.provide('sharedRedisUrl', redis.url)
  project.provide(
    'sharedRedisClusterNodes',
    clusterNodes.map((node) => `127.0.0.1:${node.port}`),
  )
  project.provide('sharedRedisClusterStatus', status)
  project.provide('sharedAnvil', { rpcUrl: anvil.rpcUrl, port: anvil.port, chainId: anvil.chainId })
  // Written whole, then renamed: a reader never sees it half written.
  const report = (outcome: string) => {
    writeFileSync(`${status}.partial`, outcome)
    renameSync(`${status}.partial`, status)
  }
  const forming = formCluster(clusterNodes).then(
    () => report('ok'),
    (err: unknown) => report(err instanceof Error ? err.message : String(err)),
  )
  return async () => {
    await forming
    await Promise.all([redis.stop(), anvil.stop(), ...clusterNodes.map((node) => node.stop())])
    rmSync(statusDir, { recursive: true, force: true })
  }
}
