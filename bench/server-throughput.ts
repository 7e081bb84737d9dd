/**
 * Server throughput on loopback: the poll hot path, the session result route
 * (`GET /api/v1/connect/sessions/{id}/result` with a bearer token), side by side with the stack a
 * team would otherwise write (Fastify 5 + @fastify/rate-limit + a session lookup with the same
 * token check) and a bare Fastify route, each on the in-process store and on Redis. The load
 * generator (autocannon) runs in its own process so it does not share the server's event loop, and
 * each target runs in a fresh process of its own (no shared heap or warmed-up framework code).
 * Writes the table to docs/benchmarks.md under "Server throughput".
 *
 * The targets run in interleaved rounds (default 3) and each row reports its median round, so one
 * noisy moment on a shared machine does not decide a ratio.
 *
 * Pinned by default: the server under test runs on core 0; autocannon, redis-server and this
 * process on core 1 (`taskset`), the same for every target. Otherwise autocannon and the
 * server fight for the same cores and the figures measure the scheduler as much as the server.
 * `--co-located` skips the pinning; `--only 2,3` runs the given target indexes only and writes
 * nothing (for quick comparisons while working on the route). Targets 6 and 7 are ours again
 * with Prometheus metrics on (`metrics: { token }`): `--only 3,6` measures what counting every
 * answer costs, side by side in the same rounds. `--cluster` adds target 8, ours on a Redis
 * Cluster (three primaries, three replicas, on the load core like the lone redis-server), and runs
 * it beside target 5 (ours on one Redis) only; it prints and writes nothing (the figures are in
 * docs/redis.md).
 *
 *   npx tsx bench/server-throughput.ts [--duration 10] [--connections 50] [--rounds 3]
 *     [--co-located] [--only 2,3] [--cluster]
 */
import { execFile, fork } from 'node:child_process'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { API_PREFIX, APP_KEY_HEADER, ROUTES } from 'scope-connect/wire'
import { buildApp } from '../server/src/app'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import { createRedisStore } from '../server/src/store/redis'
import type { RedisTarget } from '../server/src/store/redis-connection'
import type { Store } from '../server/src/store/types'
import { startRedis } from '../test/support/redis'
import { startRedisCluster } from '../test/support/redis-cluster'

const root = fileURLToPath(new URL('..', import.meta.url))
const DOC = `${root}docs/benchmarks.md`
const HEADING = '## Server throughput'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const DURATION_S = option('duration', 10)
const CONNECTIONS = option('connections', 50)
const ROUNDS = option('rounds', 3)
const WARMUP_S = 2
const PINNED = !args.includes('--co-located')
const CLUSTER = args.includes('--cluster')
const ONLY = args.includes('--only')
  ? new Set(args[args.indexOf('--only') + 1]!.split(',').map(Number))
  : CLUSTER
    ? new Set([5, 8])
    : undefined
/** Core of the servers under test (this process) and core of the load generator and Redis. */
const SERVER_CORE = 0
const LOAD_CORE = 1

const APP_KEY = 'bench-app-key-0001'
// The session limit (120/60 s by default) would answer 429 after the first 120 requests; the
// bench measures the route, not the limiter's refusals, so it raises the quota past any rate
// reachable here. The limiter still counts every request: after each run the bench reads the
// session's remaining quota and checks that it went down by the number of requests sent.
const SESSION_LIMIT = 1_000_000
const PROJECTS: ProjectsConfig = {
  projects: [
    {
      projectId: 'bench',
      name: 'Bench',
      appKeys: [APP_KEY],
      networks: [{ chainId: 'eip155:1' }],
      wallets: [],
      rateLimits: { session: { limit: SESSION_LIMIT, windowSeconds: 60 } },
    },
  ],
}

interface Figures {
  target: string
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** CPU time of the server's process (every server under test runs in this one) per answer, µs. */
  serverCpuUs: number
  /** CPU time of redis-server per answer, µs (Redis targets only). */
  redisCpuUs?: number
}

interface AutocannonJson {
  requests: { average: number; total: number; sent: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
  timeouts: number
}

const run = promisify(execFile)

/** Pins every thread of process `pid` to `core` (taskset -a: V8's and libuv's threads too). */
async function pin(pid: number, core: number): Promise<void> {
  await run('taskset', ['-a', '-cp', String(core), String(pid)])
}

/** CPU seconds the redis-servers have used so far (INFO cpu: user + system), summed. */
async function redisCpuSeconds(clients: Redis[]): Promise<number> {
  let seconds = 0
  for (const client of clients) {
    const info = await client.info('cpu')
    const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)![1])
    seconds += field('used_cpu_user') + field('used_cpu_sys')
  }
  return seconds
}

async function load(
  target: string,
  url: string,
  headers: Record<string, string>,
  serverCpuUs: () => Promise<number>,
  redis: Redis[] | undefined,
) {
  const header = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}=${value}`])
  const cannon = async (seconds: number) => {
    const command = [
      `${root}node_modules/.bin/autocannon`,
      '--json',
      ...['-c', String(CONNECTIONS), '-d', String(seconds)],
      ...header,
      url,
    ]
    const pinned = PINNED ? ['taskset', '-c', String(LOAD_CORE), ...command] : command
    const { stdout } = await run(pinned[0]!, pinned.slice(1), { maxBuffer: 16 * 1024 * 1024 })
    return JSON.parse(stdout) as AutocannonJson
  }
  const warmup = await cannon(WARMUP_S) // JIT and connection set-up, not recorded
  const cpuBefore = await serverCpuUs()
  const redisBefore = redis ? await redisCpuSeconds(redis) : 0
  const result = await cannon(DURATION_S)
  const cpuUs = (await serverCpuUs()) - cpuBefore
  const redisSeconds = redis ? (await redisCpuSeconds(redis)) - redisBefore : 0
  const answered = Math.max(1, result.requests.total)
  // Answered ≤ reached the server ≤ sent: the requests in flight when autocannon stops may or may
  // not have been served.
  const requests = {
    answered: warmup.requests.total + result.requests.total,
    sent: warmup.requests.sent + result.requests.sent,
  }
  const figures: Figures = {
    target,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    serverCpuUs: cpuUs / answered,
    ...(redis ? { redisCpuUs: (redisSeconds * 1e6) / answered } : {}),
  }
  const redisCpu = redis ? `, Redis ${figures.redisCpuUs!.toFixed(1)} µs CPU/req` : ''
  console.log(
    `${target}: ${figures.requestsPerSecond.toFixed(0)} req/s, server ${figures.serverCpuUs.toFixed(1)} µs CPU/req${redisCpu}, p50 ${figures.p50} ms, p99 ${figures.p99} ms, non-2xx ${figures.non2xx}, errors ${figures.errors}`,
  )
  return { figures, requests }
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return `http://127.0.0.1:${address.port}`
}

interface Opened {
  url: string
  headers: Record<string, string>
  close(): Promise<void>
}

interface Target {
  name: string
  /** True for the targets on Redis: their runs also read redis-server's CPU time. */
  onRedis?: boolean
  /** True for our result route: its answers carry the session's remaining quota to check. */
  counts?: boolean
  open(): Promise<Opened>
}

const RESULT_ANSWER_HEADERS = {
  'ratelimit-policy': '"session";q=1000000;w=60',
  ratelimit: '"session";r=999999;t=60',
  'cache-control': 'no-store',
}

/** Fastify with no plugins: the ceiling. `sameAnswer` sends the result route's bytes instead. */
function bare(name: string, sameAnswer: boolean): Target {
  return {
    name,
    async open() {
      const app = Fastify({ logger: false })
      const answer = {
        sessionId: 'DD_Knfcitpb92FZj5Q6zRQ',
        status: 'pending',
        connected: false,
        signed: false,
        walletAddress: null,
        signature: null,
        txSignature: null,
        errorCode: null,
        expiresAt: 1795414734162,
      }
      app.get('/', async (_, reply) => {
        if (!sameAnswer) return { hello: 'world' }
        reply.headers(RESULT_ANSWER_HEADERS)
        return answer
      })
      return { url: await listen(app), headers: {}, close: () => app.close() }
    },
  }
}

function resultRoute(name: string, makeStore?: () => Promise<Store>, withMetrics = false): Target {
  return {
    name,
    onRedis: makeStore !== undefined,
    counts: true,
    async open() {
      const store = makeStore ? await makeStore() : undefined
      const app = await buildApp({
        projects: PROJECTS,
        logger: false,
        ...(store ? { store } : {}),
        ...(withMetrics ? { metrics: { token: 'bench-metrics-token-0001' } } : {}),
      })
      const close = async () => {
        await app.close()
        await store?.close()
      }
      try {
        const base = await listen(app)
        const created = await fetch(base + API_PREFIX + ROUTES.sessions, {
          method: 'POST',
          headers: { [APP_KEY_HEADER]: APP_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ caip2Chain: 'eip155:1' }),
        })
        if (created.status !== 201) throw new Error(`session creation: ${created.status}`)
        const { sessionId, sessionToken } = (await created.json()) as {
          sessionId: string
          sessionToken: string
        }
        const url = base + API_PREFIX + ROUTES.sessionResult(sessionId)
        const headers = { authorization: `Bearer ${sessionToken}` }
        return { url, headers, close }
      } catch (err) {
        await close()
        throw err
      }
    },
  }
}

/**
 * The peer: what a team would write with the usual parts. Fastify 5, @fastify/rate-limit keyed
 * by the session id (its LRU store in process, its Lua script on Redis), then a session lookup
 * (a Map, or HGETALL of a hash whose values are JSON, as ours are) and the same token check
 * (SHA-256 of the bearer token, compared in constant time), answering the same body and headers.
 * On Redis that is two round trips per poll (the limiter's script, then the read).
 */
function peer(name: string, redisUrl?: string): Target {
  return {
    name,
    onRedis: redisUrl !== undefined,
    async open() {
      const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: false }) : undefined
      const sessionId = randomBytes(16).toString('base64url')
      const token = randomBytes(32).toString('base64url')
      const record = {
        sessionId,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        status: 'pending',
        walletAddress: null,
        signature: null,
        txSignature: null,
        errorCode: null,
        expiresAt: Date.now() + 600_000,
      }
      const memory = new Map<string, typeof record>()
      if (redis) {
        const fields = Object.entries(record).flatMap(([key, value]) => [
          key,
          JSON.stringify(value),
        ])
        await redis.hset(`peer:session:${sessionId}`, ...fields)
      } else {
        memory.set(sessionId, record)
      }
      const lookup = async (id: string): Promise<typeof record | undefined> => {
        if (!redis) return memory.get(id)
        const fields = await redis.hgetall(`peer:session:${id}`)
        const entries = Object.entries(fields)
        if (entries.length === 0) return undefined
        return Object.fromEntries(entries.map(([k, v]) => [k, JSON.parse(v)])) as typeof record
      }
      const app = Fastify({ logger: false })
      await app.register(rateLimit, {
        max: SESSION_LIMIT,
        timeWindow: 60_000,
        keyGenerator: (request) => (request.params as { id?: string }).id ?? request.ip,
        ...(redis ? { redis, nameSpace: 'peer-rl-' } : {}),
      })
      app.get<{ Params: { id: string } }>('/sessions/:id/result', async (request, reply) => {
        const session = await lookup(request.params.id)
        const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1]
        const presented = createHash('sha256')
          .update(bearer ?? '')
          .digest()
        if (!session || !timingSafeEqual(presented, Buffer.from(session.tokenHash, 'hex'))) {
          return reply.code(404).send({ error: { code: 'SESSION_NOT_FOUND', message: 'no' } })
        }
        reply.header('cache-control', 'no-store')
        return {
          sessionId: session.sessionId,
          status: session.status,
          connected: false,
          signed: false,
          walletAddress: session.walletAddress,
          signature: session.signature,
          txSignature: session.txSignature,
          errorCode: session.errorCode,
          expiresAt: session.expiresAt,
        }
      })
      const url = `${await listen(app)}/sessions/${sessionId}/result`
      return {
        url,
        headers: { authorization: `Bearer ${token}` },
        close: async () => {
          await app.close()
          redis?.disconnect()
        },
      }
    },
  }
}

/** The limiter must have counted every request that reached the server: no more, no fewer. */
function checkCounted(
  target: string,
  counted: number,
  requests: { answered: number; sent: number },
) {
  if (counted < requests.answered || counted > requests.sent) {
    throw new Error(
      `${target}: the limiter counted ${counted} requests; autocannon had ${requests.answered} answered of ${requests.sent} sent`,
    )
  }
  console.log(`  limiter counted ${counted} (answered ${requests.answered}, sent ${requests.sent})`)
}

const middle = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

/**
 * The round whose req/s is the median of the target's rounds, with the median of the rounds'
 * CPU times per answer (a quieter figure than req/s on a shared machine).
 */
function median(runs: Figures[]): Figures {
  const sorted = [...runs].sort((x, y) => x.requestsPerSecond - y.requestsPerSecond)
  const row = sorted[Math.floor((sorted.length - 1) / 2)]!
  const redisCpu = runs.flatMap((run) => (run.redisCpuUs === undefined ? [] : [run.redisCpuUs]))
  return {
    ...row,
    serverCpuUs: middle(runs.map((run) => run.serverCpuUs)),
    ...(redisCpu.length > 0 ? { redisCpuUs: middle(redisCpu) } : {}),
  }
}

/** Row indexes, in the order of `targets` in main(). */
const BARE = 0
const PEER_MEMORY = 2
const OURS_MEMORY = 3
const PEER_REDIS = 4
const OURS_REDIS = 5
/** Ours with Prometheus metrics on (what counting every answer costs). */
const OURS_MEMORY_METRICS = 6
const OURS_REDIS_METRICS = 7
/** Ours on a Redis Cluster (`--cluster` only). */
const OURS_CLUSTER = 8
const PEER_OF: Record<number, number> = {
  [OURS_MEMORY]: PEER_MEMORY,
  [OURS_REDIS]: PEER_REDIS,
  [OURS_MEMORY_METRICS]: PEER_MEMORY,
  [OURS_REDIS_METRICS]: PEER_REDIS,
}

/** Ours ÷ the peer's req/s in each round (the two ran back to back, under the same load). */
function roundRatios(runs: Figures[][], ours: number): number[] {
  return runs[ours]!.map(
    (run, round) => run.requestsPerSecond / runs[PEER_OF[ours]!]![round]!.requestsPerSecond,
  )
}

const cpuOf = (row: Figures) => row.serverCpuUs + (row.redisCpuUs ?? 0)

function table(rows: Figures[]): string {
  const baseline = rows[BARE]!.requestsPerSecond
  const lines = [
    '| Target | req/s | server CPU (µs/req) | Redis CPU (µs/req) | p50 (ms) | p99 (ms) | ratio to bare | ratio to peer | CPU: peer ÷ ours | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row, index) => {
      const peerRow = PEER_OF[index] === undefined ? undefined : rows[PEER_OF[index]!]!
      const toPeer = peerRow
        ? `**${(row.requestsPerSecond / peerRow.requestsPerSecond).toFixed(2)}**`
        : ''
      const cpuToPeer = peerRow ? `**${(cpuOf(peerRow) / cpuOf(row)).toFixed(2)}**` : ''
      const redisCpu = row.redisCpuUs === undefined ? '' : row.redisCpuUs.toFixed(1)
      return `| ${row.target} | ${row.requestsPerSecond.toFixed(0)} | ${row.serverCpuUs.toFixed(1)} | ${redisCpu} | ${row.p50} | ${row.p99} | ${(row.requestsPerSecond / baseline).toFixed(2)} | ${toPeer} | ${cpuToPeer} | ${row.non2xx} | ${row.errors} |`
    }),
  ]
  return lines.join('\n')
}

function section(rows: Figures[], runs: Figures[][]): string {
  const cpu = cpus()
  const rps = (index: number) => rows[index]!.requestsPerSecond
  const cpuRatio = (ours: number) => cpuOf(rows[PEER_OF[ours]!]!) / cpuOf(rows[ours]!)
  const verdict = (ratio: number, goal: number) =>
    `${ratio >= goal ? 'met' : '**not met**'} (${ratio.toFixed(2)})`
  const perRound = (ours: number) =>
    roundRatios(runs, ours)
      .map((ratio) => ratio.toFixed(2))
      .join(', ')
  const placement = PINNED
    ? `**Pinned** (\`taskset\`, the same for every target): each server under test in a fresh
process of its own on core ${SERVER_CORE}; autocannon, redis-server and the bench's own process on core ${LOAD_CORE}, so
the load generator never takes the server's core.`
    : '**Co-located** (`--co-located`): each server under test in a fresh process of its own; the servers, autocannon and redis-server share every core.'
  return `${HEADING}

Generated by \`npx tsx bench/server-throughput.ts${PINNED ? '' : ' --co-located'}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC:
Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB.
Loopback HTTP/1.1, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION_S} s per target (each after a
${WARMUP_S} s warm-up; every other round in reverse order); each row is the target's median round by req/s, with the median of its rounds'
CPU times. ${placement} 1-minute load average ${loadAtStart.toFixed(1)} when the run began and
${loadavg()[0]!.toFixed(1)} when it ended: other work shares the machine, so the figures compare targets run side by
side; they are not a capacity plan.

${table(rows)}

- **Bare Fastify**: \`GET /\` answering \`{"hello":"world"}\`, no plugins: the ceiling.
- **Bare Fastify, the result route's answer**: the same server sending the result route's bytes
  (its 190-byte JSON body and its three extra headers). The gap between the two bare rows is what
  the bigger answer costs on the wire and in autocannon's parser, before any of our code runs.
- **Peer**: the stack a team would otherwise write: Fastify 5 + \`@fastify/rate-limit\` keyed by
  the session id (its in-process LRU store, or its Lua script on the same Redis through a
  default ioredis client), then a session lookup (a \`Map\`, or \`HGETALL\` of a hash of JSON
  values, as ours) and the same token check (SHA-256, constant-time compare), the same answer.
  On Redis: two round trips per poll.
- **Result route** (ours): \`GET /api/v1/connect/sessions/{id}/result\` with \`Authorization:
  Bearer\`, with everything the server does on it: id validation, the token's SHA-256, one store
  call that reads the session and counts the poll in the same step (\`getSessionAndHit\`; on
  Redis one script, one round trip per poll, the commands of one event-loop turn in one socket
  write), the constant-time token compare, origin and CORS, the RateLimit headers, the
  failed-authentication limit (counted in the error handler, so a good poll pays nothing for it),
  the answer (its JSON written as a string, the bytes \`JSON.stringify\` gives).
- **server CPU**: the server process's CPU time (user + system, \`process.cpuUsage\`) over the
  measured run, divided by the answers; the process runs that one server and nothing else.
  **Redis CPU**: redis-server's (\`INFO cpu\`) the same way. **CPU: peer ÷ ours** compares the
  two sums; above 1, a poll costs ours less CPU than it costs the peer. It depends less than req/s on how fast autocannon can
  send on a shared machine (a busier server does a little less per answer: more answers per
  wake-up).
- Ours ÷ the peer's req/s in each round (run back to back): in process ${perRound(OURS_MEMORY)};
  on Redis ${perRound(OURS_REDIS)}.
- The bench project raises its per-session quota to ${SESSION_LIMIT.toLocaleString('en')} per 60 s (default 120), since one
  session polled ${CONNECTIONS} connections wide would otherwise get 429 after 120 requests (the peer gets the
  same quota). Our limiter still counts every request, and the bench checks it: after each run the
  session's remaining quota must have gone down by the requests that reached the server (between
  those answered and those sent), or the run fails.

Goals (issue 10), this run: ≥ 1.0 × the peer in process: req/s ${verdict(rps(OURS_MEMORY) / rps(PEER_MEMORY), 1)}, CPU per poll ${verdict(cpuRatio(OURS_MEMORY), 1)};
≥ 1.0 × the peer on Redis: req/s ${verdict(rps(OURS_REDIS) / rps(PEER_REDIS), 1)}, CPU per poll ${verdict(cpuRatio(OURS_REDIS), 1)};
≥ 0.4 × bare on Redis: ${verdict(rps(OURS_REDIS) / rps(BARE), 0.4)}.
`
}

async function writeDoc(text: string): Promise<void> {
  let doc = '# Benchmarks\n'
  try {
    doc = await readFile(DOC, 'utf8')
  } catch {}
  // Replace only this section (up to the next "## " heading); other sections stay as they are,
  // and so do hand-written "### " notes at the end of this one.
  const start = doc.indexOf(HEADING)
  if (start === -1) {
    doc = `${doc.trimEnd()}\n\n${text}`
  } else {
    const next = doc.indexOf('\n## ', start + HEADING.length)
    const end = next === -1 ? doc.length : next + 1
    const notes = doc.indexOf('\n### ', start)
    const kept = notes !== -1 && notes < end ? `\n${doc.slice(notes + 1, end).trimEnd()}\n` : ''
    doc = doc.slice(0, start) + text + kept + (next === -1 ? '' : `\n${doc.slice(next + 1)}`)
  }
  await writeFile(DOC, doc.endsWith('\n') ? doc : `${doc}\n`)
}

const loadAtStart = loadavg()[0] ?? 0

/** The redis-server's pid, from INFO (startRedis keeps its child to itself). */
async function redisPid(url: string): Promise<number> {
  const client = new Redis(url)
  try {
    const info = await client.info('server')
    return Number(/process_id:(\d+)/.exec(info)![1])
  } finally {
    client.disconnect()
  }
}

/**
 * The targets, by index (see BARE, PEER_MEMORY, OURS_MEMORY, PEER_REDIS, OURS_REDIS,
 * OURS_MEMORY_METRICS, OURS_REDIS_METRICS).
 */
function targetsOn(redisUrl: string, clusterNodes?: string[]): Target[] {
  const redisStore =
    (autoPipelining: boolean, on: RedisTarget = redisUrl) =>
    async () => {
      const store = createRedisStore(on, { keyPrefix: 'bench:', autoPipelining })
      await store.ready()
      return store
    }
  return [
    bare('bare Fastify hello-world', false),
    bare("bare Fastify, the result route's answer", true),
    peer('peer: Fastify + @fastify/rate-limit + Map lookup, in process'),
    resultRoute('result route, in-process store'),
    peer('peer: Fastify + @fastify/rate-limit + HGETALL, Redis', redisUrl),
    resultRoute('result route, Redis store', redisStore(true)),
    resultRoute('result route, in-process store, metrics on', undefined, true),
    resultRoute('result route, Redis store, metrics on', redisStore(true), true),
    ...(clusterNodes
      ? [
          resultRoute(
            'result route, Redis Cluster store (3 + 3)',
            redisStore(true, { cluster: clusterNodes }),
          ),
        ]
      : []),
  ]
}

type ChildMessage =
  | { ready: { url: string; headers: Record<string, string> } }
  | { cpuUs: number }
  | { failed: string }

/**
 * Child mode (`--serve <index> <redisUrl>`): opens one target, reports its URL, answers CPU
 * time questions, closes on request. Each target runs in a fresh process, so no server shares a
 * heap, a garbage collector or Fastify's warmed-up (and then polymorphic) code with another.
 */
async function serveOne(index: number, redisUrl: string, clusterNodes?: string[]): Promise<void> {
  const send = (message: ChildMessage) => process.send!(message)
  let opened: Opened
  try {
    opened = await targetsOn(redisUrl, clusterNodes)[index]!.open()
  } catch (err) {
    send({ failed: String(err) })
    process.exit(1)
  }
  process.on('message', async (message: 'cpu' | 'close') => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage()
      send({ cpuUs: user + system })
      return
    }
    await opened.close()
    process.exit(0)
  })
  send({ ready: { url: opened.url, headers: opened.headers } })
}

interface Child {
  url: string
  headers: Record<string, string>
  /** The child's CPU time so far, µs. */
  cpuUs(): Promise<number>
  close(): Promise<void>
}

/** Starts target `index` in a child process (pinned to the server core when pinning). */
async function openChild(index: number, redisUrl: string, clusterNodes?: string[]): Promise<Child> {
  const serve = [
    '--serve',
    String(index),
    redisUrl,
    ...(clusterNodes ? [clusterNodes.join(',')] : []),
  ]
  const child = fork(fileURLToPath(import.meta.url), serve, { execArgv: process.execArgv })
  const next = () =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`target ${index} exited (${code})`))
      child.once('exit', onExit)
      child.once('message', (message: ChildMessage) => {
        child.off('exit', onExit)
        resolve(message)
      })
    })
  const first = await next()
  if (!('ready' in first)) throw new Error(`target ${index}: ${JSON.stringify(first)}`)
  if (PINNED) await pin(child.pid!, SERVER_CORE)
  return {
    ...first.ready,
    async cpuUs() {
      const answer = next()
      child.send('cpu')
      const message = await answer
      if (!('cpuUs' in message)) throw new Error(`target ${index}: ${JSON.stringify(message)}`)
      return message.cpuUs
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send('close')
      await exited
    },
  }
}

/** One more poll reads the session's remaining quota; it counts itself, hence the - 1. */
async function countedBy(url: string, headers: Record<string, string>): Promise<number> {
  const answer = await fetch(url, { headers })
  const remaining = /;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]
  if (answer.status !== 200 || remaining === undefined) {
    throw new Error(`quota check: ${answer.status} ${answer.headers.get('ratelimit')}`)
  }
  return SESSION_LIMIT - Number(remaining) - 1
}

async function main() {
  const redis = await startRedis()
  const cluster = CLUSTER ? await startRedisCluster() : undefined
  const clusterUrls = (cluster?.nodes ?? []).map((node) => `redis://${node}`)
  if (PINNED) {
    // The servers go to SERVER_CORE as they start; this process only drives autocannon.
    await pin(process.pid, LOAD_CORE)
    for (const url of [redis.url, ...clusterUrls]) await pin(await redisPid(url), LOAD_CORE)
  }
  // Read the redis-servers' CPU time around each run (on the cluster: every node's).
  const monitor = [new Redis(redis.url)]
  const clusterMonitor = clusterUrls.map((url) => new Redis(url))
  const targets = targetsOn(redis.url, cluster?.nodes)
  const runs = targets.map((): Figures[] => [])
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}`)
      // Every other round runs the targets in reverse, so no target always follows the same one.
      const order = [...targets.entries()]
      if (round % 2 === 0) order.reverse()
      for (const [index, target] of order) {
        if (ONLY && !ONLY.has(index)) continue
        const child = await openChild(index, redis.url, cluster?.nodes)
        try {
          const { url, headers } = child
          const { figures, requests } = await load(
            target.name,
            url,
            headers,
            () => child.cpuUs(),
            target.onRedis ? (index === OURS_CLUSTER ? clusterMonitor : monitor) : undefined,
          )
          if (target.counts) checkCounted(target.name, await countedBy(url, headers), requests)
          runs[index]!.push(figures)
        } finally {
          await child.close()
        }
      }
    }
  } finally {
    for (const client of [...monitor, ...clusterMonitor]) client.disconnect()
    await redis.stop()
    await cluster?.stop()
  }
  if (ONLY) {
    for (const figures of runs) {
      if (figures.length === 0) continue
      const { target, requestsPerSecond, serverCpuUs, redisCpuUs, p50, p99 } = median(figures)
      const redisCpu = redisCpuUs === undefined ? '' : `, Redis ${redisCpuUs.toFixed(1)} µs CPU/req`
      console.log(
        `${target}: median ${requestsPerSecond.toFixed(0)} req/s, ${serverCpuUs.toFixed(1)} µs CPU/req${redisCpu}, p50 ${p50} ms, p99 ${p99} ms`,
      )
    }
    if (CLUSTER) {
      const ratios = runs[OURS_CLUSTER]!.map(
        (run, round) => run.requestsPerSecond / runs[OURS_REDIS]![round]!.requestsPerSecond,
      )
      console.log(
        `Cluster ÷ one Redis, req/s per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
      )
    }
    return
  }
  const rows = runs.map(median)
  console.log(`\n${table(rows)}`)
  for (const ours of [OURS_MEMORY, OURS_REDIS]) {
    console.log(
      `${rows[ours]!.target}, per-round ratios to peer: ${roundRatios(runs, ours)
        .map((r) => r.toFixed(2))
        .join(', ')}`,
    )
  }
  await writeDoc(section(rows, runs))
  console.log(`\nwritten to ${DOC}`)
}

const SERVE = args.indexOf('--serve')
const entry =
  SERVE === -1
    ? main()
    : serveOne(Number(args[SERVE + 1]), args[SERVE + 2]!, args[SERVE + 3]?.split(','))
entry.catch((err) => {
  console.error(err)
  process.exitCode = 1
})
