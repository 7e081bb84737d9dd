import { parseCli, USAGE } from './cli-args'
import { loadProjectsFile } from './config/projects'
import { createPrettyDestination, logFormatFor } from './log-pretty'
import { createMemoryMailbox } from './relay/mailbox-memory'
import { createRedisMailbox } from './relay/mailbox-redis'
import { parseRelaySigningKeys } from './relay/token'
import { startServer } from './server'
import { createMemoryStore } from './store/memory'
import { createRedisStore } from './store/redis'
import { checkClusterNodes, type RedisTarget } from './store/redis-connection'
import { createMemorySessionEvents } from './store/session-events'
import { createRedisSessionEvents } from './store/session-events-redis'
import type { Store } from './store/types'
import { createRedisTransactionFeed } from './transactions/feed-redis'

/** How long start-up waits for a `--redis-cluster` node to answer. */
const CLUSTER_CHECK_MS = 3_000

/** `scope-connect-server`: the embedded default (memory store, sample project) or Redis-backed. */
async function main(): Promise<void> {
  const settings = parseCli(process.argv.slice(2), process.env)
  if (settings === 'help') {
    process.stdout.write(USAGE)
    return
  }
  const projects = await loadProjectsFile(settings.projectsFile)
  // The store exists before the app's logger does; its outage warnings reach the log once it does.
  let appLog:
    | { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
    | undefined
  const storeLog = {
    warn: (obj: object, msg: string) => appLog?.warn(obj, msg),
    info: (obj: object, msg: string) => appLog?.info(obj, msg),
  }
  const redis: RedisTarget | undefined = settings.redisCluster
    ? { cluster: settings.redisCluster }
    : settings.redisUrl
  // A cluster address that answers nothing, or a lone server, stops the start (exit 1, named).
  if (settings.redisCluster) await checkClusterNodes(settings.redisCluster, CLUSTER_CHECK_MS)
  const store: Store = redis ? createRedisStore(redis) : createMemoryStore()
  const mailbox = redis ? createRedisMailbox(redis, { log: storeLog }) : createMemoryMailbox()
  const sessionEvents = redis
    ? createRedisSessionEvents(redis, { log: storeLog })
    : createMemorySessionEvents()
  // With Redis (one server or a cluster) one instance polls each chain's head for every instance.
  const transactionFeed = redis ? createRedisTransactionFeed(redis, { log: storeLog }) : undefined
  const closeStores = () =>
    Promise.all([store.close(), mailbox.close(), sessionEvents.close(), transactionFeed?.close()])
  const server = await startServer({
    projects,
    store,
    sessionEvents,
    ...(transactionFeed ? { transactions: { feed: transactionFeed } } : {}),
    trustProxy: settings.trustProxy,
    trustProxyAny: settings.trustProxyAny,
    logger: {
      level: settings.logLevel,
      // Readable lines on a terminal; JSON lines when piped (a collector), or as LOG_FORMAT says.
      ...(logFormatFor(process.env, process.stdout.isTTY === true) === 'pretty'
        ? {
            destination: createPrettyDestination(process.stdout, {
              color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
            }),
          }
        : {}),
    },
    port: settings.port,
    host: settings.host,
    http: settings.http,
    ...(settings.metrics ? { metrics: settings.metrics } : {}),
    relay: {
      mailbox,
      ...(settings.relayKey ? { signingKeys: parseRelaySigningKeys(settings.relayKey) } : {}),
      ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
      limits: {
        ...settings.relayLimits,
        ...(settings.relayMaxSocketsPerIp
          ? { maxSocketsPerIp: settings.relayMaxSocketsPerIp }
          : {}),
      },
    },
  }).catch(async (error) => {
    await closeStores()
    throw error
  })
  appLog = server.app.log
  process.stdout.write(
    `scope-connect-server listening on ${server.url} (store: ${settings.redisCluster ? 'redis cluster' : store.kind})\n`,
  )
  if (server.app.metricsUrl) {
    process.stdout.write(`metrics on ${server.app.metricsUrl}/metrics\n`)
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    server.app.log.info({ signal }, 'shutting down')
    // close() closes relay sockets (1001), stops accepting and waits for in-flight requests;
    // then the stores go.
    await server.close()
    await closeStores()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  process.stderr.write(
    `scope-connect-server: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exit(1)
})
