/**
 * Relay deliveries per second and publish → ack latency, against a raw `ws` fan-out server doing
 * the same job minimally (parse, route by topic, forward, answer). Three targets, each server in
 * its own process, the load from this one:
 *
 * - raw `ws` fan-out, one process (the ceiling);
 * - the relay, one instance, in-process mailbox;
 * - the relay, two instances sharing a redis-server: publishers on one, subscribers on the other,
 *   so every delivery crosses Redis.
 *
 * Every target gets the same sockets (default 1,000: 200 publishers, 800 subscribers) and topics
 * (default 4,000, each with one publisher socket and 4 subscriber sockets: a topic's mailbox holds
 * at most 100 live messages of at least 10 s, so one topic carries at most 10 publishes a second,
 * and the load is spread over many, as real pairings are). Two phases: saturation (each publisher
 * keeps `--window` publishes in flight; deliveries per second) and a fixed offered rate (`--rate`
 * publishes per second per publisher socket; p50/p99 from the publish leaving the client to the
 * subscriber receiving the push and sending its ack). Targets run in interleaved rounds; each row
 * is its median round.
 * Writes the "Relay throughput" section of docs/benchmarks.md.
 *
 * `--cluster`: two targets instead, side by side: two instances over one redis-server and two
 * instances over a Redis Cluster (three primaries, three replicas, all on this machine); prints
 * the table (the figures are in docs/redis.md) and writes nothing.
 *
 *   npx tsx bench/relay-throughput.ts [--duration 10] [--rounds 3] [--sockets 1000] [--fanout 4]
 *                                     [--topics 4000] [--window 4] [--rate 5] [--no-write]
 *                                     [--cluster]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { API_PREFIX, RELAY_METHODS, ROUTES } from 'scope-connect/wire'
import WebSocket, { WebSocketServer } from 'ws'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import { createRedisMailbox } from '../server/src/relay/mailbox-redis'
import { startServer } from '../server/src/server'
import type { RedisTarget } from '../server/src/store/redis-connection'
import { startRedis } from '../test/support/redis'
import { startRedisCluster } from '../test/support/redis-cluster'

const root = fileURLToPath(new URL('..', import.meta.url))
const SELF = fileURLToPath(import.meta.url)
const DOC = `${root}docs/benchmarks.md`
const HEADING = '## Relay throughput'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const textOption = (name: string) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? undefined : args[at + 1]
}
const DURATION_S = option('duration', 10)
const ROUNDS = option('rounds', 3)
const SOCKETS = option('sockets', 1000)
const FANOUT = option('fanout', 4)
const TOPICS = option('topics', 4000)
const WINDOW = option('window', 4)
const RATE = option('rate', 5)
const WARMUP_S = Math.min(2, DURATION_S)
const SUBSCRIBE_WAVE = 500
const CLUSTER = args.includes('--cluster')
const WRITE = !args.includes('--no-write') && !CLUSTER

const APP_KEY = 'bench-app-key-0001'
const SIGNING_KEY = Buffer.alloc(32, 9).toString('base64url')
const PUBLIC_URL = 'http://relay.bench'
// 189 + 12 bytes: a fixed part whose base64 needs no padding, then the message's number, so every
// message is distinct (the relay keys messages by their SHA-256: a repeat is a duplicate).
const MESSAGE_PREFIX = Buffer.alloc(189, 'relay-bench-envelope').toString('base64')
const messageFor = (n: number) =>
  MESSAGE_PREFIX + Buffer.from(String(n).padStart(12, '0')).toString('base64')
// The bench measures the relay's work, not its refusals: quotas far above what it offers.
const PROJECTS: ProjectsConfig = {
  projects: [
    {
      projectId: 'bench',
      name: 'Bench',
      appKeys: [APP_KEY],
      networks: [{ chainId: 'eip155:1' }],
      wallets: [],
      rateLimits: {
        appKey: { limit: 1_000_000, windowSeconds: 60 },
        project: { limit: 1_000_000, windowSeconds: 60 },
      },
    },
  ],
}
const BENCH_LIMITS = {
  publishesPerMinute: 1_000_000_000,
  requestsPerMinute: 1_000_000_000,
  maxSocketsPerIp: 1_000_000,
  // One app key holds every bench message (~120,000 live at saturation): the quotas are still
  // counted on every publish, but do not refuse.
  appQuotaMessages: 10_000_000,
  appQuotaBytes: 512 * 1024 * 1024,
  sourceQuotaMessages: 10_000_000,
  sourceQuotaBytes: 512 * 1024 * 1024,
}

// ---------------------------------------------------------------------------------------------
// Server processes

/** The baseline: parse, route by topic, forward to the topic's other sockets, answer `true`. */
async function serveRaw(): Promise<number> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 128 * 1024 })
  const topics = new Map<string, Set<WebSocket>>()
  let pushId = 0
  wss.on('connection', (socket) => {
    const mine = new Set<string>()
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as {
        id: number
        method?: string
        params?: { topic: string; message: string; tag: number }
      }
      if (frame.method === RELAY_METHODS.subscribe) {
        const topic = frame.params!.topic
        const set = topics.get(topic) ?? new Set()
        topics.set(topic, set)
        set.add(socket)
        mine.add(topic)
        socket.send(`{"jsonrpc":"2.0","id":${frame.id},"result":"raw"}`)
      } else if (frame.method === RELAY_METHODS.publish) {
        const { topic, message, tag } = frame.params!
        const data = JSON.stringify({ topic, message, messageId: '', publishedAt: Date.now(), tag })
        for (const peer of topics.get(topic) ?? []) {
          if (peer !== socket) {
            peer.send(
              `{"jsonrpc":"2.0","id":${++pushId},"method":"scr_subscription","params":{"id":"raw","data":${data}}}`,
            )
          }
        }
        socket.send(`{"jsonrpc":"2.0","id":${frame.id},"result":true}`)
      }
    })
    socket.on('close', () => {
      for (const topic of mine) topics.get(topic)?.delete(socket)
    })
  })
  await new Promise((resolve) => wss.once('listening', resolve))
  return (wss.address() as { port: number }).port
}

async function serveRelay(redis: RedisTarget | undefined): Promise<number> {
  const mailbox = redis ? createRedisMailbox(redis, { keyPrefix: 'bench:' }) : undefined
  await mailbox?.ready()
  const server = await startServer({
    projects: PROJECTS,
    port: 0,
    logger: false,
    // Every bench socket comes from 127.0.0.1: lift the per-IP connection cap with the relay's.
    http: { maxConnectionsPerIp: 1_000_000 },
    relay: {
      ...(mailbox ? { mailbox } : {}),
      signingKeys: [Buffer.from(SIGNING_KEY, 'base64url')],
      publicUrl: PUBLIC_URL,
      limits: BENCH_LIMITS,
    },
  })
  return Number(new URL(server.url).port)
}

interface ServerProcess {
  port: number
  close(): Promise<void>
}

function spawnServer(kind: 'raw' | 'relay', redis?: RedisTarget): Promise<ServerProcess> {
  const target =
    redis === undefined
      ? []
      : typeof redis === 'string'
        ? ['--redis-url', redis]
        : ['--redis-cluster', redis.cluster.join(',')]
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', SELF, '--serve', kind, ...target],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const port = /READY (\d+)/.exec(out)?.[1]
      if (port) {
        resolve({
          port: Number(port),
          async close() {
            child.kill('SIGKILL')
            await exited
          },
        })
      }
    })
    void exited.then(() => reject(new Error(`${kind} server exited: ${out}`)))
  })
}

// ---------------------------------------------------------------------------------------------
// Load

interface Figures {
  target: string
  deliveriesPerSecond: number
  saturatedP99: number
  p50: number
  p99: number
  errors: number
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

const ID_PREFIX = '{"jsonrpc":"2.0","id":'
const PUSH_METHOD = `,"method":"${RELAY_METHODS.subscription}"`

/** Requests on a socket, answered by id; pushes go to `onPush`. */
function wire(socket: WebSocket, onPush?: (tag: number) => void) {
  const pending = new Map<number, (frame: { result?: unknown; error?: unknown }) => void>()
  let nextId = 1
  socket.on('message', (data) => {
    const text = data.toString()
    // Both servers write pushes as `{"jsonrpc":"2.0","id":N,"method":"scr_subscription",…,"tag":T}}}`:
    // read the two numbers without parsing the frame, so the load generator (one process for
    // every socket) stays cheap next to the servers it measures.
    if (text.startsWith(ID_PREFIX)) {
      const idEnd = text.indexOf(',', ID_PREFIX.length)
      if (text.startsWith(PUSH_METHOD, idEnd)) {
        socket.send(`{"jsonrpc":"2.0","id":${text.slice(ID_PREFIX.length, idEnd)},"result":true}`)
        onPush?.(Number.parseInt(text.slice(text.lastIndexOf('"tag":') + 6), 10))
        return
      }
    }
    const frame = JSON.parse(text) as {
      id: number
      method?: string
      result?: unknown
      error?: unknown
      params?: { data: { tag: number } }
    }
    if (frame.method === RELAY_METHODS.subscription) {
      socket.send(`{"jsonrpc":"2.0","id":${frame.id},"result":true}`)
      onPush?.(frame.params!.data.tag)
      return
    }
    const done = pending.get(frame.id)
    pending.delete(frame.id)
    done?.(frame)
  })
  return (method: string, params: object) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
}

async function relayToken(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}${API_PREFIX}${ROUTES.relayToken}`, {
    method: 'POST',
    headers: { 'x-app-key': APP_KEY },
  })
  return ((await response.json()) as { token: string }).token
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Opens `count` sockets, `batch` at a time. */
async function openMany(url: string, count: number, batch = 50): Promise<WebSocket[]> {
  const sockets: WebSocket[] = []
  for (let i = 0; i < count; i += batch) {
    sockets.push(
      ...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => open(url)))),
    )
  }
  return sockets
}

async function load(target: string, publishUrl: string, subscribeUrl: string): Promise<Figures> {
  const publisherCount = Math.floor(SOCKETS / (1 + FANOUT))
  const subscriberCount = publisherCount * FANOUT
  const topicName = (t: number) => t.toString(16).padStart(64, '0')
  const RING = 1 << 20
  const sentAt = new Float64Array(RING)
  let tag = 0
  let phase: 'idle' | 'warm' | 'saturate' | 'rate' = 'idle'
  let deliveries = 0
  let errors = 0
  const latencies: number[] = []
  const onPush = (pushedTag: number) => {
    if (phase === 'idle' || phase === 'warm') return
    deliveries++
    latencies.push(performance.now() - sentAt[pushedTag & (RING - 1)]!)
  }

  const sockets: WebSocket[] = []
  try {
    // Topic t: publisher t % P; subscribers (t + k·P) % S for k < FANOUT, i.e. FANOUT distinct
    // subscriber sockets per topic, every subscriber socket on TOPICS·FANOUT / S topics.
    const subscriberSockets = await openMany(subscribeUrl, subscriberCount)
    sockets.push(...subscriberSockets)
    const subscribers = subscriberSockets.map((socket) => wire(socket, onPush))
    // In waves, as clients arrive: a single burst of every subscription at once on a loaded
    // machine can outlast the Redis command timeout (1 s) and be answered STORE_UNAVAILABLE.
    const wave: Array<() => Promise<{ error?: unknown }>> = []
    for (let t = 0; t < TOPICS; t++) {
      for (let k = 0; k < FANOUT; k++) {
        const subscriber = subscribers[(t + k * publisherCount) % subscriberCount]!
        wave.push(() => subscriber(RELAY_METHODS.subscribe, { topic: topicName(t) }))
      }
    }
    for (let i = 0; i < wave.length; i += SUBSCRIBE_WAVE) {
      const answers = await Promise.all(wave.slice(i, i + SUBSCRIBE_WAVE).map((send) => send()))
      for (const answer of answers) {
        if (answer.error) throw new Error(`subscribe: ${JSON.stringify(answer.error)}`)
      }
    }
    const publisherSockets = await openMany(publishUrl, publisherCount)
    sockets.push(...publisherSockets)
    const publishers = publisherSockets.map((socket) => wire(socket))
    const topicsOf = publishers.map((_, p) =>
      Array.from(
        { length: Math.ceil((TOPICS - p) / publisherCount) },
        (_, i) => p + i * publisherCount,
      ),
    )
    const nextTopic = new Uint32Array(publishers.length)

    const publishOnce = async (p: number) => {
      const topics = topicsOf[p]!
      const t = topics[nextTopic[p]! % topics.length]!
      nextTopic[p]!++
      const n = tag++
      sentAt[n & (RING - 1)] = performance.now()
      // ttl 10 s, the minimum, and enough topics that none nears its 100 live messages.
      const answer = await publishers[p]!(RELAY_METHODS.publish, {
        topic: topicName(t),
        message: messageFor(n),
        ttl: 10,
        tag: n,
      })
      if (answer.error && phase !== 'idle' && errors++ === 0)
        console.warn('first error:', answer.error)
    }

    // Saturation: each publisher keeps WINDOW publishes in flight.
    let running = true
    const loops = publishers.flatMap((_, p) =>
      Array.from({ length: WINDOW }, async () => {
        while (running) await publishOnce(p)
      }),
    )
    phase = 'warm'
    await sleep(WARMUP_S * 1000)
    deliveries = 0
    latencies.length = 0
    phase = 'saturate'
    const started = performance.now()
    await sleep(DURATION_S * 1000)
    const deliveriesPerSecond = deliveries / ((performance.now() - started) / 1000)
    const saturated = Float64Array.from(latencies).sort()
    running = false
    phase = 'idle'
    await Promise.all(loops)
    await sleep(500)

    // Latency: a fixed offered rate, each publisher RATE times a second at staggered moments.
    latencies.length = 0
    phase = 'rate'
    const timers: NodeJS.Timeout[] = publishers.map((_, p) =>
      setTimeout(
        () => {
          timers[p] = setInterval(() => void publishOnce(p), 1000 / RATE)
        },
        (p * 1000) / RATE / publishers.length,
      ),
    )
    await sleep(DURATION_S * 1000)
    for (const timer of timers) clearInterval(timer)
    await sleep(500)
    phase = 'idle'
    const measured = Float64Array.from(latencies).sort()

    const figures: Figures = {
      target,
      deliveriesPerSecond,
      saturatedP99: percentile(saturated, 0.99),
      p50: percentile(measured, 0.5),
      p99: percentile(measured, 0.99),
      errors,
    }
    console.log(
      `${target}: ${deliveriesPerSecond.toFixed(0)} deliveries/s (p99 ${figures.saturatedP99.toFixed(1)} ms saturated); at ${RATE}/s per publisher p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms; errors ${errors}`,
    )
    return figures
  } finally {
    for (const socket of sockets) socket.terminate()
  }
}

interface Target {
  name: string
  run(redis: RedisTarget): Promise<Figures>
}

/** Publishers on one instance, subscribers on another: every delivery crosses Redis. */
async function runTwoInstances(name: string, redis: RedisTarget): Promise<Figures> {
  const publishSide = await spawnServer('relay', redis)
  const subscribeSide = await spawnServer('relay', redis).catch(async (error) => {
    await publishSide.close()
    throw error
  })
  try {
    // One public URL and one key: a grant from either instance opens both.
    const token = await relayToken(publishSide.port)
    const path = `${API_PREFIX}${ROUTES.relay}?token=${token}`
    return await load(
      name,
      `ws://127.0.0.1:${publishSide.port}${path}`,
      `ws://127.0.0.1:${subscribeSide.port}${path}`,
    )
  } finally {
    await publishSide.close()
    await subscribeSide.close()
  }
}

const targets: Target[] = [
  {
    name: 'raw ws fan-out',
    async run() {
      const server = await spawnServer('raw')
      try {
        const url = `ws://127.0.0.1:${server.port}`
        return await load(this.name, url, url)
      } finally {
        await server.close()
      }
    },
  },
  {
    name: 'relay, one instance, in-process mailbox',
    async run() {
      const server = await spawnServer('relay')
      try {
        const token = await relayToken(server.port)
        const url = `ws://127.0.0.1:${server.port}${API_PREFIX}${ROUTES.relay}?token=${token}`
        return await load(this.name, url, url)
      } finally {
        await server.close()
      }
    },
  },
  {
    name: 'relay, two instances over Redis',
    run(redis) {
      return runTwoInstances(this.name, redis)
    },
  },
]

// ---------------------------------------------------------------------------------------------
// Report

function median(runs: Figures[]): Figures {
  const sorted = [...runs].sort((x, y) => x.deliveriesPerSecond - y.deliveriesPerSecond)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

function table(rows: Figures[]): string {
  const baseline = rows[0]!.deliveriesPerSecond
  return [
    '| Target | deliveries/s (saturated) | ratio to raw | p99 saturated (ms) | p50 at fixed rate (ms) | p99 at fixed rate (ms) | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.deliveriesPerSecond.toFixed(0)} | ${(row.deliveriesPerSecond / baseline).toFixed(2)} | ${row.saturatedP99.toFixed(1)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.errors} |`,
    ),
  ].join('\n')
}

function section(rows: Figures[], loadAtStart: number): string {
  const cpu = cpus()
  const [raw, memory, redis] = rows as [Figures, Figures, Figures]
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**')
  const publishers = Math.floor(SOCKETS / (1 + FANOUT))
  const sockets = publishers * (1 + FANOUT)
  return `${HEADING}

Generated by \`npx tsx bench/relay-throughput.ts\` on ${new Date().toISOString().slice(0, 10)}:
Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; 1-minute
load average ${loadAtStart.toFixed(1)} when the run began. ${sockets} sockets per target (${publishers} publishers, ${publishers * FANOUT}
subscribers) over ${TOPICS} topics, each with one publisher socket and ${FANOUT} subscriber sockets; 200-byte
envelopes, ttl 10 s. ${ROUNDS} interleaved rounds of ${DURATION_S} s per phase and
target (after a ${WARMUP_S} s warm-up); each row is the target's median round (by deliveries/s). Each server runs in
its own process; the load (every socket, publishers and subscribers) comes from the bench's process;
redis-server (no persistence) on the same machine. All share the same cores, so the figures compare
the targets with each other; they are not a capacity plan.

${table(rows)}

- **Many topics**: a topic's mailbox holds at most 100 live messages, one publisher at most 40 of
  them, and a ttl is at least 10 s, so one publisher puts at most 4 publishes a second on a topic;
  the load is spread over ${TOPICS} topics (as
  real pairings and sessions are), each publisher socket cycling through its ${Math.ceil(TOPICS / publishers)}.
- **Saturated**: each publisher keeps ${WINDOW} publishes in flight (the next leaves when the relay answers
  \`true\`); deliveries/s counts pushes received by subscribers (each acked at once). Its p99 is
  the queueing delay at saturation.
- **Fixed rate**: each publisher socket publishes ${RATE} times a second (${RATE * publishers} publishes/s, ${RATE * publishers * FANOUT}
  deliveries/s offered), staggered; latency from the publish leaving the client to the push reaching the
  subscriber, which sends its ack in the same step.
- **Raw ws fan-out**: \`ws\` with no framework: parse the frame, route by topic, forward, answer
  \`true\`. No token, no validation, no hashing, no mailbox, no acks tracked.
- **Relay**: the real server (\`startServer\`), a token checked on every upgrade, every frame
  validated, the messageId hashed, the message stored in the topic's mailbox, pushed to each
  subscriber and its ack recorded. Over Redis: publishers on one instance, subscribers on the
  other, so every message goes through the publish script (store + PUBLISH) and the channel.
- The bench raises the per-connection publish and request quotas, the app key's storage quotas
  and the per-IP socket cap (all sockets come from 127.0.0.1); the relay still counts every
  publish against them, with the fair shares and ttl ceilings of issue 16 in place.
- Measured on a shared 2-core machine (other work running): compare the rows of one run.

Goals (issue 16): in-process ≥ 0.6 × raw: ${verdict(memory.deliveriesPerSecond >= 0.6 * raw.deliveriesPerSecond)};
two instances over Redis ≥ 0.5 × raw: ${verdict(redis.deliveriesPerSecond >= 0.5 * raw.deliveriesPerSecond)};
p99 < 50 ms at ${sockets} sockets (fixed rate): ${verdict(memory.p99 < 50 && redis.p99 < 50)}.
`
}

async function writeDoc(text: string): Promise<void> {
  let doc = '# Benchmarks\n'
  try {
    doc = await readFile(DOC, 'utf8')
  } catch {}
  // Replace only this section (up to the next "## " heading), keeping hand-written "### " notes.
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

function checkDescriptors() {
  // Each side of every socket is one descriptor: this process holds all client ends.
  try {
    const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim())
    if (Number.isFinite(limit) && limit < SOCKETS + 256) {
      console.warn(
        `ulimit -n is ${limit}; ${SOCKETS} sockets need about ${SOCKETS + 256}: run \`ulimit -n 4096\` first`,
      )
    }
  } catch {}
}

async function main() {
  const serve = textOption('serve')
  if (serve) {
    const clusterNodes = textOption('redis-cluster')
    const redis = clusterNodes ? { cluster: clusterNodes.split(',') } : textOption('redis-url')
    const port = serve === 'raw' ? await serveRaw() : await serveRelay(redis)
    process.stdout.write(`READY ${port}\n`)
    return
  }
  checkDescriptors()
  const loadAtStart = loadavg()[0] ?? 0
  const redis = await startRedis()
  const cluster = CLUSTER ? await startRedisCluster() : undefined
  const chosen: Array<{ target: Target; redis: RedisTarget }> = cluster
    ? [
        { target: targets[2]!, redis: redis.url },
        {
          target: {
            name: 'relay, two instances over Redis Cluster (3 + 3)',
            run: (on) => runTwoInstances('relay, two instances over Redis Cluster (3 + 3)', on),
          },
          redis: { cluster: cluster.nodes },
        },
      ]
    : targets.map((target) => ({ target, redis: redis.url }))
  const runs = chosen.map((): Figures[] => [])
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}`)
      for (const [index, { target, redis: on }] of chosen.entries()) {
        runs[index]!.push(await target.run(on))
      }
    }
  } finally {
    await redis.stop()
    await cluster?.stop()
  }
  const rows = runs.map(median)
  console.log(`\n${table(rows)}`)
  if (CLUSTER) {
    const [single, onCluster] = rows as [Figures, Figures]
    console.log(
      `(ratio column: to one Redis) Cluster ÷ one Redis, deliveries/s: ${(onCluster.deliveriesPerSecond / single.deliveriesPerSecond).toFixed(2)}`,
    )
  }
  if (WRITE) {
    await writeDoc(section(rows, loadAtStart))
    console.log(`\nwritten to ${DOC}`)
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
