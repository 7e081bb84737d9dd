import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  commandDelta,
  commandStats,
  infoField,
  parseCommandStats,
  usedMemory,
} from '../../bench/redis-stats'
import { type RunningRedis, startRedis } from '../support/redis'

describe('bench/redis-stats: INFO readings', () => {
  it('parses commandstats lines, subcommands included', () => {
    const info = [
      '# Commandstats',
      'cmdstat_get:calls=12,usec=30,usec_per_call=2.50,rejected_calls=0,failed_calls=0',
      'cmdstat_client|setname:calls=2,usec=4,usec_per_call=2.00,rejected_calls=0,failed_calls=0',
      'cmdstat_evalsha:calls=7,usec=300,usec_per_call=42.86,rejected_calls=0,failed_calls=1',
      '',
    ].join('\r\n')
    expect(parseCommandStats(info)).toEqual({ get: 12, 'client|setname': 2, evalsha: 7 })
  })

  it('the delta leaves out commands that did not run and the ignored ones', () => {
    expect(
      commandDelta({ get: 3, info: 1, set: 5 }, { get: 5, info: 4, set: 5, publish: 2 }),
    ).toEqual({ get: 2, publish: 2 })
    expect(commandDelta({}, { info: 2, ping: 1 }, ['ping'])).toEqual({ info: 2 })
  })

  it('a missing INFO field is an error, not NaN', () => {
    expect(infoField('used_memory:1024\r\nused_memory_human:1K', 'used_memory')).toBe(1024)
    expect(() => infoField('used_memory:1024', 'used_cpu_user')).toThrow(/used_cpu_user/)
  })

  describe('against a real redis-server', () => {
    let server: RunningRedis
    let redis: Redis

    beforeAll(async () => {
      server = await startRedis()
      redis = new Redis(server.url)
    })

    afterAll(async () => {
      redis?.disconnect()
      await server?.stop()
    })

    it('counts a script and the commands it ran, and the memory a value takes', async () => {
      const before = await commandStats(redis)
      const memoryBefore = await usedMemory(redis)
      await redis.eval(
        "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])",
        1,
        'k',
        'x'.repeat(100_000),
      )
      await redis.get('k')
      const delta = commandDelta(before, await commandStats(redis))
      expect(delta).toEqual({ eval: 1, set: 1, get: 2 })
      expect((await usedMemory(redis)) - memoryBefore).toBeGreaterThanOrEqual(100_000)
    })
  })
})
