import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigResponseSchema } from 'scope-connect/wire'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../src/cli-args'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  // The package's bin: node itself (no npx in between), so SIGTERM reaches the server process.
  const child = spawn(process.execPath, ['server/bin/scope-connect-server.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, out: () => stdout, err: () => stderr }
}

function listeningUrl(proc: ReturnType<typeof run>): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(proc.out())
      if (match?.[1]) resolve(match[1])
    }
    proc.child.stdout?.on('data', check)
    proc.exited.then((code) => reject(new Error(`exited ${code}: ${proc.err()}`)))
  })
}

const stop = (child: ChildProcess) => child.kill('SIGTERM')

describe('scope-connect-server CLI', () => {
  it('starts on the sample project, serves healthz and config, warns of the generated relay key, exits 0 on SIGTERM', async () => {
    const proc = run(['--port', '0', '--log-level', 'warn'])
    try {
      const url = await listeningUrl(proc)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      const config = await fetch(`${url}/api/v1/connect/config`, {
        headers: { 'x-app-key': 'sample-app-key' },
      })
      expect(config.status).toBe(200)
      const body = ConfigResponseSchema.parse(await config.json())
      expect(body.networks.map((n) => n.networkId)).toContain('eip155:31337')
      // No --relay-key: the relay works on a generated key, and says so.
      expect(proc.out()).toContain('no relay signing key')
    } finally {
      stop(proc.child)
    }
    expect(await proc.exited).toBe(0)
  })

  it('refuses to start on an invalid projects file, naming the field (env PROJECTS_FILE)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-'))
    const file = join(dir, 'projects.json')
    await writeFile(
      file,
      JSON.stringify({
        projects: [
          {
            projectId: 'p',
            name: 'P',
            appKeys: ['key-key-key'],
            networks: [{ chainId: 'eip155:1' }, { chainId: 'eip155:424242' }],
            wallets: [],
          },
        ],
      }),
    )
    const proc = run(['--port', '0'], { PROJECTS_FILE: file })
    expect(await proc.exited).toBe(1)
    expect(proc.err()).toContain(
      'projects[0].networks[1].name: required for eip155:424242, which is not a built-in chain',
    )
  })

  it('parses flags over env over defaults', () => {
    expect(parseCli([], {})).toMatchObject({ port: 8787, host: '127.0.0.1', trustProxy: [] })
    const settings = parseCli(['--port', '9000'], {
      PORT: '1',
      HOST: '0.0.0.0',
      TRUST_PROXY: '10.0.0.0/8, ::1',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
    })
    expect(settings).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      trustProxy: ['10.0.0.0/8', '::1'],
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'debug',
    })
    expect(() => parseCli(['--port', 'x'], {})).toThrow('--port')
    expect(() => parseCli(['--bogus'], {})).toThrow()
  })

  it('parses the Redis Cluster nodes (flag over REDIS_CLUSTER_NODES), exclusive with --redis-url', () => {
    expect(parseCli([], {})).not.toHaveProperty('redisCluster')
    expect(
      parseCli(['--redis-cluster', '10.0.0.1:7000, 10.0.0.2:7001'], {
        REDIS_CLUSTER_NODES: 'ignored:1',
      }),
    ).toMatchObject({ redisCluster: ['10.0.0.1:7000', '10.0.0.2:7001'] })
    expect(parseCli([], { REDIS_CLUSTER_NODES: 'redis-0:6379' })).toMatchObject({
      redisCluster: ['redis-0:6379'],
    })
    expect(() => parseCli(['--redis-cluster', 'redis://a:1'], {})).toThrow('--redis-cluster')
    expect(() => parseCli(['--redis-cluster', ','], {})).toThrow('--redis-cluster')
    expect(() =>
      parseCli(['--redis-cluster', 'a:1'], { REDIS_URL: 'redis://127.0.0.1:6379' }),
    ).toThrow('give one, not both')
  })

  it('parses the relay settings', () => {
    expect(
      parseCli(['--relay-key', 'k1', '--relay-max-sockets-per-ip', '50'], {
        RELAY_SIGNING_KEY: 'k2',
        PUBLIC_URL: 'https://api.example',
      }),
    ).toMatchObject({ relayKey: 'k1', publicUrl: 'https://api.example', relayMaxSocketsPerIp: 50 })
    expect(parseCli([], {})).not.toHaveProperty('relayKey')
    expect(() => parseCli(['--relay-max-sockets-per-ip', '0'], {})).toThrow('positive integer')
  })

  it('parses the metrics settings: off by default, a port of its own and/or a token', () => {
    expect(parseCli([], {})).not.toHaveProperty('metrics')
    expect(
      parseCli(['--metrics-port', '9464'], {
        METRICS_HOST: '10.0.0.5',
        METRICS_TOKEN: 'a-long-enough-token',
      }),
    ).toMatchObject({ metrics: { port: 9464, host: '10.0.0.5', token: 'a-long-enough-token' } })
    expect(parseCli([], { METRICS_PORT: '0' })).toMatchObject({ metrics: { port: 0 } })
    expect(() => parseCli(['--metrics-port', 'x'], {})).toThrow('--metrics-port')
    expect(() => parseCli(['--metrics-token', 'short'], {})).toThrow('--metrics-token')
    expect(() => parseCli(['--metrics-host', '0.0.0.0'], {})).toThrow('--metrics-host')
  })

  it('parses the relay quotas and the send-buffer ceiling', () => {
    expect(parseCli([], {})).toMatchObject({ relayLimits: {} })
    expect(
      parseCli(['--relay-app-quota-bytes', '1048576', '--relay-send-buffer-bytes', '65536'], {
        RELAY_APP_QUOTA_MESSAGES: '100',
        RELAY_SOURCE_QUOTA_MESSAGES: '10',
        RELAY_MAILBOX_QUOTA_BYTES: '8388608',
      }),
    ).toMatchObject({
      relayLimits: {
        appQuotaBytes: 1_048_576,
        appQuotaMessages: 100,
        sourceQuotaMessages: 10,
        mailboxQuotaBytes: 8_388_608,
        sendBufferBytes: 65_536,
      },
    })
    expect(() => parseCli(['--relay-app-quota-messages', '0'], {})).toThrow('positive integer')
  })

  it('parses the HTTP timeouts and the per-IP connection cap', () => {
    expect(parseCli([], {})).toMatchObject({ http: {} })
    expect(
      parseCli(['--request-timeout', '15000', '--max-connections-per-ip', '64'], {
        HEADERS_TIMEOUT_MS: '5000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        REQUEST_TIMEOUT_MS: '1',
      }),
    ).toMatchObject({
      http: {
        requestTimeoutMs: 15_000,
        headersTimeoutMs: 5_000,
        keepAliveTimeoutMs: 65_000,
        maxConnectionsPerIp: 64,
      },
    })
    expect(() => parseCli(['--request-timeout', '0'], {})).toThrow('--request-timeout')
    expect(() => parseCli(['--max-connections-per-ip', 'many'], {})).toThrow('positive integer')
  })

  it('refuses to start on a relay key that is not a 32-byte base64url seed', async () => {
    const proc = run(['--port', '0', '--relay-key', 'too-short'])
    expect(await proc.exited).toBe(1)
    expect(proc.err()).toContain('relay signing key 1')
    expect(proc.err()).not.toContain('too-short')
  })
})
