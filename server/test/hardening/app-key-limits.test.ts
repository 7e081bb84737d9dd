import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import type { ProjectsConfig } from '../../src/config/projects-schema'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const projects = (rateLimits: object, top: object = {}): ProjectsConfig => ({
  ...top,
  projects: [{ ...TEST_PROJECT, rateLimits }],
})

const config = (remoteAddress: string, appKey = TEST_APP_KEY) =>
  app!.inject({ url: '/api/v1/connect/config', headers: { 'x-app-key': appKey }, remoteAddress })

describe('app-key quotas (finding 1: one anonymous client locked a whole project out)', () => {
  it('a client at its limit does not refuse anyone else of the project', async () => {
    app = await buildApp({ projects: projects({}) })
    // 600 from one address: the default window of one (app key, caller IP) pair.
    for (let i = 0; i < 600; i++) expect((await config('198.51.100.7')).statusCode).toBe(200)
    const refused = await config('198.51.100.7')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['ratelimit-policy']).toBe('"appkey";q=600;w=60')
    expect(refused.json().error.code).toBe('RATE_LIMITED')
    // Everyone else still gets in: on today's code (one window per app key) this is a 429.
    const other = await config('203.0.113.9')
    expect(other.statusCode).toBe(200)
    expect(other.headers.ratelimit).toMatch(/^"appkey";r=599;t=\d+$/)
    expect((await config('2001:db8:7::1')).statusCode).toBe(200)
  })

  it('IPv6 callers share one window per /64', async () => {
    app = await buildApp({ projects: projects({ appKey: { limit: 2, windowSeconds: 60 } }) })
    expect((await config('2001:db8:1:2::1')).statusCode).toBe(200)
    expect((await config('2001:db8:1:2:ffff::2')).statusCode).toBe(200)
    expect((await config('2001:db8:1:2::3')).statusCode).toBe(429)
    expect((await config('2001:db8:1:3::1')).statusCode).toBe(200)
  })

  it('the project-wide ceiling refuses with RateLimit-Policy "project"', async () => {
    app = await buildApp({
      projects: projects({
        appKey: { limit: 5, windowSeconds: 60 },
        project: { limit: 8, windowSeconds: 30 },
      }),
    })
    // Two callers fill the ceiling; past it each is held to its fair share, 8 / 2 = 4
    // (hardening/fair-project-ceiling.test.ts), so a fifth request from either is refused.
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await config('192.0.2.1')).statusCode)
    for (let i = 0; i < 4; i++) statuses.push((await config('192.0.2.2')).statusCode)
    statuses.push((await config('192.0.2.1')).statusCode)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429])
    const refused = await config('192.0.2.2')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['ratelimit-policy']).toBe('"project";q=8;w=30')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(refused.json().error.message).toMatch(/rate limit project exceeded/)
  })

  it("a client refused by its own window spends nothing of the project's ceiling", async () => {
    app = await buildApp({
      projects: projects({
        appKey: { limit: 3, windowSeconds: 60 },
        project: { limit: 5, windowSeconds: 60 },
      }),
    })
    for (let i = 0; i < 50; i++) await config('198.51.100.66')
    // 3 of 5 spent by the flood: the next caller's first request leaves 1 of the ceiling.
    const next = await config('198.51.100.1')
    expect(next.statusCode).toBe(200)
    expect(next.headers.ratelimit).toMatch(/^"project";r=1;t=\d+$/)
  })

  it('balances, session creation and the relay token share the caller window', async () => {
    app = await buildApp({ projects: projects({ appKey: { limit: 3, windowSeconds: 60 } }) })
    const from = '198.51.100.20'
    const headers = { 'x-app-key': TEST_APP_KEY }
    const answers = [
      await app.inject({ url: '/api/v1/connect/config', headers, remoteAddress: from }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/connect/sessions',
        headers,
        payload: { caip2Chain: 'eip155:1' },
        remoteAddress: from,
      }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/connect/relay/token',
        headers,
        remoteAddress: from,
      }),
      await app.inject({
        url: '/api/v1/connect/balances?chainId=eip155:1&tokenAddress=native&account=0x0',
        headers,
        remoteAddress: from,
      }),
    ]
    expect(answers.map((a) => a.statusCode)).toEqual([200, 201, 200, 429])
  })
})

describe('failed authentication is limited per caller IP', () => {
  it('after the limit, wrong app keys, unknown sessions and wrong tokens answer 429 "auth"', async () => {
    app = await buildApp({
      projects: projects({}, { rateLimits: { authFailureIp: { limit: 5, windowSeconds: 60 } } }),
    })
    const prober = '198.51.100.99'
    const probes = [
      () => config(prober, 'wrong-key-0001'),
      () =>
        app!.inject({
          url: `/api/v1/connect/sessions/${'A'.repeat(22)}/result`,
          headers: { authorization: `Bearer ${'z'.repeat(43)}` },
          remoteAddress: prober,
        }),
    ]
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await probes[i % 2]!()).statusCode)
    expect(statuses.slice(0, 5).every((s) => s === 401 || s === 404)).toBe(true)
    expect(statuses.slice(5)).toEqual([429, 429, 429])
    const refused = await probes[0]!()
    expect(refused.headers['ratelimit-policy']).toBe('"auth";q=5;w=60')
    expect(refused.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/rate limit auth exceeded/) },
    })
    // The prober's good requests still pass, and other addresses are untouched.
    expect((await config(prober)).statusCode).toBe(200)
    expect((await config('198.51.100.100', 'wrong-key-0001')).statusCode).toBe(401)
  })
})
