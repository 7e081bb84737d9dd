import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import {
  createRateLimiter,
  DEFAULT_RATE_LIMITS,
  type RateLimitPolicy,
  resolveRateLimits,
  sendRateLimited,
} from '../../src/rate-limit'
import { createMemoryStore } from '../../src/store/memory'
import { type CounterStore, StoreUnavailableError } from '../../src/store/types'

const quiet = { warn: () => {} }

function setup(start = 0) {
  let clock = start
  const store = createMemoryStore({ now: () => clock, sweepIntervalMs: 0 })
  const limiter = createRateLimiter({ store, log: quiet })
  return {
    limiter,
    advance: (ms: number) => {
      clock += ms
    },
  }
}

const appkey: RateLimitPolicy = { name: 'appkey', limit: 3, windowSeconds: 60 }

describe('rate limiter', () => {
  it('announces policy and remaining quota in draft-10 structured fields', async () => {
    const { limiter, advance } = setup()
    const first = await limiter.check('app_1', appkey)
    expect(first).toEqual({
      allowed: true,
      policy: appkey,
      remaining: 2,
      headers: { 'RateLimit-Policy': '"appkey";q=3;w=60', RateLimit: '"appkey";r=2;t=60' },
    })
    advance(12_500)
    expect((await limiter.check('app_1', appkey)).headers.RateLimit).toBe('"appkey";r=1;t=48')
    expect((await limiter.check('app_1', appkey)).headers.RateLimit).toBe('"appkey";r=0;t=48')
  })

  it('refuses past the limit with Retry-After until the window resets', async () => {
    const { limiter, advance } = setup()
    for (let i = 0; i < 3; i++) expect((await limiter.check('app_1', appkey)).allowed).toBe(true)
    advance(47_200)
    const refused = await limiter.check('app_1', appkey)
    expect(refused).toEqual({
      allowed: false,
      policy: appkey,
      remaining: 0,
      retryAfterSeconds: 13,
      headers: {
        'RateLimit-Policy': '"appkey";q=3;w=60',
        RateLimit: '"appkey";r=0;t=13',
        'Retry-After': '13',
      },
    })
  })

  it('keeps Retry-After at least 1 and at most the window', async () => {
    const { limiter, advance } = setup()
    const tight = { name: 'tight', limit: 1, windowSeconds: 10 }
    await limiter.check('k', tight)
    const early = await limiter.check('k', tight)
    expect(early.headers['Retry-After']).toBe('10')
    advance(9_999)
    const late = await limiter.check('k', tight)
    expect(late.headers['Retry-After']).toBe('1')
    expect(late.retryAfterSeconds).toBe(1)
    advance(1)
    expect(await limiter.check('k', tight)).toMatchObject({ allowed: true })
  })

  it('counts remaining quota down and starts over in the next window', async () => {
    const { limiter, advance } = setup()
    const policy = { name: 'session', limit: 5, windowSeconds: 60 }
    const remaining = []
    for (let i = 0; i < 7; i++) {
      const decision = await limiter.check('sess_1', policy)
      remaining.push(decision.headers.RateLimit?.match(/r=(\d+)/)?.[1])
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0', '0', '0'])
    advance(60_000)
    expect(await limiter.check('sess_1', policy)).toMatchObject({
      allowed: true,
      headers: { RateLimit: '"session";r=4;t=60' },
    })
  })

  it('keeps keys and policies apart', async () => {
    const { limiter } = setup()
    const other = { name: 'session', limit: 3, windowSeconds: 60 }
    for (let i = 0; i < 4; i++) await limiter.check('shared', appkey)
    expect((await limiter.check('shared', appkey)).allowed).toBe(false)
    // Same key string under another policy, and another key under the same policy: fresh quota.
    expect((await limiter.check('shared', other)).headers.RateLimit).toBe('"session";r=2;t=60')
    expect((await limiter.check('other', appkey)).headers.RateLimit).toBe('"appkey";r=2;t=60')
  })

  it('never fails open: an unreachable store falls back to the same windows in this process', async () => {
    const warnings: object[] = []
    let hooked = 0
    const down: CounterStore = {
      hitWindow: () => Promise.reject(new StoreUnavailableError('redis: connection refused')),
    }
    const limiter = createRateLimiter({
      store: down,
      log: { warn: (obj) => warnings.push(obj) },
      onFloor: () => hooked++,
    })
    const decisions = []
    for (let i = 0; i < 5; i++) decisions.push(await limiter.check('app_1', appkey))
    expect(decisions.map((d) => [d.allowed, d.floor])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [false, true],
      [false, true],
    ])
    expect(decisions[3]?.headers['RateLimit-Policy']).toBe('"appkey";q=3;w=60')
    expect(decisions[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(limiter.stats()).toEqual({ mode: 'floor', outages: 1, floorDecisions: 5 })
    expect(hooked).toBe(5)
    // Logged once per outage, not once per request.
    expect(warnings).toEqual([{ err: 'redis: connection refused', policy: 'appkey', outages: 1 }])
  })

  it('goes back to the shared store when it answers, and counts a new outage once', async () => {
    let up = false
    const shared = createMemoryStore({ sweepIntervalMs: 0 })
    const flaky: CounterStore = {
      hitWindow: (key, windowMs) =>
        up
          ? shared.hitWindow(key, windowMs)
          : Promise.reject(new StoreUnavailableError('redis: down')),
    }
    const infos: string[] = []
    const warnings: string[] = []
    const limiter = createRateLimiter({
      store: flaky,
      log: { warn: (_o, msg) => warnings.push(msg), info: (_o, msg) => infos.push(msg) },
    })
    expect((await limiter.check('k', appkey)).floor).toBe(true)
    up = true
    const back = await limiter.check('k', appkey)
    expect(back.floor).toBeUndefined()
    expect(back.headers.RateLimit).toBe('"appkey";r=2;t=60')
    expect(limiter.stats().mode).toBe('shared')
    up = false
    await limiter.check('k', appkey)
    await limiter.check('k', appkey)
    expect(limiter.stats()).toEqual({ mode: 'floor', outages: 2, floorDecisions: 3 })
    expect(warnings).toHaveLength(2)
    expect(infos).toEqual(['rate limiter back on the shared counter store'])
  })

  it('while on the floor, probes a hung store with one request at a time', async () => {
    let calls = 0
    let release: (() => void) | undefined
    const hung: CounterStore = {
      hitWindow: () => {
        calls++
        if (calls === 1) return Promise.reject(new StoreUnavailableError('redis: timeout'))
        return new Promise((_resolve, reject) => {
          release = () => reject(new StoreUnavailableError('redis: timeout'))
        })
      },
    }
    const limiter = createRateLimiter({ store: hung, log: quiet })
    await limiter.check('k', appkey) // the outage starts
    const probe = limiter.check('k', appkey) // probes and hangs
    const others = await Promise.all([limiter.check('k', appkey), limiter.check('j', appkey)])
    expect(others.map((d) => d.floor)).toEqual([true, true])
    expect(calls).toBe(2)
    release?.()
    expect((await probe).floor).toBe(true)
  })

  it('checkAll stops at the first refusal, so later windows are not spent', async () => {
    const { limiter } = setup()
    const own = { name: 'appkey', limit: 2, windowSeconds: 60 }
    const ceiling = { name: 'project', limit: 3, windowSeconds: 60 }
    const a = () =>
      limiter.checkAll([
        { key: 'k|1.1.1.1', policy: own },
        { key: 'p', policy: ceiling },
      ])
    const b = () =>
      limiter.checkAll([
        { key: 'k|2.2.2.2', policy: own },
        { key: 'p', policy: ceiling },
      ])
    expect((await a()).headers.RateLimit).toBe('"appkey";r=1;t=60')
    expect((await a()).headers.RateLimit).toBe('"appkey";r=0;t=60')
    for (let i = 0; i < 5; i++) expect((await a()).policy.name).toBe('appkey')
    // 1.1.1.1's refusals spent nothing of the ceiling: 2 of 3 used.
    const first = await b()
    expect([first.allowed, first.headers.RateLimit]).toEqual([true, '"project";r=0;t=60'])
    const refused = await b()
    expect([refused.allowed, refused.headers['RateLimit-Policy']]).toEqual([
      false,
      '"project";q=3;w=60',
    ])
  })

  it('does not swallow errors other than an unreachable store', async () => {
    const broken: CounterStore = { hitWindow: () => Promise.reject(new TypeError('bug')) }
    const limiter = createRateLimiter({ store: broken, log: quiet })
    await expect(limiter.check('k', appkey)).rejects.toThrow('bug')
    expect(limiter.stats()).toEqual({ mode: 'shared', outages: 0, floorDecisions: 0 })
  })

  it('rejects policies it cannot express in a header', async () => {
    const { limiter } = setup()
    await expect(limiter.check('k', { ...appkey, name: 'has "quotes"' })).rejects.toThrow(TypeError)
    await expect(limiter.check('k', { ...appkey, windowSeconds: 0 })).rejects.toThrow(TypeError)
    await expect(limiter.check('k', { ...appkey, limit: 1.5 })).rejects.toThrow(TypeError)
  })
})

describe('policies', () => {
  it('defaults to SPEC section 4', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      appKey: { name: 'appkey', limit: 600, windowSeconds: 60 },
      project: { name: 'project', limit: 60_000, windowSeconds: 60 },
      session: { name: 'session', limit: 120, windowSeconds: 60 },
      callbackIp: { name: 'ip', limit: 60, windowSeconds: 60 },
      authFailureIp: { name: 'auth', limit: 60, windowSeconds: 60 },
    })
  })

  it('applies per-project overrides and keeps the names', () => {
    const policies = resolveRateLimits({ session: { limit: 10_000 }, appKey: { windowSeconds: 1 } })
    expect(policies.session).toEqual({ name: 'session', limit: 10_000, windowSeconds: 60 })
    expect(policies.appKey).toEqual({ name: 'appkey', limit: 600, windowSeconds: 1 })
    expect(policies.callbackIp).toEqual(DEFAULT_RATE_LIMITS.callbackIp)
    expect(() => resolveRateLimits({ appKey: { limit: -1 } })).toThrow(TypeError)
  })
})

describe('sendRateLimited', () => {
  it('answers 429 RATE_LIMITED with the decision headers through Fastify', async () => {
    const { limiter } = setup()
    const policy = { name: 'ip', limit: 1, windowSeconds: 60 }
    const app = Fastify()
    app.get('/limited', async (_request, reply) => {
      const decision = await limiter.check('203.0.113.7', policy)
      if (!decision.allowed) return sendRateLimited(reply, decision)
      reply.headers(decision.headers)
      return { ok: true }
    })
    try {
      const ok = await app.inject({ url: '/limited' })
      expect(ok.statusCode).toBe(200)
      expect(ok.headers.ratelimit).toBe('"ip";r=0;t=60')
      const limited = await app.inject({ url: '/limited' })
      expect(limited.statusCode).toBe(429)
      expect(limited.headers['retry-after']).toBe('60')
      expect(limited.headers['ratelimit-policy']).toBe('"ip";q=1;w=60')
      expect(limited.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Too many requests; retry after 60 seconds.' },
      })
    } finally {
      await app.close()
    }
  })
})
