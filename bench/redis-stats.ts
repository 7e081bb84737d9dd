/**
 * What the benches read from redis-server's `INFO`: commands executed (`commandstats`), CPU time
 * and memory, and the difference of two readings. Commands a Lua script runs count in
 * `commandstats` under their own names, beside the `evalsha` that ran them.
 */
import type { Redis } from 'ioredis'

/** Calls per command name (`get`, `evalsha`, `client|setname`) since the last reset. */
export type CommandCounts = Record<string, number>

/** Lines `cmdstat_<name>:calls=<n>,usec=…` of `INFO commandstats`. */
export function parseCommandStats(info: string): CommandCounts {
  const counts: CommandCounts = {}
  for (const match of info.matchAll(/^cmdstat_([^:\s]+):calls=(\d+)/gm)) {
    counts[match[1]!] = Number(match[2])
  }
  return counts
}

/**
 * Calls made between two readings, by command; commands that did not run, and those in
 * `ignore` (the readings' own `info`, say), left out.
 */
export function commandDelta(
  before: CommandCounts,
  after: CommandCounts,
  ignore: readonly string[] = ['info'],
): CommandCounts {
  const delta: CommandCounts = {}
  for (const [name, calls] of Object.entries(after)) {
    const ran = calls - (before[name] ?? 0)
    if (ran > 0 && !ignore.includes(name)) delta[name] = ran
  }
  return delta
}

/** A numeric field of an `INFO` section (`used_memory`, `used_cpu_user`). */
export function infoField(info: string, name: string): number {
  const match = new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)
  if (!match) throw new Error(`INFO has no ${name}`)
  return Number(match[1])
}

export async function commandStats(redis: Redis): Promise<CommandCounts> {
  return parseCommandStats(await redis.info('commandstats'))
}

/** CPU seconds redis-server has used so far (its main thread and the others, user + system). */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu')
  return infoField(info, 'used_cpu_user') + infoField(info, 'used_cpu_sys')
}

/** Bytes the allocator holds for data and overhead (`used_memory`). */
export async function usedMemory(redis: Redis): Promise<number> {
  return infoField(await redis.info('memory'), 'used_memory')
}
