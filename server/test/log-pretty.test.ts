import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { formatLogLine, logFormatFor } from '../src/log-pretty'
import { call } from './support/http'
import { startTestServer, TEST_PROJECT } from './support/server'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** The server CLI with stdout piped (not a terminal), its output until it listens and got a request. */
async function cliOutput(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(
    process.execPath,
    ['server/bin/scope-connect-server.js', '--port', '0', '--relay-key', 'A'.repeat(43)],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_FORMAT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)/.exec(out)
        if (match?.[1]) resolve(match[1])
      })
      child.on('exit', (code) => reject(new Error(`exited ${code}`)))
    })
    await fetch(`${url}/healthz`)
    await new Promise((r) => setTimeout(r, 200))
    return out
  } finally {
    child.kill('SIGTERM')
  }
}

describe('server logs: readable on a terminal, JSON when piped', () => {
  it('formatLogLine: time, level, request, status, duration and message on one line', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 1, 12, 0, 1, 234),
      pid: 1,
      hostname: 'h',
      reqId: 'req-1',
      res: { statusCode: 200 },
      req: { method: 'GET', url: '/api/v1/connect/config' },
      responseTime: 3.14,
      msg: 'request completed',
    })
    expect(formatLogLine(line, { color: false })).toBe(
      '12:00:01.234 INFO  [req-1] GET /api/v1/connect/config → 200 (3.1 ms) request completed\n',
    )
  })

  it('formatLogLine: other fields as key=value; an unexpected error keeps its stack; colours on request', () => {
    const warn = formatLogLine(
      JSON.stringify({ level: 40, time: 0, msg: 'limiter floor', policy: 'appkey', outages: 2 }),
      { color: false },
    )
    expect(warn).toBe('00:00:00.000 WARN  limiter floor policy=appkey outages=2\n')
    const error = formatLogLine(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'unhandled error',
        err: {
          type: 'TypeError',
          message: 'x is undefined',
          stack: 'TypeError: x\n    at f (a.ts:1:1)',
        },
      }),
      { color: false },
    )
    expect(error).toBe(
      '00:00:00.000 ERROR unhandled error err="x is undefined"\n    at f (a.ts:1:1)\n',
    )
    expect(
      formatLogLine(JSON.stringify({ level: 30, time: 0, msg: 'hi' }), { color: true }),
    ).toContain('\u001b[32mINFO \u001b[0m')
    // Not JSON (a line some dependency printed): passed through.
    expect(formatLogLine('plain words', { color: false })).toBe('plain words\n')
  })

  it('formatLogLine: a string error (a Redis outage line’s only clue) is printed (issue 28, item 5)', () => {
    // On the old code the `err` field was dropped: "… reconnecting" with no reason at all.
    const line = formatLogLine(
      JSON.stringify({
        level: 40,
        time: 0,
        msg: 'session store: redis unavailable',
        err: 'connect ECONNREFUSED 127.0.0.1:7001',
      }),
      { color: false },
    )
    expect(line).toBe(
      '00:00:00.000 WARN  session store: redis unavailable err="connect ECONNREFUSED 127.0.0.1:7001"\n',
    )
    expect(
      formatLogLine(JSON.stringify({ level: 40, time: 0, msg: 'x', err: 'closed' }), {
        color: false,
      }),
    ).toBe('00:00:00.000 WARN  x err=closed\n')
  })

  it('logFormatFor: pretty on a terminal, JSON when piped, LOG_FORMAT decides when set', () => {
    expect(logFormatFor({}, true)).toBe('pretty')
    expect(logFormatFor({}, false)).toBe('json')
    expect(logFormatFor({ LOG_FORMAT: 'json' }, true)).toBe('json')
    expect(logFormatFor({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty')
  })

  it('an expected 502 (the chain RPC down) logs its code and message, no stack trace', async () => {
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const dead = `http://127.0.0.1:${await freePort()}`
    const server = await startTestServer({
      logger: { level: 'info', destination },
      projects: {
        projects: [{ ...TEST_PROJECT, networks: [{ chainId: 'eip155:31337', rpcUrl: dead }] }],
      },
    })
    try {
      const answer = await call(
        server.baseUrl,
        '/balances?chainId=eip155:31337&tokenAddress=native&account=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        { method: 'GET', headers: { 'x-app-key': 'test-app-key' } },
      )
      expect(answer.status).toBe(502)
      const warning = lines
        .map((l) => JSON.parse(l))
        .find((entry) => entry.code === 'UPSTREAM_ERROR')
      expect(warning).toMatchObject({ level: 40, code: 'UPSTREAM_ERROR' })
      expect(warning.msg).toContain('the chain RPC failed')
      expect(lines.join('')).not.toMatch(/\n\s+at |"stack"/)
    } finally {
      await server.close()
    }
  })

  it('the CLI piped: JSON lines; LOG_FORMAT=pretty: readable lines', async () => {
    const json = await cliOutput({})
    const jsonLines = json.split('\n').filter((l) => l.startsWith('{'))
    expect(jsonLines.length).toBeGreaterThan(0)
    expect(JSON.parse(jsonLines[0] ?? '')).toHaveProperty('level')

    const pretty = await cliOutput({ LOG_FORMAT: 'pretty' })
    expect(pretty).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[req-1\] GET \/healthz incoming request$/m,
    )
    // The completion names its request too.
    expect(pretty).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[req-1\] GET \/healthz → 200 \(/m)
    expect(pretty).not.toContain('{"level"')
  }, 30_000)
})
