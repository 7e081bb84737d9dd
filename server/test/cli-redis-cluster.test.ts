import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, type RunningRedis, startRedis } from '../../test/support/redis'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The server CLI: how it ended (exit code, or `listening` when it started serving) and stderr. */
async function start(
  args: string[],
): Promise<{ outcome: number | null | 'listening'; err: string }> {
  const child = spawn(process.execPath, ['server/bin/scope-connect-server.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk) => {
    err += chunk
  })
  const outcome = await new Promise<number | null | 'listening'>((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (/listening on http/.test(out)) resolve('listening')
    })
    child.on('exit', (code) => resolve(code))
  })
  if (outcome === 'listening') {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.on('exit', resolve))
  }
  return { outcome, err }
}

let redis: RunningRedis | undefined
afterAll(async () => {
  await redis?.stop()
})

/** Issue 28, item 5: a bad `--redis-cluster` address stops the start, naming it and why. */
describe('--redis-cluster start-up', () => {
  it('an address where nothing listens: exits 1, naming the address and the reason', async () => {
    const port = await freePort()
    const started = performance.now()
    const { outcome, err } = await start(['--port', '0', '--redis-cluster', `127.0.0.1:${port}`])
    // On the old code: it listened, answered 503 forever, and exited 0 when stopped.
    expect(outcome).toBe(1)
    expect(err).toContain(`127.0.0.1:${port}`)
    expect(err).toContain('ECONNREFUSED')
    expect(err).toMatch(/^scope-connect-server: --redis-cluster: no node answered within 3000 ms/)
    // The CLI's own start (tsx compiling it) takes seconds on a loaded machine; the check 3 s.
    expect(performance.now() - started).toBeLessThan(150_000)
  }, 180_000)

  it('a lone redis-server (no cluster support): exits 1 at once, saying to use --redis-url', async () => {
    redis = await startRedis()
    const address = `127.0.0.1:${redis.port}`
    const { outcome, err } = await start(['--port', '0', '--redis-cluster', address])
    expect(outcome).toBe(1)
    expect(err).toContain(`--redis-cluster ${address}: not a Redis Cluster node`)
    expect(err).toContain('cluster support disabled')
    expect(err).toContain('--redis-url')
    // The same server as --redis-url starts.
    expect((await start(['--port', '0', '--redis-url', redis.url])).outcome).toBe('listening')
  }, 180_000)
})
