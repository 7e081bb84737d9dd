import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { freePort, type RunningRedis, startRedis } from './redis'

const run = promisify(execFile)
const CLI = process.env.REDIS_CLI_BIN ?? 'redis-cli'
const READY_TIMEOUT_MS = 30_000

export interface RunningRedisCluster {
  /** `127.0.0.1:<port>` of every node, primaries and replicas: what `--redis-cluster` takes. */
  nodes: string[]
  /** Ports of the nodes that are primaries now (they change after a failover). */
  primaryPorts(): Promise<number[]>
  /** Port of the primary that serves `key`'s slot now. */
  primaryPortOf(key: string): Promise<number>
  /**
   * Kills (SIGKILL) the primary that serves `key`'s slot and resolves once its replica has taken
   * over and every live node reports the cluster ok. Returns the killed port.
   */
  killPrimaryOf(key: string): Promise<number>
  stop(): Promise<void>
}

export interface StartRedisClusterOptions {
  /** `cluster-node-timeout`: how long a primary may be silent before its replica takes over. */
  nodeTimeoutMs?: number
}

/**
 * A throw-away Redis Cluster on 127.0.0.1: six `redis-server --cluster-enabled yes` on free ports
 * (each with a free cluster-bus port), joined by `redis-cli --cluster create` as three primaries
 * with one replica each; resolves once every node reports `cluster_state:ok`. Coverage is not
 * required (`cluster-require-full-coverage no`), so while one shard fails over the others answer,
 * as docs/redis.md recommends.
 */
export async function startRedisCluster(
  options: StartRedisClusterOptions = {},
): Promise<RunningRedisCluster> {
  const servers = await startClusterNodes(options)
  const stop = () => stopAll(servers)
  try {
    await formCluster(servers)
    const nodes = servers.map((server) => `127.0.0.1:${server.port}`)
    const live = new Set(servers)

    const clusterNodes = async () => {
      const [any] = [...live]
      if (!any) throw new Error('no live node')
      return parseNodes(await cli(any.port, 'CLUSTER', 'NODES'))
    }
    const ownerOf = async (key: string) => {
      const [any] = [...live]
      const slot = Number(await cli(any!.port, 'CLUSTER', 'KEYSLOT', key))
      const owner = (await clusterNodes()).find(
        (node) =>
          node.primary &&
          !node.failed &&
          node.slots.some(([from, to]) => slot >= from && slot <= to),
      )
      if (!owner) throw new Error(`no primary serves slot ${slot}`)
      return { slot, owner }
    }
    return {
      nodes,
      async primaryPorts() {
        return (await clusterNodes())
          .filter((node) => node.primary && !node.failed)
          .map((node) => node.port)
      },
      async primaryPortOf(key) {
        return (await ownerOf(key)).owner.port
      },
      async killPrimaryOf(key) {
        const { slot, owner } = await ownerOf(key)
        const server = servers.find((candidate) => candidate.port === owner?.port)
        if (!server) throw new Error(`no server on port ${owner.port}`)
        await server.crash()
        live.delete(server)
        await waitFor(async () => {
          const now = await clusterNodes()
          const taken = now.find(
            (node) =>
              node.primary &&
              !node.failed &&
              node.port !== owner.port &&
              node.slots.some(([from, to]) => slot >= from && slot <= to),
          )
          return taken !== undefined && (await allOk([...live].map((server) => server.port)))
        }, `a replica to take over slot ${slot}`)
        return owner.port
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/**
 * The six `redis-server --cluster-enabled yes` of a cluster, not joined yet: `formCluster` joins
 * them. Apart so that the suite's shared cluster (`test/support/global-setup.ts`) can hand out
 * its addresses at once and join the nodes while the first test files run.
 */
export async function startClusterNodes(
  options: StartRedisClusterOptions = {},
): Promise<RunningRedis[]> {
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1_000
  // Started together: a node that lost its port to another's probe retries on another.
  const started = await Promise.allSettled(
    Array.from({ length: 6 }, () => startClusterNode(nodeTimeoutMs)),
  )
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failed = started.find((result) => result.status === 'rejected')
  if (failed) {
    await stopAll(servers)
    throw failed.reason
  }
  return servers
}

/**
 * Joins six fresh cluster nodes as three primaries with one replica each, and resolves once every
 * node reports `cluster_state:ok` and every replica is in sync (a replica still in its first sync
 * would lose what a test writes before a kill). `signal` gives up (the run is over).
 */
export async function formCluster(servers: RunningRedis[], signal?: AbortSignal): Promise<void> {
  const nodes = servers.map((server) => `127.0.0.1:${server.port}`)
  const ports = servers.map((server) => server.port)
  await run(CLI, ['--cluster', 'create', ...nodes, '--cluster-replicas', '1', '--cluster-yes'], {
    signal,
  })
  await waitFor(() => allOk(ports), 'cluster_state:ok on every node', signal)
  await waitFor(() => replicasInSync(ports), 'every replica in sync', signal)
}

function stopAll(servers: RunningRedis[]): Promise<void> {
  return Promise.all(servers.map((server) => server.stop())).then(() => {})
}

async function startClusterNode(nodeTimeoutMs: number): Promise<RunningRedis> {
  // The bus port is chosen apart from the client port (the default, port + 10000, may be taken).
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startRedis({
        args: [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(await freePort()),
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          '--cluster-require-full-coverage',
          'no',
          // A replica takes over however long it was cut off from its primary.
          '--cluster-replica-validity-factor',
          '0',
        ],
      })
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

interface ClusterNode {
  port: number
  primary: boolean
  failed: boolean
  slots: [number, number][]
}

function parseNodes(text: string): ClusterNode[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [, address = '', flags = '', , , , , , ...slots] = line.trim().split(' ')
      return {
        port: Number(/:(\d+)@/.exec(address)?.[1]),
        primary: flags.split(',').includes('master'),
        failed: /fail/.test(flags),
        slots: slots
          .filter((slot) => /^\d/.test(slot))
          .map((slot) => {
            const [from, to = from] = slot.split('-').map(Number)
            return [from!, to!] as [number, number]
          }),
      }
    })
}

async function allOk(ports: Iterable<number>): Promise<boolean> {
  for (const port of ports) {
    const info = await cli(port, 'CLUSTER', 'INFO').catch(() => '')
    if (!info.includes('cluster_state:ok')) return false
  }
  return true
}

async function replicasInSync(ports: number[]): Promise<boolean> {
  let inSync = 0
  for (const port of ports) {
    const info = await cli(port, 'INFO', 'replication')
    if (info.includes('role:slave') && info.includes('master_link_status:up')) inSync++
  }
  return inSync === ports.length / 2
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(CLI, ['-h', '127.0.0.1', '-p', String(port), ...args])
  return stdout
}

async function waitFor(
  condition: () => Promise<boolean>,
  what: string,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    signal?.throwIfAborted()
    if (await condition().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`redis cluster: no ${what} within ${READY_TIMEOUT_MS} ms`)
}
