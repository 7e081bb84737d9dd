/**
 * What issue 16's accounting costs on the publish hot path: the mailboxes of a baseline commit
 * (before quotas and fair shares) against today's, publish after publish on one process, in
 * interleaved rounds, with a real redis-server on 127.0.0.1. Unlike the throughput bench, no
 * sockets: only the mailbox's publish, so a busy shared machine moves both sides alike.
 *
 *   npx tsx bench/relay-publish-cost.ts [--baseline 7f6bcee] [--publishes 20000] [--rounds 5]
 */
import { execFileSync } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { DEFAULT_RELAY_LIMITS } from '../server/src/relay/limits'
import type { RelayMailbox, StoredMessage } from '../server/src/relay/mailbox'
import { createMemoryMailbox } from '../server/src/relay/mailbox-memory'
import { createRedisMailbox } from '../server/src/relay/mailbox-redis'
import { startRedis } from '../test/support/redis'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]!
}
const BASELINE = option('baseline', '7f6bcee')
const PUBLISHES = Number(option('publishes', '20000'))
const ROUNDS = Number(option('rounds', '5'))
const CONCURRENCY = 64
const TOPICS = 4_000

type Publish = (message: StoredMessage, n: number) => Promise<unknown>

/** The baseline's mailbox modules, written beside today's (they import its neighbours). */
async function baselineModules(): Promise<{
  memory: typeof createMemoryMailbox
  redis: typeof createRedisMailbox
  cleanup(): Promise<void>
}> {
  const files: string[] = []
  const load = async (name: string) => {
    const text = execFileSync('git', ['show', `${BASELINE}:server/src/relay/${name}.ts`], {
      cwd: root,
    }).toString()
    const file = `${root}server/src/relay/${name}.baseline.ts`
    await writeFile(file, text)
    files.push(file)
    return import(file)
  }
  const memory = (await load('mailbox-memory')).createMemoryMailbox
  const redis = (await load('mailbox-redis')).createRedisMailbox
  return { memory, redis, cleanup: () => Promise.all(files.map((f) => rm(f))).then(() => {}) }
}

const limits = {
  perTopic: DEFAULT_RELAY_LIMITS.mailboxPerTopic,
  sourceQuotaBytes: 1024 ** 3,
  sourceQuotaMessages: 10_000_000,
  appQuotaBytes: 1024 ** 3,
  appQuotaMessages: 10_000_000,
  mailboxQuotaBytes: 1024 ** 3,
  unpairedTtlMs: 300_000,
}
const MESSAGE = Buffer.alloc(201, 'relay-publish-cost').toString('base64')

function messageOf(n: number, round: number): StoredMessage {
  const now = Date.now()
  return {
    topic: (n % TOPICS).toString(16).padStart(64, '0'),
    message: `${MESSAGE}${round}-${n}`,
    messageId: (round * 1_000_000 + n).toString(16).padStart(64, '0'),
    publishedAt: now,
    tag: 1,
    expiresAt: now + 10_000,
  }
}

async function measure(publish: Publish, round: number): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PUBLISHES) {
        const n = next++
        await publish(messageOf(n, round), n)
      }
    }),
  )
  return PUBLISHES / ((performance.now() - started) / 1000)
}

async function main() {
  const redis = await startRedis()
  const baseline = await baselineModules()
  // Two publishers per topic (a pair), so the shares never refuse.
  const fresh = (mailbox: RelayMailbox): Publish => {
    return (message, n) =>
      mailbox.publish(
        message,
        { app: 'bench', sub: `s${Math.floor(n / TOPICS) % 2}`, source: '127.0.0.1' },
        limits,
      )
  }
  const old = (mailbox: {
    publish(m: StoredMessage, limit: number): Promise<unknown>
  }): Publish => {
    return (message) => mailbox.publish(message, 100)
  }
  const variants: Array<{
    name: string
    make(round: number): { publish: Publish; close(): Promise<void> }
  }> = [
    {
      name: `in-process, ${BASELINE}`,
      make: () => {
        const m = baseline.memory({ sweepIntervalMs: 0 })
        return { publish: old(m as never), close: () => m.close() }
      },
    },
    {
      name: 'in-process, now',
      make: () => {
        const m = createMemoryMailbox({ sweepIntervalMs: 0 })
        return { publish: fresh(m), close: () => m.close() }
      },
    },
    {
      name: `Redis, ${BASELINE}`,
      make: (round) => {
        const m = baseline.redis(redis.url, { keyPrefix: `old${round}:` })
        return { publish: old(m as never), close: () => m.close() }
      },
    },
    {
      name: 'Redis, now',
      make: (round) => {
        const m = createRedisMailbox(redis.url, { keyPrefix: `new${round}:` })
        return { publish: fresh(m), close: () => m.close() }
      },
    },
  ]
  const results = variants.map((): number[] => [])
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, variant] of variants.entries()) {
        const { publish, close } = variant.make(round)
        await publish(messageOf(PUBLISHES, round), 0) // connects
        results[i]!.push(await measure(publish, round))
        await close()
      }
    }
  } finally {
    await baseline.cleanup()
    await redis.stop()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log('| Mailbox | publishes/s (median) | rounds |')
  console.log('|---|---:|---|')
  for (const [i, variant] of variants.entries()) {
    const runs = results[i]!
    console.log(
      `| ${variant.name} | ${median(runs).toFixed(0)} | ${runs.map((r) => r.toFixed(0)).join(', ')} |`,
    )
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
