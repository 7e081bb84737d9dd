import { loadProjectsFile } from './config/projects'
import type { ProjectsConfig } from './config/projects-schema'
import { createMemoryMailbox } from './relay/mailbox-memory'
import { createRedisMailbox } from './relay/mailbox-redis'
import type { RelayOptions } from './routes/relay'
import { type RunningServer, type StartOptions, startServer } from './server'
import { createMemoryStore } from './store/memory'
import { createRedisStore } from './store/redis'
import { checkClusterNodes, type RedisTarget } from './store/redis-connection'
import { createMemorySessionEvents } from './store/session-events'
import { createRedisSessionEvents } from './store/session-events-redis'
import type { Store } from './store/types'
import { createRedisTransactionFeed } from './transactions/feed-redis'

/** Options of `createServer`: what `scope-connect-server`'s flags set, as values. */
export interface CreateServerOptions
  extends Omit<StartOptions, 'projects' | 'store' | 'sessionEvents' | 'relay'> {
  /**
   * The projects: a projects file's path (read and checked as `--projects` is), or its content.
   * A bad entry rejects with a `ProjectsConfigError` naming the field.
   */
  projects: string | ProjectsConfig
  /**
   * What several instances share (sessions, rate-limit counters, the relay's mailbox, session
   * events, the transaction feed): a Redis URL (`redis://host:6379`), or `{ cluster: ['host:port',
   * …] }` for a Redis Cluster. Default: this process's memory (one instance).
   */
  redis?: RedisTarget
  /** The relay: signing keys, public URL, token lifetime, limits (its mailbox follows `redis`). */
  relay?: Omit<RelayOptions, 'mailbox'>
}

/** How long start-up waits for a Redis Cluster node to answer. */
const CLUSTER_CHECK_MS = 3_000

/** A running backend from `createServer`. */
export interface ScopeConnectServer extends RunningServer {
  /** Where sessions live: `memory`, `redis` or `redis cluster`. */
  storeKind: 'memory' | 'redis' | 'redis cluster'
}

/**
 * The backend, embedded: builds the Fastify app (routes, relay, rate limits, stores) as
 * `scope-connect-server` does, listens on `port` (default 8787; 0 picks a free one) and `host`
 * (default 127.0.0.1), and resolves once it accepts connections. `close()` stops accepting, lets
 * in-flight requests finish (up to `shutdownGraceMs`), then closes the stores it opened.
 *
 * @throws ProjectsConfigError on a projects file that cannot be read or has a bad entry (each
 *   problem names its field); an Error naming the address and the reason when a Redis Cluster
 *   address answers nothing or is not a cluster node; the listen error (`EADDRINUSE`…) when the port cannot be bound; an
 *   Error naming the option on a bad `trustProxy` entry or relay key. Nothing stays open after a
 *   rejection.
 */
export async function createServer(options: CreateServerOptions): Promise<ScopeConnectServer> {
  const { redis, relay, projects: projectsOption, ...rest } = options
  const projects =
    typeof projectsOption === 'string' ? await loadProjectsFile(projectsOption) : projectsOption
  // A cluster address that answers nothing, or a lone server, stops the start (named).
  if (redis !== undefined && typeof redis !== 'string')
    await checkClusterNodes(redis.cluster, CLUSTER_CHECK_MS)
  // The stores exist before the app's logger does; their outage warnings reach it once it does.
  let appLog:
    | { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
    | undefined
  const storeLog = {
    warn: (obj: object, msg: string) => appLog?.warn(obj, msg),
    info: (obj: object, msg: string) => appLog?.info(obj, msg),
  }
  // The store reports its outages through the app (one line each), not a logger of its own.
  const store: Store = redis ? createRedisStore(redis) : createMemoryStore()
  const mailbox = redis ? createRedisMailbox(redis, { log: storeLog }) : createMemoryMailbox()
  const sessionEvents = redis
    ? createRedisSessionEvents(redis, { log: storeLog })
    : createMemorySessionEvents()
  // With Redis (one server or a cluster) one instance polls each chain's head for every instance.
  const transactionFeed = redis ? createRedisTransactionFeed(redis, { log: storeLog }) : undefined
  const closeStores = async () => {
    await Promise.all([
      store.close(),
      mailbox.close(),
      sessionEvents.close(),
      transactionFeed?.close(),
    ])
  }
  const server = await startServer({
    ...rest,
    projects,
    store,
    sessionEvents,
    ...(transactionFeed ? { transactions: { ...rest.transactions, feed: transactionFeed } } : {}),
    relay: { ...relay, mailbox },
  }).catch(async (error: unknown) => {
    await closeStores()
    throw error
  })
  appLog = server.app.log
  return {
    app: server.app,
    url: server.url,
    storeKind:
      redis === undefined ? 'memory' : typeof redis === 'string' ? 'redis' : 'redis cluster',
    async close() {
      await server.close()
      await closeStores()
    },
  }
}
