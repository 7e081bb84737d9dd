/**
 * The relay under abuse (issue 16), replayed against one relay instance with the in-process
 * mailbox, its default limits, in a child process (so its RSS is its own), on 127.0.0.1 only:
 *
 * 1. storage flood: 5 sockets from one address, then 20 sockets from 20 addresses, of one app key
 *    each, publish 96 KiB messages (ttl 604800) on fresh topics until refused; the address's
 *    quota (8 MiB), then the app key's (64 MiB), is the bound;
 * 2. slow consumers: two subscribers stop reading while 20 MiB are published on their topics;
 *    the send-buffer ceiling (1 MiB) closes them 1013;
 * 3. topic jam: ten subjects flood a pairing topic with 100 messages each (ttl 604800); the
 *    dApp and the wallet still pair and exchange 20 requests and answers;
 * 4. idle sockets: RSS and heap per socket at 10,000 open sockets, each subscribed to a topic;
 * 5. a newcomer pairing after a flood (issue 28): ten addresses of one app key publish 500
 *    four-byte messages each (tag 1112, ttl 86400) on fresh topics, which fills the app key's
 *    5,000 messages; then a dApp from a new address and its wallet from another pair (proposal,
 *    answer). Before issue 28 the pairing was refused QUOTA_EXCEEDED for a day.
 *
 * Reports server RSS before and after each, and whether the legitimate pair got through.
 * Writes the "Relay under abuse" section of docs/benchmarks.md.
 *
 *   npx tsx bench/relay-abuse.ts [--idle 10000] [--no-write]
 *   npx tsx bench/relay-abuse.ts --only newcomer   (5. alone, printed, nothing written)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import type { Socket } from 'node:net'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { API_PREFIX, RELAY_METHODS, ROUTES } from 'scope-connect/wire'
import WebSocket from 'ws'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import type { RelayStats } from '../server/src/relay/relay'
import { startServer } from '../server/src/server'

const root = fileURLToPath(new URL('..', import.meta.url))
const SELF = fileURLToPath(import.meta.url)
const DOC = `${root}docs/benchmarks.md`
const HEADING = '## Relay under abuse'
const args = process.argv.slice(2)
const IDLE = (() => {
  const at = args.indexOf('--idle')
  return at === -1 ? 10_000 : Number(args[at + 1])
})()
const WRITE = !args.includes('--no-write')
const DEADLINE_MS = 240_000 // the whole run, whatever happens

const APP_KEYS = [
  'abuse-flood-key',
  'abuse-slow-key',
  'abuse-jam-key',
  'abuse-idle-key',
  'abuse-one-address-key',
  'abuse-newcomer-key',
]
const PROJECTS: ProjectsConfig = {
  projects: APP_KEYS.map((key) => ({
    projectId: key,
    name: key,
    appKeys: [key],
    networks: [{ chainId: 'eip155:1' }],
    wallets: [],
    // Token requests are not what is measured here.
    rateLimits: {
      appKey: { limit: 1_000_000, windowSeconds: 60 },
      project: { limit: 1_000_000, windowSeconds: 60 },
    },
  })),
}
const SIGNING_KEY = Buffer.alloc(32, 5).toString('base64url')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

// ---------------------------------------------------------------------------------------------
// The server: a child process that answers `stats` over IPC with its relay stats and memory.

interface ServerReport {
  stats: RelayStats
  rss: number
  heapUsed: number
}

async function serve(): Promise<void> {
  const server = await startServer({
    projects: PROJECTS,
    port: 0,
    logger: false,
    // Every socket comes from 127.0.0.1: only the per-IP caps are lifted; every relay limit
    // (quotas, shares, ttl ceilings, send buffer) is the default.
    http: { maxConnectionsPerIp: 1_000_000 },
    // The bench's sockets say which address they stand for in X-Forwarded-For.
    trustProxy: ['127.0.0.1'],
    relay: {
      signingKeys: [Buffer.from(SIGNING_KEY, 'base64url')],
      publicUrl: 'http://relay.bench',
      limits: { maxSocketsPerIp: 1_000_000 },
    },
  })
  process.on('message', () => {
    globalThis.gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    process.send?.({ stats: server.app.relay.stats(), rss, heapUsed } satisfies ServerReport)
  })
  process.send?.({ port: Number(new URL(server.url).port) })
}

interface ServerProcess {
  url: string
  report(): Promise<ServerReport>
  close(): Promise<void>
}

function spawnServer(): Promise<ServerProcess> {
  // The server holds one descriptor per socket: raise its limit to the hard one.
  const child: ChildProcess = spawn(
    'sh',
    [
      '-c',
      `ulimit -n "$(ulimit -Hn)"; exec "${process.execPath}" --expose-gc --import tsx "${SELF}" --serve`,
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  )
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)))
    child.once('message', (message: { port: number }) => {
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        report: () =>
          new Promise((answer) => {
            child.once('message', (report) => answer(report as ServerReport))
            child.send('stats')
          }),
        async close() {
          child.kill('SIGKILL')
        },
      })
    })
  })
}

// ---------------------------------------------------------------------------------------------
// A minimal client: requests with answers, pushes recorded and acked.

interface Client {
  socket: WebSocket
  request(method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number } }>
  pushes: string[]
  closed: Promise<number>
}

async function token(url: string, appKey: string): Promise<string> {
  const response = await fetch(url + API_PREFIX + ROUTES.relayToken, {
    method: 'POST',
    headers: { 'x-app-key': appKey },
  })
  return ((await response.json()) as { token: string }).token
}

async function connect(url: string, grant: string, address = '192.0.2.1'): Promise<Client> {
  const ws = url.replace(/^http/, 'ws') + API_PREFIX + ROUTES.relay
  const socket = new WebSocket(`${ws}?token=${encodeURIComponent(grant)}`, {
    headers: { 'x-forwarded-for': address },
  })
  const waiting = new Map<number, (frame: { result?: unknown; error?: { code: number } }) => void>()
  const pushes: string[] = []
  let nextId = 1
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
  socket.on('error', () => {})
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data))
    if (frame.method === RELAY_METHODS.subscription) {
      pushes.push(frame.params.data.message)
      socket.send(`{"jsonrpc":"2.0","id":${frame.id},"result":true}`)
    } else {
      waiting.get(frame.id)?.(frame)
      waiting.delete(frame.id)
    }
  })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  return {
    socket,
    pushes,
    closed,
    request(method, params) {
      const id = nextId++
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      return new Promise((resolve) => {
        waiting.set(id, resolve)
        void closed.then(() => resolve({ error: { code: 0 } }))
      })
    },
  }
}

const topicOf = (seed: string) => Buffer.from(seed.padStart(32, '0').slice(-32)).toString('hex')
/** A distinct base64 message of `bytes` characters (bytes a multiple of 4). */
const messageOf = (seed: string, bytes: number) =>
  Buffer.alloc((bytes / 4) * 3, `${seed}-`).toString('base64')

// ---------------------------------------------------------------------------------------------
// The attacks

interface Row {
  attack: string
  outcome: string
  rssBefore: number
  rssAfter: number
  legit: string
}

async function storageFlood(
  server: ServerProcess,
  appKey: string,
  addresses: string[],
  perSocket: number,
): Promise<Row> {
  const before = await server.report()
  const grant = await token(server.url, appKey)
  const sockets = await Promise.all(addresses.map((address) => connect(server.url, grant, address)))
  const counts = new Map<string, number>()
  await Promise.all(
    sockets.map(async (client, s) => {
      for (let i = 0; i < perSocket; i++) {
        const answer = await client.request(RELAY_METHODS.publish, {
          topic: topicOf(`flood-${appKey}-${s}-${i}`),
          message: messageOf(`flood-${appKey}-${s}-${i}`, 96 * 1024),
          ttl: 604_800,
          tag: 1112,
        })
        const key = answer.error ? `error ${answer.error.code}` : 'stored'
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
    }),
  )
  for (const client of sockets) client.socket.close()
  const after = await server.report()
  const total = addresses.length * perSocket
  const from = new Set(addresses).size
  return {
    attack: `storage flood: ${addresses.length} sockets of one app key from ${from === 1 ? 'one address' : `${from} addresses`}, ${total.toLocaleString('en')} × 96 KiB (${mib(total * 96 * 1024)} MiB), ttl 604800`,
    outcome: `${[...counts].map(([k, v]) => `${k}: ${v}`).join(', ')}; mailbox ${mib(after.stats.mailboxBytes)} MiB`,
    rssBefore: before.rss,
    rssAfter: after.rss,
    legit: 'n/a',
  }
}

async function slowConsumers(server: ServerProcess): Promise<Row> {
  const before = await server.report()
  const grant = await token(server.url, APP_KEYS[1]!)
  const topics = Array.from({ length: 8 }, (_, i) => topicOf(`slow-${i}`))
  const readers = await Promise.all([connect(server.url, grant), connect(server.url, grant)])
  for (const reader of readers) {
    for (const topic of topics) await reader.request(RELAY_METHODS.subscribe, { topic })
    ;(reader.socket as unknown as { _socket: Socket })._socket.pause()
  }
  // Three publishers from three addresses: 20 MiB is more than one address may store (8 MiB).
  const publishers = await Promise.all(
    ['192.0.2.21', '192.0.2.22', '192.0.2.23'].map(async (address) =>
      connect(server.url, await token(server.url, APP_KEYS[1]!), address),
    ),
  )
  let sent = 0
  for (let n = 0; n < 40; n++) {
    for (const topic of topics) {
      const message = messageOf(`slow-${n}-${topic.slice(-4)}`, 64 * 1024)
      const answer = await publishers[n % 3]!.request(RELAY_METHODS.publish, {
        topic,
        message,
        ttl: 300,
        tag: 1,
      })
      if (!answer.error) sent++
    }
  }
  const during = await server.report()
  for (const reader of readers) (reader.socket as unknown as { _socket: Socket })._socket.resume()
  const codes = await Promise.all(
    readers.map((reader) => Promise.race([reader.closed, sleep(5_000).then(() => -1)])),
  )
  // The reconnect fetches what was missed.
  const back = await connect(server.url, grant)
  let fetched = 0
  for (const topic of topics) {
    for (let more = true; more; ) {
      const page = (await back.request(RELAY_METHODS.fetchMessages, { topic })).result as {
        messages: unknown[]
        hasMore: boolean
      }
      fetched += page.messages.length
      more = page.hasMore
    }
  }
  back.socket.close()
  for (const publisher of publishers) publisher.socket.close()
  return {
    attack: `slow consumers: 2 subscribers stop reading; ${sent} × 64 KiB (${mib(sent * 64 * 1024)} MiB) published to them`,
    outcome: `closed ${codes.join(', ')}; slowConsumerCloses ${during.stats.slowConsumerCloses}`,
    rssBefore: before.rss,
    rssAfter: during.rss,
    legit: `reconnect fetched ${fetched} of ${sent}`,
  }
}

async function topicJam(server: ServerProcess): Promise<Row> {
  const before = await server.report()
  const topic = topicOf('jam-pairing')
  const dapp = await connect(server.url, await token(server.url, APP_KEYS[2]!))
  await dapp.request(RELAY_METHODS.subscribe, { topic })
  await dapp.request(RELAY_METHODS.publish, {
    topic,
    message: messageOf('proposal', 400),
    ttl: 300,
    tag: 1100,
  })
  const wallet = await connect(server.url, await token(server.url, APP_KEYS[2]!))
  await wallet.request(RELAY_METHODS.subscribe, { topic })
  await wallet.request(RELAY_METHODS.publish, {
    topic,
    message: messageOf('approve', 400),
    ttl: 300,
    tag: 1101,
  })
  let stored = 0
  for (let k = 0; k < 10; k++) {
    const attacker = await connect(server.url, await token(server.url, APP_KEYS[2]!))
    for (let i = 0; i < 100; i++) {
      const answer = await attacker.request(RELAY_METHODS.publish, {
        topic,
        message: messageOf(`junk-${k}-${i}`, 400),
        ttl: 604_800,
        tag: 1,
      })
      if (!answer.error) stored++
    }
    attacker.socket.close()
  }
  // The pair keeps talking: 20 requests and 20 answers.
  const requests = Array.from({ length: 20 }, (_, i) => messageOf(`req-${i}`, 400))
  const answers = Array.from({ length: 20 }, (_, i) => messageOf(`ans-${i}`, 400))
  let accepted = 0
  for (let i = 0; i < 20; i++) {
    const asked = await dapp.request(RELAY_METHODS.publish, {
      topic,
      message: requests[i],
      ttl: 300,
      tag: 1108,
    })
    const answered = await wallet.request(RELAY_METHODS.publish, {
      topic,
      message: answers[i],
      ttl: 300,
      tag: 1109,
    })
    if (!asked.error) accepted++
    if (!answered.error) accepted++
  }
  await sleep(200)
  const delivered =
    dapp.pushes.filter((m) => answers.includes(m)).length +
    wallet.pushes.filter((m) => requests.includes(m)).length
  const after = await server.report()
  dapp.socket.close()
  wallet.socket.close()
  return {
    attack: 'topic jam: 10 subjects × 100 messages (ttl 604800) on a pairing topic',
    outcome: `${stored} of 1,000 stored (the others' pool: 20); ttl clamped to 300 s`,
    rssBefore: before.rss,
    rssAfter: after.rss,
    legit: `pair published ${accepted} of 40, received ${delivered} of 40${wallet.pushes.length > 0 ? '' : ' (no proposal!)'}`,
  }
}

interface NewcomerFigures {
  /** The flood: publishes answered stored / refused, and how long it took. */
  stored: number
  refused: Record<string, number>
  fillMs: number
  /** The newcomer pairing: the proposal's and the answer's outcome, and whether it arrived. */
  proposal: string
  answer: string
  delivered: boolean
  mailboxMessages: number
  mailboxBytes: number
}

/** 5. Ten addresses fill the app key's quota with tiny day-long deletes; a newcomer pairs. */
async function newcomerAfterFlood(server: ServerProcess): Promise<NewcomerFigures> {
  const appKey = APP_KEYS[5]!
  const addresses = Array.from({ length: 10 }, (_, i) => `198.19.0.${i + 1}`)
  const sockets = await Promise.all(
    addresses.map(async (address) => connect(server.url, await token(server.url, appKey), address)),
  )
  const refused: Record<string, number> = {}
  let stored = 0
  const started = performance.now()
  await Promise.all(
    sockets.map(async (client, s) => {
      const pending: Promise<void>[] = []
      for (let i = 0; i < 500; i++) {
        pending.push(
          client
            .request(RELAY_METHODS.publish, {
              topic: topicOf(`newcomer-flood-${s}-${i}`),
              message: messageOf(`${s}${i}`.slice(-3).padStart(3, 'x'), 4),
              ttl: 86_400,
              tag: 1112,
            })
            .then((answer) => {
              if (answer.error) {
                const key = String(answer.error.code)
                refused[key] = (refused[key] ?? 0) + 1
              } else stored++
            }),
        )
      }
      await Promise.all(pending)
    }),
  )
  const fillMs = performance.now() - started
  const topic = topicOf('newcomer-pairing')
  const dapp = await connect(server.url, await token(server.url, appKey), '203.0.113.200')
  const wallet = await connect(server.url, await token(server.url, appKey), '203.0.113.201')
  await dapp.request(RELAY_METHODS.subscribe, { topic })
  const proposal = await dapp.request(RELAY_METHODS.publish, {
    topic,
    message: messageOf('newcomer-proposal', 400),
    ttl: 300,
    tag: 1100,
  })
  const answer = await wallet.request(RELAY_METHODS.publish, {
    topic,
    message: messageOf('newcomer-answer', 400),
    ttl: 300,
    tag: 1101,
  })
  await sleep(200)
  const delivered = dapp.pushes.includes(messageOf('newcomer-answer', 400))
  const report = await server.report()
  for (const client of [...sockets, dapp, wallet]) client.socket.close()
  const outcome = (a: { error?: { code: number } }) =>
    a.error ? `refused ${a.error.code}` : 'stored'
  return {
    stored,
    refused,
    fillMs,
    proposal: outcome(proposal),
    answer: outcome(answer),
    delivered,
    mailboxMessages: report.stats.mailboxMessages,
    mailboxBytes: report.stats.mailboxBytes,
  }
}

interface IdleFigures {
  sockets: number
  rssPerSocket: number
  heapPerSocket: number
}

async function idleSockets(server: ServerProcess): Promise<IdleFigures> {
  const before = await server.report()
  const grant = await token(server.url, APP_KEYS[3]!)
  const clients: Client[] = []
  for (let wave = 0; wave < IDLE; wave += 500) {
    const opened = await Promise.all(
      Array.from({ length: Math.min(500, IDLE - wave) }, () => connect(server.url, grant)),
    )
    await Promise.all(
      opened.map((client, i) =>
        client.request(RELAY_METHODS.subscribe, { topic: topicOf(`idle-${wave + i}`) }),
      ),
    )
    clients.push(...opened)
  }
  await sleep(1_000)
  const after = await server.report()
  for (const client of clients) client.socket.terminate()
  return {
    sockets: after.stats.sockets,
    rssPerSocket: (after.rss - before.rss) / IDLE,
    heapPerSocket: (after.heapUsed - before.heapUsed) / IDLE,
  }
}

// ---------------------------------------------------------------------------------------------

function section(rows: Row[], idle: IdleFigures, loadAtStart: number): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  return `${HEADING}

Generated by \`npx tsx bench/relay-abuse.ts\` on ${new Date().toISOString().slice(0, 10)}: Node
${process.version}, ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB; 1-minute load
${loadAtStart.toFixed(1)} when the run began (a **shared 2-core machine**: other work was running).
One relay instance with the in-process mailbox and its **default limits** (only the per-IP socket
caps lifted), in its own process; RSS is that process's, after a GC. Every socket comes from
127.0.0.1 and names the address it stands for in X-Forwarded-For (127.0.0.1 is a trusted proxy).
The attacks run one after the other on the same instance, each with its own app key.

| Attack | What the relay did | RSS before (MiB) | RSS after (MiB) | The legitimate pair |
|---|---|---:|---:|---|
${rows.map((r) => `| ${r.attack} | ${r.outcome} | ${mib(r.rssBefore)} | ${mib(r.rssAfter)} | ${r.legit} |`).join('\n')}

Idle sockets: ${idle.sockets} open relay sockets, each subscribed to one topic: ${(idle.rssPerSocket / 1024).toFixed(1)} KiB
of RSS and ${(idle.heapPerSocket / 1024).toFixed(1)} KiB of JS heap per socket.

The bound: what one address can make the server keep for an app key is its quota (8 MiB of
message text, 500 messages), what one app key can is its quota (64 MiB and 5,000 messages, plus a
few hundred bytes of bookkeeping each), what all keys together can is the
mailbox quota (512 MiB); a reader that does not read costs at most the send-buffer ceiling (1 MiB)
plus the kernel's socket buffers before it is closed 1013.
`
}

async function writeDoc(text: string): Promise<void> {
  let doc = await readFile(DOC, 'utf8')
  const start = doc.indexOf(HEADING)
  if (start === -1) {
    doc = `${doc.trimEnd()}\n\n${text}`
  } else {
    // Replace the generated part, keeping hand-written "### " notes up to the next "## ".
    const next = doc.indexOf('\n## ', start + HEADING.length)
    const end = next === -1 ? doc.length : next + 1
    const notes = doc.indexOf('\n### ', start)
    const kept = notes !== -1 && notes < end ? `\n${doc.slice(notes + 1, end).trimEnd()}\n` : ''
    doc = doc.slice(0, start) + text + kept + (next === -1 ? '' : `\n${doc.slice(next + 1)}`)
  }
  await writeFile(DOC, doc.endsWith('\n') ? doc : `${doc}\n`)
}

async function main() {
  if (args.includes('--serve')) return serve()
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim())
  if (limit < IDLE + 256) console.warn(`ulimit -n is ${limit}: ${IDLE} sockets need more`)
  const loadAtStart = loadavg()[0] ?? 0
  const server = await spawnServer()
  const deadline = setTimeout(() => {
    console.error('relay-abuse: deadline passed')
    void server.close().then(() => process.exit(1))
  }, DEADLINE_MS)
  try {
    if (args.includes('--only')) {
      console.log(JSON.stringify(await newcomerAfterFlood(server), null, 2))
      return
    }
    const rows = [
      await storageFlood(server, APP_KEYS[4]!, Array(5).fill('192.0.2.10'), 40),
      await storageFlood(
        server,
        APP_KEYS[0]!,
        Array.from({ length: 20 }, (_, i) => `198.18.0.${i + 1}`),
        60,
      ),
      await slowConsumers(server),
      await topicJam(server),
    ]
    for (const row of rows) console.log(row)
    const idle = await idleSockets(server)
    console.log(idle)
    const text = section(rows, idle, loadAtStart)
    console.log(text)
    if (WRITE) await writeDoc(text)
  } finally {
    clearTimeout(deadline)
    await server.close()
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
