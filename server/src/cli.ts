import { parseCli, USAGE } from './cli-args'
import { createServer } from './create-server'
import { createPrettyDestination, logFormatFor } from './log-pretty'
import { parseRelaySigningKeys } from './relay/token'
import type { RedisTarget } from './store/redis-connection'

/** `scope-connect-server`: the embedded default (memory store, sample project) or Redis-backed. */
async function main(): Promise<void> {
  const settings = parseCli(process.argv.slice(2), process.env)
  if (settings === 'help') {
    process.stdout.write(USAGE)
    return
  }
  const redis: RedisTarget | undefined = settings.redisCluster
    ? { cluster: settings.redisCluster }
    : settings.redisUrl
  const server = await createServer({
    projects: settings.projectsFile,
    ...(redis ? { redis } : {}),
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
      ...(settings.relayKey ? { signingKeys: parseRelaySigningKeys(settings.relayKey) } : {}),
      ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
      limits: {
        ...settings.relayLimits,
        ...(settings.relayMaxSocketsPerIp
          ? { maxSocketsPerIp: settings.relayMaxSocketsPerIp }
          : {}),
      },
    },
  })
  // Before the line that says it listens: a SIGTERM right after it still closes gracefully.
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    server.app.log.info({ signal }, 'shutting down')
    // close() closes relay sockets (1001), stops accepting and waits for in-flight requests;
    // then the stores go.
    await server.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))

  process.stdout.write(
    `scope-connect-server listening on ${server.url} (store: ${server.storeKind})\n`,
  )
  if (server.app.metricsUrl) {
    process.stdout.write(`metrics on ${server.app.metricsUrl}/metrics\n`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `scope-connect-server: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exit(1)
})
