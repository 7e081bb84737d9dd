import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { parseCli } from '../../src/cli-args'
import type { ProjectsConfig } from '../../src/config/projects-schema'
import {
  clientIpKey,
  coversEveryAddress,
  forwardedHops,
  resolveClientIp,
} from '../../src/rate-limit/client-ip'
import { call } from '../support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from '../support/server'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** The sample project with a small per-caller window: 3 config reads a minute per caller. */
const LIMITED: ProjectsConfig = {
  projects: [{ ...TEST_PROJECT, rateLimits: { appKey: { limit: 3, windowSeconds: 60 } } }],
}

const config = (headers: Record<string, string>) =>
  call(server!.baseUrl, '/config', { headers: { 'x-app-key': server!.appKey, ...headers } })

/** The bin under plain Node; resolves with its exit code and what it wrote. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['server/bin/scope-connect-server.js', '--port', '0', ...args],
    { cwd: ROOT, env: { ...process.env, LOG_FORMAT: 'json' }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  let err = ''
  let stopped = false
  child.stdout?.on('data', (chunk) => {
    out += chunk
    // Started: answer one request (the CLI installs its SIGTERM handler after printing the
    // line), then stop it, once. The refusal cases never get here.
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
    if (!stopped && url) {
      stopped = true
      void fetch(`${url}/healthz`)
        .then((answer) => answer.text())
        .finally(() => child.kill('SIGTERM'))
    }
  })
  child.stderr?.on('data', (chunk) => {
    err += chunk
  })
  return new Promise((resolve) =>
    child.on('exit', (code, signal) =>
      resolve({ code, out, err: signal ? `${err}\n[${signal}]` : err }),
    ),
  )
}

describe('--trust-proxy that covers every address (issue 28, item 4: 700 of 700 passed a limit of 600)', () => {
  it.each([
    ['0.0.0.0/0'],
    ['::/0'],
    ['::ffff:0:0/96'],
    ['0.0.0.0/1,128.0.0.0/1'],
    ['10.0.0.0/8,0.0.0.0/2,64.0.0.0/2,128.0.0.0/1'],
    ['::/1,8000::/1'],
  ])('%s is refused at start-up unless --trust-proxy-any', (list) => {
    expect(() => parseCli(['--trust-proxy', list], {})).toThrow(/trusts every address/)
    expect(() => parseCli([], { TRUST_PROXY: list })).toThrow(/--trust-proxy-any/)
    expect(parseCli(['--trust-proxy', list, '--trust-proxy-any'], {})).toMatchObject({
      trustProxyAny: true,
    })
    expect(parseCli([], { TRUST_PROXY: list, TRUST_PROXY_ANY: '1' })).toMatchObject({
      trustProxyAny: true,
    })
  })

  it.each([
    ['10.0.0.0/8'],
    ['0.0.0.0/1'],
    ['0.0.0.0/1,128.0.0.0/2,192.0.0.0/3,224.0.0.0/4'],
    ['::/1,10.0.0.0/8'],
    ['127.0.0.1,::1'],
  ])('%s (not every address) is accepted as before', (list) => {
    expect(coversEveryAddress(list.split(','))).toBe(false)
    expect(parseCli(['--trust-proxy', list], {})).toMatchObject({ trustProxyAny: false })
  })

  it('the bin exits 1 naming the flag and the way out; with --trust-proxy-any it starts', async () => {
    const refused = await runCli(['--trust-proxy', '0.0.0.0/0'])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('--trust-proxy: 0.0.0.0/0 trusts every address')
    expect(refused.err).toContain('--trust-proxy-any')
    expect(refused.out).not.toContain('listening on')
    const allowed = await runCli(['--trust-proxy', '0.0.0.0/0', '--trust-proxy-any'])
    expect(allowed.out).toContain('listening on')
    expect(allowed.code, allowed.out + allowed.err).toBe(0)
  }, 30_000)

  it('the programmatic option too: buildApp throws, unless trustProxyAny', async () => {
    await expect(buildApp({ projects: LIMITED, trustProxy: ['0.0.0.0/0'] })).rejects.toThrow(
      /trusts every address/,
    )
    await expect(buildApp({ projects: LIMITED, trustProxy: ['::/0'] })).rejects.toThrow(
      /trustProxyAny/,
    )
    server = await startTestServer({
      projects: LIMITED,
      trustProxy: ['0.0.0.0/0'],
      trustProxyAny: true,
    })
    expect((await config({ 'x-forwarded-for': '203.0.113.1' })).status).toBe(200)
  })
})

describe('RFC 7239 Forwarded: for= counts like X-Forwarded-For (issue 28, item 4)', () => {
  it('a proxy that sends only Forwarded: each client has its own window (was: all one caller)', async () => {
    // The test process is the proxy: 127.0.0.1 is trusted.
    server = await startTestServer({ projects: LIMITED, trustProxy: ['127.0.0.1'] })
    for (let i = 0; i < 3; i++) {
      expect((await config({ forwarded: 'for=198.51.100.7;proto=https' })).status).toBe(200)
    }
    expect((await config({ forwarded: 'for=198.51.100.7;proto=https' })).status).toBe(429)
    // Other clients of the same proxy, in other spellings, are not refused.
    const others = [
      'for="[2001:db8:cafe::17]:4711"',
      'For="203.0.113.43:8443";by=127.0.0.1',
      'for=192.0.2.60;proto=http;by=203.0.113.43',
    ]
    for (const forwarded of others) {
      const answer = await config({ forwarded })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('ratelimit')).toMatch(/^"appkey";r=2;/)
    }
    // The first client behind a second trusted hop (the element the client forged is ignored).
    const chained = await config({ forwarded: 'for=6.6.6.6, for=198.51.100.7, for=127.0.0.1' })
    expect(chained.status).toBe(429)
  })

  it('one client spelt two ways is one caller: Forwarded and X-Forwarded-For share the window', async () => {
    server = await startTestServer({ projects: LIMITED, trustProxy: ['127.0.0.1'] })
    expect((await config({ 'x-forwarded-for': '2001:db8:1:2::1' })).status).toBe(200)
    expect((await config({ forwarded: 'for="[2001:db8:1:2::9]"' })).status).toBe(200)
    expect(
      (await config({ forwarded: 'for="[2001:db8:1:2::5]"', 'x-forwarded-for': '2001:db8:1:2::5' }))
        .status,
    ).toBe(200)
    expect((await config({ forwarded: 'for="[2001:db8:1:2::3]:1"' })).status).toBe(429)
  })

  it('a client cannot mint callers by adding the header its proxy does not write', async () => {
    server = await startTestServer({ projects: LIMITED, trustProxy: ['127.0.0.1'] })
    // An X-Forwarded-For proxy: the real client is 198.51.100.7; Forwarded is the client's own.
    for (let i = 0; i < 3; i++) {
      const forged = { 'x-forwarded-for': '198.51.100.7', forwarded: `for=10.9.9.${i}` }
      expect((await config(forged)).status).toBe(200)
    }
    // They disagree every time: all counted on the proxy's own window, whatever the forgery.
    expect(
      (await config({ 'x-forwarded-for': '198.51.100.7', forwarded: 'for=10.9.9.77' })).status,
    ).toBe(429)
    // The honest client behind the same proxy keeps its own window.
    expect((await config({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(200)
  })

  it('Forwarded from a peer that is not trusted is ignored', async () => {
    server = await startTestServer({ projects: LIMITED, trustProxy: ['10.0.0.0/8'] })
    for (let i = 0; i < 3; i++)
      expect((await config({ forwarded: `for=1.2.3.${i}` })).status).toBe(200)
    expect((await config({ forwarded: 'for=1.2.3.99' })).status).toBe(429)
  })

  it('parses the shapes RFC 7239 allows', () => {
    expect(
      forwardedHops([
        'for=192.0.2.43, for="[2001:db8:cafe::17]", for=unknown',
        'for="_gazonk";proto=https, for="198.51.100.17:_port";by=x, proto=http',
        'for="[2001:db8::1]:_p", for=, for="unterminated, by=1.2.3.4',
      ]),
    ).toEqual([
      '192.0.2.43',
      '2001:db8:cafe::17',
      null,
      '_gazonk',
      '198.51.100.17',
      null,
      '2001:db8::1',
      null,
      null,
    ])
    expect(forwardedHops('for="a\\"b"; for=1.2.3.4')).toEqual([null])
    expect(forwardedHops('FOR = 192.0.2.1 ; Proto=https')).toEqual(['192.0.2.1'])
  })

  it('an obfuscated identifier from a trusted proxy is the caller; unknown stops at the proxy', () => {
    const proxies = ['10.0.0.0/8']
    expect(resolveClientIp('10.0.0.1', { forwarded: 'for=1.2.3.4, for=_hidden7' }, proxies)).toBe(
      '_hidden7',
    )
    expect(resolveClientIp('10.0.0.1', { forwarded: 'for=1.2.3.4, for=unknown' }, proxies)).toBe(
      '10.0.0.1',
    )
    expect(resolveClientIp('10.0.0.1', { forwarded: 'for=unknown, for=10.0.0.9' }, proxies)).toBe(
      '10.0.0.9',
    )
  })
})

const v4 = fc
  .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
  .map((octets) => octets.join('.'))
const v6 = fc
  .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
  .map((groups) => groups.map((g) => g.toString(16)).join(':'))
const trustedV4 = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `10.0.${a}.${b}`)
const hop = fc.oneof(v4, v6, trustedV4, trustedV4)

/** How one hop is written: the many ways RFC 7239 allows (v6 always quoted and bracketed). */
const spelling = fc.record({
  port: fc.option(fc.oneof(fc.nat(65535).map(String), fc.constant('_p0rt')), { nil: undefined }),
  quoted: fc.boolean(),
  name: fc.constantFrom('for', 'For', 'FOR'),
  before: fc.constantFrom('', 'proto=https;', 'by=10.0.0.1;', 'host="a.example";'),
  after: fc.constantFrom('', ';proto=http', ';by="[fd00::1]:80"'),
  newLine: fc.boolean(),
})
type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never

function forElement(address: string, { port, quoted, name, before, after }: Spelling): string {
  const v6Address = address.includes(':')
  let node = v6Address ? `[${address}]` : address
  if (port !== undefined) node += `:${port}`
  const needsQuotes = v6Address || port !== undefined || quoted
  return `${before}${name}=${needsQuotes ? `"${node}"` : node}${after}`
}

describe('property: Forwarded and X-Forwarded-For name the same caller for the same hops', () => {
  it('any hop list, any spelling, any split into header lines', () => {
    const proxies = ['10.0.0.0/16']
    fc.assert(
      fc.property(
        fc.array(fc.tuple(hop, spelling), { minLength: 1, maxLength: 6 }),
        trustedV4,
        (written, peer) => {
          const hops = written.map(([address]) => address)
          // Split the elements over header lines (Node joins repeated lines with ", ").
          const lines: string[] = []
          written.forEach(([address, how], i) => {
            const element = forElement(address, how)
            if (i === 0 || how.newLine) lines.push(element)
            else lines[lines.length - 1] += ` , ${element}`
          })
          const viaXff = resolveClientIp(peer, { 'x-forwarded-for': hops.join(', ') }, proxies)
          const viaForwarded = resolveClientIp(peer, { forwarded: lines }, proxies)
          const viaBoth = resolveClientIp(
            peer,
            { forwarded: lines.join(', '), 'x-forwarded-for': hops.join(',') },
            proxies,
          )
          expect(clientIpKey(viaForwarded)).toBe(clientIpKey(viaXff))
          expect(clientIpKey(viaBoth)).toBe(clientIpKey(viaXff))
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('a trusted hop that sends neither header (issue 28, item 4)', () => {
  it('is logged once, not per request', async () => {
    const lines: string[] = []
    const write = (line: string) => {
      lines.push(line)
    }
    server = await startTestServer({
      projects: LIMITED,
      trustProxy: ['127.0.0.1'],
      logger: { level: 'warn', destination: { write } },
    })
    for (let i = 0; i < 5; i++) await config({})
    await config({ 'x-forwarded-for': '198.51.100.1' })
    const warnings = lines.filter((line) => line.includes('sent neither X-Forwarded-For'))
    expect(warnings).toHaveLength(1)
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, peer: '127.0.0.1' })
  })

  it('is not logged when the peer is not a trusted proxy, or when it sends a header', async () => {
    const lines: string[] = []
    server = await startTestServer({
      projects: LIMITED,
      trustProxy: ['10.0.0.0/8'],
      logger: { level: 'warn', destination: { write: (line: string) => void lines.push(line) } },
    })
    await config({})
    expect(lines.filter((line) => line.includes('sent neither'))).toEqual([])
  })
})
