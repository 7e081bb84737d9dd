import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { coversEveryAddress } from './rate-limit/client-ip'
import { parseClusterNodes } from './store/redis-connection'

export interface CliSettings {
  port: number
  host: string
  projectsFile: string
  redisUrl?: string
  /** `--redis-cluster`: `host:port` of Redis Cluster nodes (exclusive with `redisUrl`). */
  redisCluster?: string[]
  trustProxy: string[]
  /** `--trust-proxy-any`: allow a `trustProxy` that covers every address. */
  trustProxyAny: boolean
  logLevel: string
  /** `--relay-key`: base64url Ed25519 seeds, comma-separated (parsed by parseRelaySigningKeys). */
  relayKey?: string
  publicUrl?: string
  relayMaxSocketsPerIp?: number
  /** `--relay-app-quota-bytes` etc.: the relay's storage quotas and send-buffer ceiling. */
  relayLimits: {
    sourceQuotaBytes?: number
    sourceQuotaMessages?: number
    appQuotaBytes?: number
    appQuotaMessages?: number
    mailboxQuotaBytes?: number
    sendBufferBytes?: number
  }
  /** `--request-timeout` etc.: HTTP timeouts and the per-IP connection cap (`HttpLimits`). */
  http: {
    requestTimeoutMs?: number
    headersTimeoutMs?: number
    keepAliveTimeoutMs?: number
    maxConnectionsPerIp?: number
  }
  /** `--metrics-port` / `--metrics-host` / `--metrics-token`; absent: no metrics. */
  metrics?: { port?: number; host?: string; token?: string }
}

export const SAMPLE_PROJECTS_FILE = fileURLToPath(
  new URL('../projects.sample.json', import.meta.url),
)

export const USAGE = `scope-connect-server [options]

  --port <n>            PORT           listen port (default 8787; 0 picks a free one)
  --host <addr>         HOST           listen address (default 127.0.0.1)
  --projects <file>     PROJECTS_FILE  projects file (default: server/projects.sample.json)
  --redis-url <url>     REDIS_URL      share sessions and counters through Redis (default: in memory)
  --redis-cluster <list>  REDIS_CLUSTER_NODES  the same through a Redis Cluster (7+): comma list of
                                       host:port of its nodes (any of them; the rest are found)
  --trust-proxy <list>  TRUST_PROXY    comma list of proxy addresses/CIDRs whose X-Forwarded-For
                                       and Forwarded (RFC 7239) are read
  --trust-proxy-any     TRUST_PROXY_ANY=1  allow a --trust-proxy that covers every address
                                       (0.0.0.0/0, ::/0): only if nothing else reaches the port
  --log-level <level>   LOG_LEVEL      fatal|error|warn|info|debug|trace|silent (default info)
  --relay-key <keys>    RELAY_SIGNING_KEY  relay token key: base64url 32-byte Ed25519 seed(s), comma
                                       list, the first signs (default: generated, with a warning)
  --public-url <url>    PUBLIC_URL     the server's public base URL (relay token audience; default:
                                       each request's Host)
  --relay-max-sockets-per-ip <n>  RELAY_MAX_SOCKETS_PER_IP  open relay sockets per IP (default 200)
  --relay-source-quota-bytes <n>    RELAY_SOURCE_QUOTA_BYTES    mailbox bytes per app key and
                                       address, IPv6 /64 (default 8 MiB)
  --relay-source-quota-messages <n> RELAY_SOURCE_QUOTA_MESSAGES messages per app key and address
                                       (default 500)
  --relay-app-quota-bytes <n>     RELAY_APP_QUOTA_BYTES     mailbox bytes per app key (default 64 MiB)
  --relay-app-quota-messages <n>  RELAY_APP_QUOTA_MESSAGES  mailbox messages per app key (default 5000)
  --relay-mailbox-quota-bytes <n> RELAY_MAILBOX_QUOTA_BYTES mailbox bytes in all (default 512 MiB)
  --relay-send-buffer-bytes <n>   RELAY_SEND_BUFFER_BYTES   unsent bytes per socket before close
                                       1013 (default 1 MiB)
  --request-timeout <ms>     REQUEST_TIMEOUT_MS     a whole request, headers and body (default 20000)
  --headers-timeout <ms>     HEADERS_TIMEOUT_MS     a request's headers (default 10000)
  --keep-alive-timeout <ms>  KEEP_ALIVE_TIMEOUT_MS  an idle keep-alive connection (default 72000)
  --max-connections-per-ip <n>  MAX_CONNECTIONS_PER_IP  open connections per client IP, IPv6 per
                                       /64; trusted proxies exempt (default 512)
  --metrics-port <n>    METRICS_PORT   serve Prometheus /metrics on a listener of its own, no
                                       authentication (default: off; 0 picks a free port)
  --metrics-host <addr> METRICS_HOST   its address (default 127.0.0.1: keep it private)
  --metrics-token <t>   METRICS_TOKEN  serve /metrics on the main port to Authorization: Bearer <t>
                                       (16+ characters; default: off)
  --help                               this text
`

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Flags win over environment variables, which win over defaults. Throws a readable Error. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliSettings | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      projects: { type: 'string' },
      'redis-url': { type: 'string' },
      'redis-cluster': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'trust-proxy-any': { type: 'boolean' },
      'log-level': { type: 'string' },
      'relay-key': { type: 'string' },
      'public-url': { type: 'string' },
      'relay-max-sockets-per-ip': { type: 'string' },
      'relay-source-quota-bytes': { type: 'string' },
      'relay-source-quota-messages': { type: 'string' },
      'relay-app-quota-bytes': { type: 'string' },
      'relay-app-quota-messages': { type: 'string' },
      'relay-mailbox-quota-bytes': { type: 'string' },
      'relay-send-buffer-bytes': { type: 'string' },
      'request-timeout': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      'max-connections-per-ip': { type: 'string' },
      'metrics-port': { type: 'string' },
      'metrics-host': { type: 'string' },
      'metrics-token': { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (values.help) return 'help'
  const portText = values.port ?? env.PORT ?? '8787'
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65_535) throw new Error(`--port: not a port: ${portText}`)
  const logLevel = values['log-level'] ?? env.LOG_LEVEL ?? 'info'
  if (!LEVELS.includes(logLevel)) throw new Error(`--log-level: one of ${LEVELS.join(', ')}`)
  const trustProxy = (values['trust-proxy'] ?? env.TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const anyText = env.TRUST_PROXY_ANY
  const trustProxyAny =
    values['trust-proxy-any'] === true || (anyText !== undefined && /^(1|true|yes)$/i.test(anyText))
  let everyAddress: boolean
  try {
    everyAddress = coversEveryAddress(trustProxy)
  } catch (err) {
    throw new Error(`--trust-proxy: ${(err as Error).message}`)
  }
  if (everyAddress && !trustProxyAny) {
    throw new Error(
      `--trust-proxy: ${trustProxy.join(',')} trusts every address, so any client could name itself in X-Forwarded-For and mint new callers; list the proxies' addresses, or add --trust-proxy-any if only the proxies can reach this port`,
    )
  }
  const redisUrl = values['redis-url'] ?? env.REDIS_URL
  const clusterText = values['redis-cluster'] ?? env.REDIS_CLUSTER_NODES
  if (redisUrl && clusterText)
    throw new Error('--redis-url and --redis-cluster: give one, not both')
  let redisCluster: string[] | undefined
  if (clusterText) {
    try {
      redisCluster = parseClusterNodes(clusterText).cluster
    } catch (err) {
      throw new Error(`--redis-cluster: ${(err as Error).message}`)
    }
  }
  const relayKey = values['relay-key'] ?? env.RELAY_SIGNING_KEY
  const publicUrl = values['public-url'] ?? env.PUBLIC_URL
  const socketsText = values['relay-max-sockets-per-ip'] ?? env.RELAY_MAX_SOCKETS_PER_IP
  if (socketsText !== undefined && !/^[1-9]\d*$/.test(socketsText)) {
    throw new Error(`--relay-max-sockets-per-ip: not a positive integer: ${socketsText}`)
  }
  const positive = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined
    if (!/^[1-9]\d*$/.test(text)) throw new Error(`--${flag}: not a positive integer: ${text}`)
    return Number(text)
  }
  const httpEntries = {
    requestTimeoutMs: positive(
      'request-timeout',
      values['request-timeout'] ?? env.REQUEST_TIMEOUT_MS,
    ),
    headersTimeoutMs: positive(
      'headers-timeout',
      values['headers-timeout'] ?? env.HEADERS_TIMEOUT_MS,
    ),
    keepAliveTimeoutMs: positive(
      'keep-alive-timeout',
      values['keep-alive-timeout'] ?? env.KEEP_ALIVE_TIMEOUT_MS,
    ),
    maxConnectionsPerIp: positive(
      'max-connections-per-ip',
      values['max-connections-per-ip'] ?? env.MAX_CONNECTIONS_PER_IP,
    ),
  }
  const metricsPortText = values['metrics-port'] ?? env.METRICS_PORT
  if (
    metricsPortText !== undefined &&
    (!/^\d+$/.test(metricsPortText) || +metricsPortText > 65_535)
  ) {
    throw new Error(`--metrics-port: not a port: ${metricsPortText}`)
  }
  const metricsHost = values['metrics-host'] ?? env.METRICS_HOST
  const metricsToken = values['metrics-token'] ?? env.METRICS_TOKEN
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new Error('--metrics-token: at least 16 characters')
  }
  if (metricsHost !== undefined && metricsPortText === undefined) {
    throw new Error('--metrics-host: needs --metrics-port')
  }
  const metrics = {
    ...(metricsPortText !== undefined ? { port: Number(metricsPortText) } : {}),
    ...(metricsHost !== undefined ? { host: metricsHost } : {}),
    ...(metricsToken !== undefined ? { token: metricsToken } : {}),
  }
  const http = Object.fromEntries(
    Object.entries(httpEntries).filter(([, value]) => value !== undefined),
  ) as CliSettings['http']
  const relayEntries = {
    sourceQuotaBytes: positive(
      'relay-source-quota-bytes',
      values['relay-source-quota-bytes'] ?? env.RELAY_SOURCE_QUOTA_BYTES,
    ),
    sourceQuotaMessages: positive(
      'relay-source-quota-messages',
      values['relay-source-quota-messages'] ?? env.RELAY_SOURCE_QUOTA_MESSAGES,
    ),
    appQuotaBytes: positive(
      'relay-app-quota-bytes',
      values['relay-app-quota-bytes'] ?? env.RELAY_APP_QUOTA_BYTES,
    ),
    appQuotaMessages: positive(
      'relay-app-quota-messages',
      values['relay-app-quota-messages'] ?? env.RELAY_APP_QUOTA_MESSAGES,
    ),
    mailboxQuotaBytes: positive(
      'relay-mailbox-quota-bytes',
      values['relay-mailbox-quota-bytes'] ?? env.RELAY_MAILBOX_QUOTA_BYTES,
    ),
    sendBufferBytes: positive(
      'relay-send-buffer-bytes',
      values['relay-send-buffer-bytes'] ?? env.RELAY_SEND_BUFFER_BYTES,
    ),
  }
  const relayLimits = Object.fromEntries(
    Object.entries(relayEntries).filter(([, value]) => value !== undefined),
  ) as CliSettings['relayLimits']
  return {
    port,
    http,
    relayLimits,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    projectsFile: values.projects ?? env.PROJECTS_FILE ?? SAMPLE_PROJECTS_FILE,
    ...(redisUrl ? { redisUrl } : {}),
    ...(redisCluster ? { redisCluster } : {}),
    trustProxy,
    trustProxyAny,
    logLevel,
    ...(relayKey ? { relayKey } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(socketsText ? { relayMaxSocketsPerIp: Number(socketsText) } : {}),
    ...(Object.keys(metrics).length > 0 ? { metrics } : {}),
  }
}
