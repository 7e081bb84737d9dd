import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

export interface CliSettings {
  port: number
  host: string
  projectsFile: string
  redisUrl?: string
  trustProxy: string[]
  logLevel: string
}

export const SAMPLE_PROJECTS_FILE = fileURLToPath(
  new URL('../projects.sample.json', import.meta.url),
)

export const USAGE = `scope-connect-server [options]

  --port <n>            PORT           listen port (default 8787; 0 picks a free one)
  --host <addr>         HOST           listen address (default 127.0.0.1)
  --projects <file>     PROJECTS_FILE  projects file (default: server/projects.sample.json)
  --redis-url <url>     REDIS_URL      share sessions and counters through Redis (default: in memory)
  --trust-proxy <list>  TRUST_PROXY    comma list of proxy addresses/CIDRs whose X-Forwarded-For is read
  --log-level <level>   LOG_LEVEL      fatal|error|warn|info|debug|trace|silent (default info)
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
      'trust-proxy': { type: 'string' },
      'log-level': { type: 'string' },
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
  const redisUrl = values['redis-url'] ?? env.REDIS_URL
  return {
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    projectsFile: values.projects ?? env.PROJECTS_FILE ?? SAMPLE_PROJECTS_FILE,
    ...(redisUrl ? { redisUrl } : {}),
    trustProxy,
    logLevel,
  }
}
