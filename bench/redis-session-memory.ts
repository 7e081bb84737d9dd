/**
 * Memory a session costs in Redis: creates sessions through the real store (`createRedisStore`)
 * on a fresh redis-server (it starts its own, no persistence), in the states a session goes
 * through, and reads `INFO memory` before and after, plus `MEMORY USAGE` and `OBJECT ENCODING` of
 * one key of each kind. Prints a Markdown table for docs/redis.md.
 *
 *   npx tsx bench/redis-session-memory.ts [--sessions 10000] [--listpack]
 *
 * `--listpack` first sets `hash-max-listpack-value 256`: a session hash then stays a listpack (its
 * longest value, the signature, is ~134 bytes; by default, 64, the token hash alone tips it over).
 */
import { Redis } from 'ioredis'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hashSessionToken, newSessionToken } from '../server/src/auth/session-token'
import { newNonce, newSessionId } from '../server/src/sessions/ids'
import { createRedisStore } from '../server/src/store/redis'
import type { SessionRecord } from '../server/src/store/types'
import { startRedis } from '../test/support/redis'
import { usedMemory } from './redis-stats'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const SESSIONS = arg('sessions', 10_000)

const PREFIX = 'scope:'

function newRecord(now: number): SessionRecord {
  return {
    sessionId: newSessionId(),
    projectId: 'sample-project',
    tokenHash: hashSessionToken(newSessionToken()),
    nonce: newNonce(),
    caip2Chain: 'eip155:1',
    walletSlug: 'metamask',
    intent: 'sign',
    status: 'pending',
    walletAddress: null,
    signature: null,
    txSignature: null,
    errorCode: null,
    nonceUsed: false,
    createdAt: now,
    expiresAt: now + 600_000,
    version: 1,
  }
}

async function main() {
  const server = await startRedis()
  const redis = new Redis(server.url)
  const store = createRedisStore(server.url, { keyPrefix: PREFIX })
  await store.ready()
  if (process.argv.includes('--listpack')) {
    await redis.config('SET', 'hash-max-listpack-value', '256')
  }
  const account = privateKeyToAccount(generatePrivateKey())
  const signature = await account.signMessage({ message: 'x' })
  const rows: string[] = []
  try {
    const stages = ['pending', 'connected', 'signed'] as const
    const ids: string[] = []
    let before = await usedMemory(redis)
    const now = Date.now()
    for (let i = 0; i < SESSIONS; i++) {
      const record = newRecord(now)
      ids.push(record.sessionId)
      await store.createSession(record)
    }
    const sample = (id: string) => `${PREFIX}session:${id}`
    const perStage: Record<string, number> = {}
    for (const stage of stages) {
      if (stage === 'connected') {
        for (const id of ids) {
          await store.compareAndSetSession(id, 1, {
            status: 'connected',
            walletAddress: account.address,
          })
        }
      }
      if (stage === 'signed') {
        for (const id of ids) {
          await store.compareAndSetSession(id, 2, { status: 'signed', signature, nonceUsed: true })
        }
      }
      const after = await usedMemory(redis)
      perStage[stage] = (after - before) / SESSIONS
      const key = sample(ids[0]!)
      rows.push(
        `| session hash, ${stage} | \`${await redis.object('ENCODING', key)}\` | ${await redis.memory('USAGE', key)} | ${Math.round(perStage[stage]! + (stage === 'pending' ? 0 : perStage.pending!))} |`,
      )
      before = after
    }
    // The session's poll window (one per polled session) and a callback IP window.
    const counterBefore = await usedMemory(redis)
    for (const id of ids) await store.hitWindow(`session:${id}`, 60_000)
    const counterPer = ((await usedMemory(redis)) - counterBefore) / SESSIONS
    const counterKey = `${PREFIX}rl:session:${ids[0]}`
    rows.push(
      `| poll window \`rl:session:<id>\` | \`${await redis.object('ENCODING', counterKey)}\` | ${await redis.memory('USAGE', counterKey)} | ${Math.round(counterPer)} |`,
    )
    console.log(
      `${SESSIONS} sessions, redis ${(await redis.info('server')).match(/redis_version:(\S+)/)?.[1]}`,
    )
    console.log(
      '| Key | Encoding | MEMORY USAGE of one key (bytes) | used_memory per session (bytes) |',
    )
    console.log('|---|---|---:|---:|')
    for (const row of rows) console.log(row)
  } finally {
    redis.disconnect()
    await store.close()
    await server.stop()
  }
}

await main()
