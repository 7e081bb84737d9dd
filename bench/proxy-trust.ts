/**
 * Proxy trust (issue 28, item 4), the audit's two findings re-run against the real server over
 * loopback HTTP (this process is the proxy: 127.0.0.1):
 *   - "700 of 700 passed a limit of 600": 700 `GET /config` with a random X-Forwarded-For each, one
 *     (app key, caller) window of 600. With `--trust-proxy 0.0.0.0/0` the start-up is refused now;
 *     the figure with the operator's explicit `--trust-proxy-any` and with the proxy listed is shown.
 *   - "a proxy that sends only Forwarded merges every client": 20 clients behind one proxy, 40
 *     requests each against a window of 30. Before (Forwarded ignored, as on main): the proxy's own
 *     window for all (the same requests without the header); now: each client its own.
 * And the cost of reading the hops: `resolveClientIp` per call, X-Forwarded-For vs Forwarded.
 *
 *   npx tsx bench/proxy-trust.ts
 *
 * Writes the "## Proxy trust" section of docs/benchmarks.md (others are left alone).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/src/app'
import type { ProjectsConfig } from '../server/src/config/projects-schema'
import { resolveClientIp } from '../server/src/rate-limit/client-ip'
import { startTestServer, TEST_PROJECT, type TestServer } from '../server/test/support/server'

const projects = (limit: number): ProjectsConfig => ({
  projects: [{ ...TEST_PROJECT, rateLimits: { appKey: { limit, windowSeconds: 60 } } }],
})

const randomIp = () =>
  `${1 + Math.floor(Math.random() * 222)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`

async function passed(server: TestServer, headers: Array<Record<string, string>>): Promise<number> {
  let ok = 0
  for (let i = 0; i < headers.length; i += 20) {
    const answers = await Promise.all(
      headers.slice(i, i + 20).map((extra) =>
        fetch(`${server.baseUrl}/api/v1/connect/config`, {
          headers: { 'x-app-key': server.appKey, ...extra },
        }).then(async (answer) => {
          await answer.arrayBuffer()
          return answer.status
        }),
      ),
    )
    ok += answers.filter((status) => status === 200).length
  }
  return ok
}

async function attack(): Promise<string[]> {
  const rows: string[] = []
  let refusal = 'started (accepted silently)'
  try {
    const app = await buildApp({ projects: projects(600), trustProxy: ['0.0.0.0/0'] })
    await app.close()
  } catch (error) {
    refusal = `refused: ${(error as Error).message.slice(0, 60)}…`
  }
  rows.push(`| \`trustProxy: ['0.0.0.0/0']\` | start-up ${refusal} | — |`)
  const forged = Array.from({ length: 700 }, () => ({ 'x-forwarded-for': randomIp() }))
  const cases: Array<[string, { trustProxy: string[]; trustProxyAny?: boolean }]> = [
    ["`['0.0.0.0/0']` + `trustProxyAny`", { trustProxy: ['0.0.0.0/0'], trustProxyAny: true }],
    ["`['10.0.0.0/8']` (the client is not a proxy)", { trustProxy: ['10.0.0.0/8'] }],
  ]
  for (const [label, options] of cases) {
    const server = await startTestServer({ projects: projects(600), ...options })
    const ok = await passed(server, forged)
    await server.close()
    rows.push(`| ${label} | ${ok} of 700 passed | limit 600 |`)
  }
  return rows
}

async function forwardedOnly(): Promise<string[]> {
  const clients = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`)
  const requests = clients.flatMap((ip) =>
    Array.from({ length: 40 }, () => ({ forwarded: `for=${ip};proto=https` })),
  )
  const rows: string[] = []
  for (const [label, headers] of [
    ['before (Forwarded not read: one caller)', requests.map(() => ({}))],
    ['now (Forwarded read)', requests],
  ] as const) {
    const server = await startTestServer({ projects: projects(30), trustProxy: ['127.0.0.1'] })
    const ok = await passed(server, [...headers])
    await server.close()
    rows.push(
      `| ${label} | ${ok} of ${requests.length} passed | ${clients.length} × 30 = ${clients.length * 30} expected |`,
    )
  }
  return rows
}

function resolveCost(): string[] {
  const proxies = ['10.0.0.0/8']
  const xff = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.5' }
  const forwarded = {
    forwarded: 'for=6.6.6.6, for="203.0.113.7:4711";proto=https, for=10.0.0.5;by=10.0.0.1',
  }
  const both = { ...xff, ...forwarded }
  const rows: string[] = []
  for (const [label, headers] of [
    ['X-Forwarded-For, 3 hops', xff],
    ['Forwarded, 3 elements', forwarded],
    ['both, agreeing', both],
  ] as const) {
    const n = 200_000
    for (let i = 0; i < 20_000; i++) resolveClientIp('10.0.0.2', headers, proxies)
    const start = process.hrtime.bigint()
    for (let i = 0; i < n; i++) resolveClientIp('10.0.0.2', headers, proxies)
    const ns = Number(process.hrtime.bigint() - start) / n
    rows.push(`| ${label} | ${(ns / 1000).toFixed(2)} µs |`)
  }
  return rows
}

const attackRows = await attack()
const forwardedRows = await forwardedOnly()
const costRows = resolveCost()
const section = `## Proxy trust

Generated by \`npx tsx bench/proxy-trust.ts\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version},
${cpus().length} × ${cpus()[0]?.model.trim()}, load average ${loadavg()[0]!.toFixed(1)} at the end. The real
server over loopback HTTP; this process is the proxy (127.0.0.1). Before: the audit's figures
(issue 28: "700 of 700 requests passed against a limit of 600" with \`--trust-proxy 0.0.0.0/0\`
accepted silently; "a proxy that sends only Forwarded: merges every client into one caller").

700 \`GET /config\`, each with a random X-Forwarded-For, one (app key, caller) window of 600:

| trustProxy | answer | |
|---|---|---|
${attackRows.join('\n')}

20 clients behind one proxy that sends only \`Forwarded: for=<client>\`, 40 requests each, a window
of 30 per caller:

| | passed | |
|---|---|---|
${forwardedRows.join('\n')}

\`resolveClientIp\` per call (the peer a trusted proxy, the caller the middle hop):

| headers | per call |
|---|---|
${costRows.join('\n')}
`
const path = join(dirname(fileURLToPath(import.meta.url)), '../docs/benchmarks.md')
const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n'
const pattern = /## Proxy trust\n[\s\S]*?(?=\n## |$)/
const updated = pattern.test(current)
  ? current.replace(pattern, `${section.trimEnd()}\n`)
  : `${current.trimEnd()}\n\n${section}`
writeFileSync(path, updated.endsWith('\n') ? updated : `${updated}\n`)
console.log(section)
