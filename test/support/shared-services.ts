import { existsSync, readFileSync } from 'node:fs'
import { inject } from 'vitest'

/**
 * The run's shared redis-server and Redis Cluster (`test/support/global-setup.ts`). Files share
 * them, so each keeps to keys under a prefix of its own; a file that stops, crashes or fills a
 * server boots its own (`startRedis`, `startRedisCluster`).
 */
export function sharedRedis(): { url: string } {
  return { url: inject('sharedRedisUrl') }
}

const CLUSTER_READY_TIMEOUT_MS = 60_000

/** The shared cluster's nodes (`127.0.0.1:<port>`), once it has formed. */
export async function sharedRedisCluster(): Promise<{ nodes: string[] }> {
  const status = inject('sharedRedisClusterStatus')
  const deadline = Date.now() + CLUSTER_READY_TIMEOUT_MS
  while (!existsSync(status)) {
    if (Date.now() > deadline) {
      throw new Error(`the shared Redis Cluster did not form within ${CLUSTER_READY_TIMEOUT_MS} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const outcome = readFileSync(status, 'utf8')
  if (outcome !== 'ok') throw new Error(`the shared Redis Cluster did not form: ${outcome}`)
  return { nodes: inject('sharedRedisClusterNodes') }
}
