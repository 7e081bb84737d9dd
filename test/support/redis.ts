import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, stopChild } from '../../server/src/child-process'

export { freePort }

export interface RunningRedis {
  url: string
  port: number
  stop(): Promise<void>
  /** SIGKILL, as a crash: no shutdown, no goodbye to clients or to a cluster. */
  crash(): Promise<void>
}

export interface StartRedisOptions {
  /** Reuse a port (to restart a stopped server where clients expect it); a free one otherwise. */
  port?: number
  /** More redis-server arguments (cluster mode: `test/support/redis-cluster.ts`). */
  args?: string[]
}

const READY_TIMEOUT_MS = 10_000
const BIN = process.env.REDIS_SERVER_BIN ?? 'redis-server'

/**
 * Starts a throw-away redis-server on 127.0.0.1 without persistence and resolves once it answers
 * PING. Tests and benchmarks use a real server: no mocks.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RunningRedis> {
  // A free port can be taken between probing and binding; try a few times.
  let lastError: unknown
  for (let attempt = 0; attempt < (options.port ? 1 : 3); attempt++) {
    const port = options.port ?? (await freePort())
    try {
      return await launch(port, options.args ?? [])
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

async function launch(port: number, args: string[]): Promise<RunningRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'scope-redis-'))
  const child = spawn(
    BIN,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  })
  let spawnError: Error | undefined
  child.on('error', (err) => {
    spawnError = new Error(`cannot run ${BIN} (apt-get install redis-server): ${err.message}`)
  })

  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline && !spawnError && child.exitCode === null && !child.signalCode) {
    try {
      await probe(port, child.pid)
      return running(child, dir, port)
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  await stopChild(child)
  await rm(dir, { recursive: true, force: true })
  throw spawnError ?? new Error(`redis-server on port ${port} did not start:\n${output}`)
}

function running(child: ChildProcess, dir: string, port: number): RunningRedis {
  // A test process that dies without stop() must not leave servers behind.
  const onExit = () => child.kill('SIGKILL')
  process.once('exit', onExit)
  let stopped: Promise<void> | undefined
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop() {
      process.off('exit', onExit)
      stopped ??= stopChild(child).then(() => rm(dir, { recursive: true, force: true }))
      return stopped
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * Resolves once the server on `port` answers and is our child: another test's redis-server may
 * have taken the port between probing and binding, and must not be mistaken for ours.
 */
function probe(port: number, pid: number | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    let reply = ''
    socket.setTimeout(500, () => socket.destroy(new Error('INFO timed out')))
    socket.on('connect', () => socket.write('INFO server\r\n'))
    socket.on('data', (chunk) => {
      reply += chunk.toString()
      const found = /process_id:(\d+)\r\n/.exec(reply)
      if (reply.startsWith('-')) socket.destroy(new Error(reply.trim()))
      else if (found) {
        socket.end()
        if (Number(found[1]) === pid) resolve()
        else reject(new Error(`port ${port} is served by another redis-server (pid ${found[1]})`))
      }
    })
    socket.on('error', reject)
  })
}
