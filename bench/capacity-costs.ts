/**
 * Per-unit costs for the capacity model (docs/scaling.md), measured on the real server (a child
 * process of its own, so its CPU time and memory are its own) with its store, session events and
 * relay mailbox on a real redis-server, and again in process:
 *
 * - per HTTP route (session creation, a poll, a long-poll that times out, the connect and sign
 *   callbacks, a balance read on anvil, a relay token) and per whole session as the library
 *   runs it (create, read, two long-polls woken by the two callbacks): server CPU
 *   (`process.cpuUsage`), redis-server CPU (`INFO cpu`), Redis commands (`INFO commandstats`,
 *   a Lua script's own commands included) and round trips (top-level commands under `MONITOR`,
 *   in a separate short pass so MONITOR's cost stays out of the CPU figures);
 * - memory: per session (Redis `used_memory`, the in-process store's heap), per waiting long-poll,
 *   per open relay socket subscribed to a topic (server heap and RSS after a GC, Redis
 *   `used_memory`), per mailbox byte (two message sizes: fixed cost and cost per byte);
 * - the relay: CPU per idle socket (heartbeat shortened to 2 s to see it in a short run), per
 *   publish delivered to one subscriber (acked), per socket opened and subscribed;
 * - session events: what one costs an instance with no waiter for it, and Redis per subscribed
 *   instance (the server alone, then 20 more subscriber connections).
 *
 * Every caller (dApp user, wallet) gets an address of its own (X-Forwarded-For from 127.0.0.1, a
 * trusted proxy here), so each pays for its own rate-limit windows as real callers do; the
 * project-wide ceiling is lifted. Prints Markdown tables; docs/scaling.md quotes them.
 *
 *   npx tsx bench/capacity-costs.ts [--ops 2000] [--lifecycles 300] [--sockets 5000]
 *     [--messages 500] [--width 16] [--store redis|memory|both]
 *
 * `--width` is the requests (publishes) kept in flight: a busier server spends less CPU per
 * request (more of them per event-loop turn and per socket write).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import {
  API_PREFIX,
  APP_KEY_HEADER,
  type CreateSessionResponse,
  RELAY_METHODS,
  ROUTES,
  SESSION_NONCE_HEADER,
} from 'scope-connect/wire'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import { createRedisMailbox } from '../server/src/relay/mailbox-redis'
import { startServer } from '../server/src/server'
import { createRedisStore } from '../server/src/store/redis'
import { createRedisSessionEvents } from '../server/src/store/session-events-redis'
import { connectRelay, type RelayTestClient } from '../server/test/support/relay-client'
import { evmWallet } from '../server/test/support/wallets'
import { startAnvil } from '../test/support/anvil'
import { startRedis } from '../test/support/redis'
import {
  type CommandCounts,
  commandDelta,
  commandStats,
  redisCpuSeconds,
  usedMemory,
} from './redis-stats'

const root = fileURLToPath(new URL('..', import.meta.url))
const SELF = fileURLToPath(import.meta.url)
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const textOption = (name: string) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? undefined : args[at + 1]
}
const OPS = option('ops', 2000)
const LIFECYCLES = option('lifecycles', 300)
const SOCKETS = option('sockets', 5000)
const MESSAGES = option('messages', 500)
const STORES =
  (textOption('store') ?? 'both') === 'both' ? ['redis', 'memory'] : [textOption('store')!]
/** Operations per unit in the MONITOR pass that counts round trips. */
const COUNTED_OPS = 50
/** Requests in flight at once (HTTP) or publishes (relay): how busy the server is kept. */
const WIDTH = option('width', 16)
/** Short heartbeat, so a 10 s idle window holds five pings per socket. */
const HEARTBEAT_MS = 2_000
const IDLE_S = 10

const APP_KEY = 'capacity-app-key'
/** The store's default prefix (`scope:`) and the session events' channel. */
const SESSION_EVENTS_CHANNEL = 'scope:sessions:changed'
const ANVIL_CHAIN = 'eip155:31337'
const SIGNING_KEY = Buffer.alloc(32, 7).toString('base64url')
const projectsFor = (rpcUrl: string): ProjectsConfig => ({
  // Each bench caller has its own address, so the per-IP callback window is the default one.
  projects: [
    {
      projectId: 'capacity',
      name: 'Capacity',
      appKeys: [APP_KEY],
      networks: [{ chainId: 'eip155:1' }, { chainId: ANVIL_CHAIN, rpcUrl }],
      wallets: ['metamask'],
      // The project-wide ceiling (60,000 / 60 s) is for abuse; the bench's many callers share it.
      rateLimits: { project: { limit: 1_000_000, windowSeconds: 60 } },
    },
  ],
})
// Every bench socket comes from 127.0.0.1, and the mailbox phase stores tens of MiB from one
// source: the per-IP socket cap and the storage quotas are lifted (still counted on each publish).
const RELAY_LIMITS = {
  maxSocketsPerIp: 1_000_000,
  heartbeatMs: HEARTBEAT_MS,
  publishesPerMinute: 1_000_000_000,
  requestsPerMinute: 1_000_000_000,
  sourceQuotaBytes: 1024 ** 3,
  sourceQuotaMessages: 10_000_000,
  appQuotaBytes: 1024 ** 3,
  appQuotaMessages: 10_000_000,
  mailboxQuotaBytes: 1024 ** 3,
}

// ---------------------------------------------------------------------------------------------
// The server: a child process answering `report` over IPC with its CPU time and memory.

interface ServerReport {
  /** CPU time (user + system) before the GC this report ran, µs. */
  cpuUs: number
  /** CPU time after it: the next interval starts here. */
  cpuAfterGcUs: number
  rss: number
  heapUsed: number
}

async function serve(redisUrl: string | undefined, rpcUrl: string): Promise<void> {
  const onRedis = redisUrl
    ? {
        store: createRedisStore(redisUrl),
        sessionEvents: createRedisSessionEvents(redisUrl),
        mailbox: createRedisMailbox(redisUrl),
      }
    : undefined
  if (onRedis) {
    await Promise.all([
      onRedis.store.ready(),
      onRedis.sessionEvents.ready(),
      onRedis.mailbox.ready(),
    ])
  }
  const server = await startServer({
    projects: projectsFor(rpcUrl),
    port: 0,
    logger: false,
    trustProxy: ['127.0.0.1'],
    http: { maxConnectionsPerIp: 1_000_000 },
    ...(onRedis ? { store: onRedis.store, sessionEvents: onRedis.sessionEvents } : {}),
    relay: {
      ...(onRedis ? { mailbox: onRedis.mailbox } : {}),
      signingKeys: [Buffer.from(SIGNING_KEY, 'base64url')],
      publicUrl: 'http://relay.bench',
      limits: RELAY_LIMITS,
    },
  })
  const cpu = () => {
    const { user, system } = process.cpuUsage()
    return user + system
  }
  process.on('message', () => {
    const cpuUs = cpu()
    globalThis.gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    process.send?.({ cpuUs, cpuAfterGcUs: cpu(), rss, heapUsed } satisfies ServerReport)
  })
  process.send?.({ url: server.url })
  console.log(`server pid ${process.pid}`)
}

interface ServerProcess {
  url: string
  report(): Promise<ServerReport>
  close(): Promise<void>
}

function spawnServer(redisUrl: string | undefined, rpcUrl: string): Promise<ServerProcess> {
  // One descriptor per socket: the server's limit raised to the hard one.
  const serveArgs = ['--serve', '--rpc-url', rpcUrl, ...(redisUrl ? ['--redis-url', redisUrl] : [])]
  const child: ChildProcess = spawn(
    'sh',
    [
      '-c',
      `ulimit -n "$(ulimit -Hn)"; exec "${process.execPath}" --expose-gc --import tsx "${SELF}" ${serveArgs.join(' ')}`,
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    void exited.then(() => reject(new Error('server exited')))
    child.once('message', (message: { url: string }) => {
      resolve({
        url: message.url,
        report: () =>
          new Promise((answer) => {
            child.once('message', (report) => answer(report as ServerReport))
            child.send('report')
          }),
        async close() {
          child.kill('SIGKILL')
          await exited
        },
      })
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Callers

let nextAddress = 0
/** A caller address of its own (198.18.0.0/15, the benchmarking range): 131,072 of them. */
const newAddress = () => {
  const n = nextAddress++ % 131_072
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`
}

async function call(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(base + API_PREFIX + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  }
}

function expectStatus(what: string, answer: { status: number; body: unknown }, status: number) {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
  }
}

/** Runs `each` over `items`, `width` at a time. */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  each: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await each(items[next++]!)
    }),
  )
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function createSession(base: string): Promise<CreateSessionResponse> {
  const answer = await call(base, ROUTES.sessions, {
    body: { caip2Chain: 'eip155:1', intent: 'sign' },
    headers: { [APP_KEY_HEADER]: APP_KEY, 'x-forwarded-for': newAddress() },
  })
  expectStatus('create', answer, 201)
  return answer.body as CreateSessionResponse
}

async function createSessions(base: string, n: number): Promise<CreateSessionResponse[]> {
  const sessions: CreateSessionResponse[] = []
  await inParallel(range(n), WIDTH, async () => {
    sessions.push(await createSession(base))
  })
  return sessions
}

const bearer = (session: CreateSessionResponse) => ({
  authorization: `Bearer ${session.sessionToken}`,
})

async function read(base: string, session: CreateSessionResponse, etag?: string, waitMs = 0) {
  const query = waitMs > 0 ? `?waitMs=${waitMs}` : ''
  return call(base, ROUTES.sessionResult(session.sessionId) + query, {
    headers: { ...bearer(session), ...(etag ? { 'if-none-match': etag } : {}) },
  })
}

async function connectCallback(base: string, session: CreateSessionResponse, address: string) {
  const answer = await call(base, ROUTES.callbackConnect, {
    body: {
      sessionId: session.sessionId,
      walletSlug: 'metamask',
      caip2Chain: 'eip155:1',
      walletAddress: address,
    },
    headers: { [SESSION_NONCE_HEADER]: session.nonce, 'x-forwarded-for': newAddress() },
  })
  expectStatus('connect callback', answer, 204)
}

async function signCallback(base: string, session: CreateSessionResponse, signed: Signed) {
  const answer = await call(base, ROUTES.callbackSign, {
    body: { sessionId: session.sessionId, signature: signed.signature, timestamp: signed.at },
    headers: { [SESSION_NONCE_HEADER]: session.nonce, 'x-forwarded-for': newAddress() },
  })
  expectStatus('sign callback', answer, 204)
}

interface Signed {
  signature: string
  at: number
}

async function signFor(
  wallet: ReturnType<typeof evmWallet>,
  session: CreateSessionResponse,
): Promise<Signed> {
  const at = Date.now()
  return { signature: await wallet.signEnvelope(session.sessionId, session.nonce, at), at }
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Target {
  store: string
  server: ServerProcess
  /** An admin connection to the server's redis-server (absent in process). */
  redis?: Redis
  redisUrl?: string
}

interface Snapshot {
  server: ServerReport
  redisCpuS: number
  redisMemory: number
  commands: CommandCounts
  at: number
}

async function snapshot(target: Target): Promise<Snapshot> {
  const { redis } = target
  return {
    server: await target.server.report(),
    redisCpuS: redis ? await redisCpuSeconds(redis) : 0,
    redisMemory: redis ? await usedMemory(redis) : 0,
    commands: redis ? await commandStats(redis) : {},
    at: performance.now(),
  }
}

interface Figures {
  unit: string
  ops: number
  serverCpuUs: number
  redisCpuUs?: number
  roundTrips?: number
  /** Redis commands per op by name, those run inside scripts included. */
  commands?: CommandCounts
  heapBytes: number
  rssBytes: number
  redisBytes?: number
  seconds: number
  load: number
}

function figuresBetween(
  target: Target,
  unit: string,
  ops: number,
  before: Snapshot,
  after: Snapshot,
): Figures {
  const perOp = (value: number) => value / ops
  const commands = commandDelta(before.commands, after.commands)
  return {
    unit,
    ops,
    serverCpuUs: perOp(after.server.cpuUs - before.server.cpuAfterGcUs),
    heapBytes: perOp(after.server.heapUsed - before.server.heapUsed),
    rssBytes: perOp(after.server.rss - before.server.rss),
    seconds: (after.at - before.at) / 1000,
    load: loadavg()[0]!,
    ...(target.redis
      ? {
          redisCpuUs: perOp((after.redisCpuS - before.redisCpuS) * 1e6),
          redisBytes: perOp(after.redisMemory - before.redisMemory),
          commands: Object.fromEntries(Object.entries(commands).map(([k, v]) => [k, perOp(v)])),
        }
      : {}),
  }
}

/**
 * Top-level commands (round trips' worth: what clients sent) per op, and those run by scripts,
 * under MONITOR. The readings' own INFO commands are left out.
 */
async function countRoundTrips(
  redisUrl: string,
  ops: number,
  run: () => Promise<void>,
): Promise<{ roundTrips: number; inScripts: number }> {
  const client = new Redis(redisUrl)
  const monitor = await client.monitor()
  let roundTrips = 0
  let inScripts = 0
  monitor.on('monitor', (_time: string, commandArgs: string[], source: string) => {
    if (String(commandArgs[0]).toLowerCase() === 'info') return
    if (source === 'lua') inScripts++
    else roundTrips++
  })
  try {
    await run()
    await sleep(300)
  } finally {
    monitor.disconnect()
    client.disconnect()
  }
  return { roundTrips: roundTrips / ops, inScripts: inScripts / ops }
}

interface Unit {
  name: string
  /** Sets up `n` operations (not measured) and returns what runs them. */
  prepare(base: string, n: number): Promise<() => Promise<void>>
  ops?: number
}

async function measureUnit(target: Target, unit: Unit): Promise<Figures> {
  const ops = unit.ops ?? OPS
  const counted =
    target.redisUrl === undefined
      ? undefined
      : await countRoundTrips(
          target.redisUrl,
          COUNTED_OPS,
          await unit.prepare(target.server.url, COUNTED_OPS),
        )
  const run = await unit.prepare(target.server.url, ops)
  const before = await snapshot(target)
  await run()
  const figures = figuresBetween(target, unit.name, ops, before, await snapshot(target))
  if (counted) figures.roundTrips = counted.roundTrips
  console.log(describe(figures))
  return figures
}

// ---------------------------------------------------------------------------------------------
// The units

const UNITS: Unit[] = [
  {
    name: 'session creation (POST /sessions)',
    async prepare(base, n) {
      return async () => {
        await createSessions(base, n)
      }
    },
  },
  {
    name: 'poll (GET result, answered at once)',
    async prepare(base, n) {
      const sessions = await createSessions(base, n)
      return () =>
        inParallel(sessions, WIDTH, async (session) =>
          expectStatus('poll', await read(base, session), 200),
        )
    },
  },
  {
    name: 'long-poll that times out (waitMs 1000, 304)',
    async prepare(base, n) {
      const sessions = await createSessions(base, n)
      const tags = new Map<string, string>()
      await inParallel(sessions, WIDTH, async (session) => {
        tags.set(session.sessionId, (await read(base, session)).headers.get('etag')!)
      })
      // All waiting at once, as long-polls do.
      return async () => {
        await Promise.all(
          sessions.map(async (session) =>
            expectStatus(
              'long-poll',
              await read(base, session, tags.get(session.sessionId), 1000),
              304,
            ),
          ),
        )
      }
    },
    ops: 1000,
  },
  {
    name: 'connect callback',
    async prepare(base, n) {
      const sessions = await createSessions(base, n)
      const wallet = evmWallet()
      return () =>
        inParallel(sessions, WIDTH, (session) => connectCallback(base, session, wallet.address))
    },
  },
  {
    name: 'sign callback (EIP-191 signature verified)',
    async prepare(base, n) {
      const sessions = await createSessions(base, n)
      const wallet = evmWallet()
      const signed = new Map<string, Signed>()
      await inParallel(sessions, WIDTH, async (session) => {
        await connectCallback(base, session, wallet.address)
        signed.set(session.sessionId, await signFor(wallet, session))
      })
      return () =>
        inParallel(sessions, WIDTH, (session) =>
          signCallback(base, session, signed.get(session.sessionId)!),
        )
    },
  },
  {
    name: 'balance read (GET /balances, native, anvil)',
    async prepare(base, n) {
      const account = evmWallet().address
      const path = `${ROUTES.balances}?chainId=${ANVIL_CHAIN}&tokenAddress=native&account=${account}`
      return () =>
        inParallel(range(n), WIDTH, async () => {
          const answer = await call(base, path, {
            headers: { [APP_KEY_HEADER]: APP_KEY, 'x-forwarded-for': newAddress() },
          })
          expectStatus('balance', answer, 200)
        })
    },
  },
  {
    name: 'relay token (POST /relay/token, EdDSA)',
    async prepare(base, n) {
      return () =>
        inParallel(range(n), WIDTH, async () => {
          const answer = await call(base, ROUTES.relayToken, {
            method: 'POST',
            headers: { [APP_KEY_HEADER]: APP_KEY, 'x-forwarded-for': newAddress() },
          })
          expectStatus('relay token', answer, 200)
        })
    },
  },
  {
    name: 'whole session: create, read, 2 long-polls woken by connect and sign callbacks',
    ops: LIFECYCLES,
    async prepare(base, n) {
      const wallet = evmWallet()
      // The wallet's signature is made outside the measured window (it is the wallet's CPU).
      return () =>
        inParallel(range(n), 50, async () => {
          const session = await createSession(base)
          const signed = await signFor(wallet, session)
          let etag = (await read(base, session)).headers.get('etag')!
          const first = read(base, session, etag, 20_000)
          await sleep(20) // the long-poll reaches the server and waits
          await connectCallback(base, session, wallet.address)
          const connected = await first
          expectStatus('long-poll → connected', connected, 200)
          etag = connected.headers.get('etag')!
          const second = read(base, session, etag, 20_000)
          await sleep(20)
          await signCallback(base, session, signed)
          expectStatus('long-poll → signed', await second, 200)
        })
    },
  },
]

/** Memory of a waiting long-poll: `n` parked at once, measured mid-wait. */
async function parkedLongPolls(target: Target, n: number): Promise<Figures> {
  const base = target.server.url
  const sessions = await createSessions(base, n)
  const tags = new Map<string, string>()
  await inParallel(sessions, WIDTH, async (session) => {
    tags.set(session.sessionId, (await read(base, session)).headers.get('etag')!)
  })
  const before = await snapshot(target)
  const waits = sessions.map((session) => read(base, session, tags.get(session.sessionId), 4_000))
  await sleep(2_000)
  const figures = figuresBetween(
    target,
    `long-poll waiting (${n} at once, mid-wait)`,
    n,
    before,
    await snapshot(target),
  )
  await Promise.all(waits)
  console.log(describe(figures))
  return figures
}

const topicOf = (label: string) => Buffer.from(label.padStart(32, '0').slice(-32)).toString('hex')
const messageOf = (label: string, chars: number) =>
  Buffer.alloc((chars / 4) * 3, `${label}-`).toString('base64')

async function relayToken(base: string): Promise<string> {
  const answer = await call(base, ROUTES.relayToken, {
    method: 'POST',
    headers: { [APP_KEY_HEADER]: APP_KEY },
  })
  expectStatus('relay token', answer, 200)
  return (answer.body as { token: string }).token
}

/** Sockets opened and subscribed to a topic each, then left idle; closed at the end. */
async function relaySockets(target: Target, count: number): Promise<Figures[]> {
  const base = target.server.url
  const token = await relayToken(base)
  const clients: RelayTestClient[] = []
  const before = await snapshot(target)
  for (let wave = 0; wave < count; wave += 250) {
    const opened = await Promise.all(
      range(Math.min(250, count - wave)).map(() => connectRelay(base, { token })),
    )
    await Promise.all(
      opened.map((client, i) =>
        client.request(RELAY_METHODS.subscribe, {
          topic: topicOf(`idle-${target.store}-${wave + i}`),
        }),
      ),
    )
    clients.push(...opened)
  }
  await sleep(500)
  const open = figuresBetween(
    target,
    'relay socket opened and subscribed to a topic',
    count,
    before,
    await snapshot(target),
  )
  console.log(describe(open))
  // Idle: only the heartbeat runs (a ping every HEARTBEAT_MS, answered by the client's pong).
  const idleBefore = await snapshot(target)
  await sleep(IDLE_S * 1000)
  const pings = (count * IDLE_S * 1000) / HEARTBEAT_MS
  const idle = figuresBetween(
    target,
    `idle socket: one heartbeat (ping + pong), ${count} sockets`,
    pings,
    idleBefore,
    await snapshot(target),
  )
  console.log(describe(idle))
  for (const client of clients) client.socket.terminate()
  await sleep(500)
  return [open, idle]
}

/** Publishes, each to a topic with one subscriber on another socket, which acks the push. */
async function relayPublishes(target: Target, n: number): Promise<Figures> {
  const base = target.server.url
  const token = await relayToken(base)
  // A publisher may hold 40 of a topic's 100 live messages: at most 30 publishes per topic.
  const pairs = Math.ceil((n + COUNTED_OPS) / 30)
  const subscribers = await Promise.all(range(pairs).map(() => connectRelay(base, { token })))
  const publishers = await Promise.all(range(pairs).map(() => connectRelay(base, { token })))
  const topics = range(pairs).map((p) => topicOf(`pub-${target.store}-${p}`))
  await Promise.all(
    subscribers.map((s, p) => s.request(RELAY_METHODS.subscribe, { topic: topics[p] })),
  )
  const publish = (i: number) =>
    publishers[i % pairs]!.request(RELAY_METHODS.publish, {
      topic: topics[i % pairs],
      message: messageOf(`m${target.store}${i}`, 400),
      ttl: 300,
      tag: 1108,
    })
  const received = () => subscribers.reduce((sum, s) => sum + s.pushes.length, 0)
  const untilDelivered = async (count: number) => {
    while (received() < count) await sleep(20)
  }
  // Round trips counted on the first COUNTED_OPS publishes, CPU on the next n.
  let sent = 0
  const counted =
    target.redisUrl === undefined
      ? undefined
      : await countRoundTrips(target.redisUrl, COUNTED_OPS, async () => {
          await inParallel(range(COUNTED_OPS), WIDTH, async () => {
            await publish(sent++)
          })
          await untilDelivered(COUNTED_OPS)
        })
  const start = sent
  const before = await snapshot(target)
  await inParallel(range(n), WIDTH, async () => {
    await publish(sent++)
  })
  await untilDelivered(start + n)
  const figures = figuresBetween(
    target,
    'relay publish, pushed to 1 subscriber and acked',
    n,
    before,
    await snapshot(target),
  )
  if (counted) figures.roundTrips = counted.roundTrips
  console.log(describe(figures))
  for (const client of [...subscribers, ...publishers]) client.socket.terminate()
  return figures
}

/**
 * Session events reach every instance (one channel on one Redis; on a Cluster every instance
 * subscribes to every shard's channel): what one costs an instance that has no waiter for it,
 * and what a PUBLISH costs Redis with the server alone subscribed, then with `extra` more
 * subscriber connections standing for more instances.
 */
async function sessionEventFanOut(target: Target, n: number, extra: number): Promise<Figures[]> {
  const url = target.redisUrl!
  const publisher = new Redis(url)
  const listeners = range(extra).map(() => new Redis(url))
  let received = 0
  // Another instance's id and a session's 16-hex key, as the server publishes them.
  const send = async (expected: number) => {
    await inParallel(range(n), 64, async (i) => {
      await publisher.publish(
        SESSION_EVENTS_CHANNEL,
        `0123456789abcdef ${i.toString(16).padStart(16, '0')}`,
      )
    })
    // The server's receipt cannot be awaited: a pause; the listeners' by their count.
    await sleep(300)
    while (received < expected) await sleep(20)
  }
  try {
    const before = await snapshot(target)
    await send(0)
    const alone = figuresBetween(
      target,
      'session event, received by an instance with no waiter for it (1 subscriber)',
      n,
      before,
      await snapshot(target),
    )
    console.log(describe(alone))
    for (const listener of listeners) {
      listener.on('message', () => received++)
      await listener.subscribe(SESSION_EVENTS_CHANNEL)
    }
    const wider = await snapshot(target)
    await send(n * extra)
    const fanned = figuresBetween(
      target,
      `session event, published to ${extra + 1} subscribed instances`,
      n,
      wider,
      await snapshot(target),
    )
    console.log(describe(fanned))
    return [alone, fanned]
  } finally {
    publisher.disconnect()
    for (const listener of listeners) listener.disconnect()
  }
}

/** Messages kept in the mailbox (no subscriber) of `chars` characters each, one per topic. */
async function mailboxBytes(target: Target, n: number, chars: number): Promise<Figures> {
  const base = target.server.url
  const publisher = await connectRelay(base, { token: await relayToken(base) })
  const before = await snapshot(target)
  await inParallel(range(n), WIDTH, async (i) => {
    await publisher.request(RELAY_METHODS.publish, {
      topic: topicOf(`mb-${target.store}-${chars}-${i}`),
      message: messageOf(`mb${chars}-${i}`, chars),
      ttl: 3600,
      tag: 1100,
    })
  })
  const figures = figuresBetween(
    target,
    `mailbox message of ${chars} characters, kept`,
    n,
    before,
    await snapshot(target),
  )
  console.log(describe(figures))
  publisher.socket.terminate()
  return figures
}

// ---------------------------------------------------------------------------------------------
// Report

const round = (value: number | undefined, digits = 0) =>
  value === undefined ? '' : value.toFixed(digits)

function describe(f: Figures): string {
  const commands = f.commands
    ? Object.entries(f.commands)
        .map(([name, calls]) => `${name} ${calls.toFixed(2)}`)
        .join(', ')
    : ''
  return `${f.unit}: ${f.ops} ops in ${f.seconds.toFixed(1)} s, server ${f.serverCpuUs.toFixed(1)} µs, Redis ${round(f.redisCpuUs, 1)} µs, round trips ${round(f.roundTrips, 2)}, heap ${f.heapBytes.toFixed(0)} B, RSS ${f.rssBytes.toFixed(0)} B, Redis mem ${round(f.redisBytes)} B; ${commands} (load ${f.load.toFixed(1)})`
}

function table(store: string, rows: Figures[]): string {
  const totalCommands = (f: Figures) =>
    f.commands ? Object.values(f.commands).reduce((sum, calls) => sum + calls, 0) : undefined
  const names = (f: Figures) =>
    f.commands
      ? Object.entries(f.commands)
          .filter(([, calls]) => calls >= 0.05)
          .sort((a, b) => b[1] - a[1])
          .map(([name, calls]) => `${name} ${calls.toFixed(1)}`)
          .join(', ')
      : ''
  return [
    `### ${store === 'redis' ? 'On Redis (store, session events and mailbox)' : 'In process (memory store and mailbox)'}`,
    '',
    '| Unit | ops | server CPU (µs/op) | Redis CPU (µs/op) | round trips/op | Redis commands/op | commands (in scripts too) | server heap (B/op) | server RSS (B/op) | Redis used_memory (B/op) | load (1 min) |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|',
    ...rows.map(
      (f) =>
        `| ${f.unit} | ${f.ops} | ${f.serverCpuUs.toFixed(0)} | ${round(f.redisCpuUs, 1)} | ${round(f.roundTrips, 1)} | ${round(totalCommands(f), 1)} | ${names(f)} | ${f.heapBytes.toFixed(0)} | ${f.rssBytes.toFixed(0)} | ${round(f.redisBytes)} | ${f.load.toFixed(1)} |`,
    ),
  ].join('\n')
}

async function main() {
  if (args.includes('--serve')) return serve(textOption('redis-url'), textOption('rpc-url')!)
  const cpu = cpus()
  const redisServer = await startRedis()
  const anvil = await startAnvil()
  const admin = new Redis(redisServer.url)
  const versions = `Node ${process.version}, redis-server ${/redis_version:(\S+)/.exec(await admin.info('server'))?.[1]}, ${cpu.length} × ${cpu[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB`
  console.log(
    `${versions}; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const tables: string[] = []
  try {
    for (const store of STORES) {
      const redisUrl = store === 'redis' ? redisServer.url : undefined
      const server = await spawnServer(redisUrl, anvil.rpcUrl)
      const target: Target = { store, server, ...(redisUrl ? { redis: admin, redisUrl } : {}) }
      try {
        const rows: Figures[] = []
        for (const unit of UNITS) rows.push(await measureUnit(target, unit))
        rows.push(await parkedLongPolls(target, 1000))
        if (redisUrl) rows.push(...(await sessionEventFanOut(target, 5 * OPS, 20)))
        rows.push(...(await relaySockets(target, SOCKETS)))
        rows.push(await relayPublishes(target, OPS))
        rows.push(await mailboxBytes(target, MESSAGES, 400))
        rows.push(await mailboxBytes(target, MESSAGES, 16_384))
        tables.push(table(store, rows))
      } finally {
        await server.close()
      }
    }
  } finally {
    admin.disconnect()
    await anvil.stop()
    await redisServer.stop()
  }
  console.log(
    `\n${versions}; load at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  )
  console.log(tables.join('\n\n'))
}

main().catch((err) => {
  console.error(err)
  // The server child's IPC channel would keep it alive.
  process.exit(1)
})
