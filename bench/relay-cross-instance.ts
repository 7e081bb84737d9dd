/**
 * The relay publish's cost for the capacity model (docs/scaling.md), with the paths it left out:
 * delivery across instances (the sender on instance A, the subscriber on instance B, so the
 * message crosses Redis pub/sub) and the Redis Cluster publish path (issue 28: one script in the
 * topic's slot, sharded pub/sub, the storage quotas counted per instance and reconciled).
 *
 * Two backend instances, each the real CLI in its own process, on one redis-server or on a local
 * Redis Cluster (three primaries, three replicas). `PAIRS` publishers, each with a subscriber on
 * the same instance or on the other, publish `--publishes` messages of 400 characters (ttl 300,
 * `IN_FLIGHT` at a time) over 200 topics each; every message is pushed and acked. Measured over the
 * publishing: the two instances' CPU (`/proc/<pid>/stat`, user + system), Redis's (`INFO cpu` of
 * every node, primaries and replicas apart), per publish, less their idle cost (measured over 3 s
 * just before: timers, heartbeats, a cluster's bus and cron); and the publishes a second.
 *
 *   npx tsx bench/relay-cross-instance.ts [--publishes 4000]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { RELAY_METHODS } from 'scope-connect/wire'
import {
  connectRelay,
  issueRelayToken,
  type RelayTestClient,
  topicFor,
} from '../server/test/support/relay-client'
import { startRedis } from '../test/support/redis'
import { startRedisCluster } from '../test/support/redis-cluster'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const PUBLISHES = option('publishes', 4_000)
const PAIRS = 10
const TOPICS_EACH = 200
const IN_FLIGHT = 16
const RELAY_KEY = Buffer.alloc(32, 9).toString('base64url')
const TICK_S = 0.01 // /proc/<pid>/stat counts in clock ticks of 10 ms
const MESSAGE = Buffer.alloc(300, 'relay-cross-instance').toString('base64') // 400 characters
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Instance {
  url: string
  child: ChildProcess
}

function startInstance(redis: string[]): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [
      'server/bin/scope-connect-server.js',
      '--port',
      '0',
      ...redis,
      '--relay-key',
      RELAY_KEY,
      '--public-url',
      'http://relay.bench',
      '--log-level',
      'warn',
      '--relay-source-quota-messages',
      '10000000',
      '--relay-source-quota-bytes',
      '10000000000',
      '--relay-app-quota-messages',
      '10000000',
      '--relay-app-quota-bytes',
      '10000000000',
      '--relay-mailbox-quota-bytes',
      '10000000000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let stdout = ''
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1]
      if (url) resolve({ url, child })
    })
    child.once('exit', (code) => reject(new Error(`instance exited ${code}`)))
  })
}

/** CPU seconds of a process so far (user + system). */
function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_S
}

async function redisCpu(port: number): Promise<{ seconds: number; primary: boolean }> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'INFO'])
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(stdout)![1])
  return {
    seconds: field('used_cpu_user') + field('used_cpu_sys'),
    primary: /^role:master/m.test(stdout),
  }
}

interface Figures {
  setup: string
  delivery: string
  serverUs: number
  redisPrimaryUs: number
  redisReplicaUs: number
  perSecond: number
  load: number
}

async function measure(
  setup: string,
  redisArgs: string[],
  ports: number[],
  cross: boolean,
): Promise<Figures> {
  const instances = [await startInstance(redisArgs), await startInstance(redisArgs)]
  const [a, b] = instances as [Instance, Instance]
  const clients: RelayTestClient[] = []
  try {
    const token = (await issueRelayToken(a.url, 'sample-app-key')).token
    let received = 0
    const pairs: Array<{ publisher: RelayTestClient; topics: string[] }> = []
    for (let p = 0; p < PAIRS; p++) {
      const topics = Array.from({ length: TOPICS_EACH }, (_, t) =>
        topicFor(`${setup}-${cross}-${p}-${t}`),
      )
      const publisher = await connectRelay(a.url, { token })
      const subscriber = await connectRelay(cross ? b.url : a.url, {
        token,
        onPush: () => {
          received++
        },
      })
      clients.push(publisher, subscriber)
      // 20 subscriptions at a time, each retried: a busy machine may time one out.
      for (let t = 0; t < topics.length; t += 20) {
        await Promise.all(
          topics.slice(t, t + 20).map(async (topic) => {
            for (let attempt = 0; ; attempt++) {
              try {
                return await subscriber.request(RELAY_METHODS.subscribe, { topic })
              } catch (err) {
                if (attempt >= 5) throw err
                await sleep(100)
              }
            }
          }),
        )
      }
      pairs.push({ publisher, topics })
    }
    await sleep(500)
    // The idle cost (timers, heartbeats, a cluster's bus and cron) over 3 s, taken off below.
    const idleCpu = instances.map((i) => processCpu(i.child.pid!))
    const idleRedis = await Promise.all(ports.map(redisCpu))
    const idleStarted = performance.now()
    await sleep(3_000)
    const idleSeconds = (performance.now() - idleStarted) / 1000
    const idleServer =
      instances.reduce((sum, i, k) => sum + processCpu(i.child.pid!) - idleCpu[k]!, 0) / idleSeconds
    const idleRedisAfter = await Promise.all(ports.map(redisCpu))
    const idleRedisRate = (primary: boolean) =>
      idleRedisAfter.reduce(
        (sum, after, i) =>
          after.primary === primary ? sum + after.seconds - idleRedis[i]!.seconds : sum,
        0,
      ) / idleSeconds
    const load = loadavg()[0] ?? 0
    const cpuBefore = instances.map((i) => processCpu(i.child.pid!))
    const redisBefore = await Promise.all(ports.map(redisCpu))
    const started = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let n = next++; n < PUBLISHES; n = next++) {
          const { publisher, topics } = pairs[n % PAIRS]!
          const topic = topics[Math.floor(n / PAIRS) % TOPICS_EACH]!
          await publisher.request(RELAY_METHODS.publish, {
            topic,
            message: `${MESSAGE.slice(0, -12)}${String(n).padStart(12, '0')}`,
            ttl: 300,
            tag: 1108,
          })
        }
      }),
    )
    while (received < PUBLISHES) await sleep(5)
    const seconds = (performance.now() - started) / 1000
    await sleep(200) // the acks
    const cpuAfter = instances.map((i) => processCpu(i.child.pid!))
    const redisAfter = await Promise.all(ports.map(redisCpu))
    const perPublish = (s: number) => (s / PUBLISHES) * 1e6
    const redisDelta = (primary: boolean) =>
      redisAfter.reduce(
        (sum, after, i) =>
          after.primary === primary ? sum + after.seconds - redisBefore[i]!.seconds : sum,
        0,
      ) -
      idleRedisRate(primary) * seconds
    return {
      setup,
      delivery: cross ? 'A → B (cross-instance)' : 'A → A (same instance)',
      serverUs: perPublish(
        cpuAfter[0]! - cpuBefore[0]! + cpuAfter[1]! - cpuBefore[1]! - idleServer * seconds,
      ),
      redisPrimaryUs: perPublish(redisDelta(true)),
      redisReplicaUs: perPublish(redisDelta(false)),
      perSecond: PUBLISHES / seconds,
      load,
    }
  } finally {
    for (const client of clients) client.close()
    for (const instance of instances) instance.child.kill('SIGKILL')
  }
}

async function main() {
  const rows: Figures[] = []
  const redis = await startRedis()
  try {
    for (const cross of [false, true]) {
      rows.push(await measure('one Redis', ['--redis-url', redis.url], [redis.port], cross))
      console.log(rows.at(-1))
    }
  } finally {
    await redis.stop()
  }
  const cluster = await startRedisCluster()
  try {
    const ports = cluster.nodes.map((node) => Number(node.split(':')[1]))
    for (const cross of [false, true]) {
      rows.push(
        await measure('Redis Cluster', ['--redis-cluster', cluster.nodes.join(',')], ports, cross),
      )
      console.log(rows.at(-1))
    }
  } finally {
    await cluster.stop()
  }
  console.log(
    [
      `\n${PUBLISHES} publishes of 400 characters, each pushed to one subscriber and acked; ${IN_FLIGHT} in flight`,
      '| Redis | delivery | server CPU, both instances (µs/publish) | Redis CPU, primaries (µs/publish) | replicas (µs/publish) | publishes/s | load |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.setup} | ${r.delivery} | ${r.serverUs.toFixed(0)} | ${r.redisPrimaryUs.toFixed(1)} | ${r.redisReplicaUs.toFixed(1)} | ${r.perSecond.toFixed(0)} | ${r.load.toFixed(1)} |`,
      ),
    ].join('\n'),
  )
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
