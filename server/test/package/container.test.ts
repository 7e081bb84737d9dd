import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, removeLater } from '../../../test/support/packed'
import { type RunningRedis, startRedis } from '../../../test/support/redis'
import { buildImage, type Stage, stages } from '../support/image'

// Docker does not run here. This test builds the layout server/Dockerfile's stages make
// (`../support/image.ts`: the install stage's RUN on the packed tarballs, shared with
// installed.test.ts, then the runtime stage's COPY --from lines) and starts it as the image would:
// its ENTRYPOINT and CMD, its ENV, as an unprivileged user, with Redis as compose.yaml wires it;
// then runs its HEALTHCHECK against it.

const compose = readFileSync(join(ROOT, 'server', 'compose.yaml'), 'utf8')
const runtime = stages.at(-1) as Stage
let root: string
/** The runtime image's WORKDIR (`/app`) on this machine. */
let image: string
let redis: RunningRedis

/** An image path (`/app/…`) on this machine. */
const local = (path: string) =>
  path.startsWith(`${runtime.workdir}/`) || path === runtime.workdir
    ? join(image, path.slice(runtime.workdir.length))
    : path

beforeAll(async () => {
  redis = await startRedis()
  root = mkdtempSync(join(tmpdir(), 'scope-connect-image-'))
  chmodSync(root, 0o755) // the image's user is not this one
  image = buildImage(root).image
}, 900_000)

afterAll(async () => {
  await redis?.stop()
  // The runtime stage (links to the shared install stage): removed in the background.
  if (root) removeLater(root)
})

/** The container's process: ENTRYPOINT + CMD, the image's ENV, then `docker run -e` overrides. */
function startContainer(env: Record<string, string>) {
  const [command = '', ...args] = [...runtime.entrypoint, ...runtime.cmd].map(local)
  const imageEnv = Object.fromEntries(
    Object.entries(runtime.env).map(([key, value]) => [key, local(value)]),
  )
  const unprivileged = process.getuid?.() === 0 ? { uid: 65_534, gid: 65_534 } : {}
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    cwd: image,
    env: { PATH: process.env.PATH, ...imageEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...unprivileged,
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
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout)
      if (match?.[1]) resolve(match[1])
    })
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)))
  })
  listening.catch(() => {}) // a failure twin awaits `exited` instead
  return { child, exited, listening, out: () => stdout, err: () => stderr }
}

/** The HEALTHCHECK's command in the container (its PORT): its exit code. */
function healthcheck(port: string): number | null {
  const [command = '', ...args] = runtime.healthcheck ?? []
  return spawnSync(command === 'node' ? process.execPath : command, args, {
    env: { PATH: process.env.PATH, ...runtime.env, PORT: port },
    timeout: 10_000,
  }).status
}

describe('the container recipe (server/Dockerfile, server/compose.yaml)', () => {
  it('is multi-stage, runs as a non-root user, checks /readyz, and the runtime holds no npm cache, tarball or tsx', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    expect(runtime.user).toBeDefined()
    expect(['root', '0']).not.toContain(runtime.user)
    expect(runtime.healthcheck?.join(' ')).toContain('/readyz')
    expect(runtime.entrypoint[0]).toBe('node')
    expect(
      existsSync(join(image, 'node_modules', '@scope-connect', 'server', 'dist', 'cli.js')),
    ).toBe(true)
    expect(existsSync(join(image, 'node_modules', 'tsx'))).toBe(false)
    expect(existsSync(join(image, 'node_modules', 'vitest'))).toBe(false)
    expect(readdirSync(image).filter((name) => name.endsWith('.tgz'))).toEqual([])
    // compose.yaml: Redis beside the server, the projects file where the image reads it.
    expect(compose).toMatch(/^ {2}redis:\n {4}image: redis:/m)
    expect(compose).toContain('REDIS_URL: redis://redis:6379')
    expect(compose).toContain(`./projects.json:${runtime.env.PROJECTS_FILE}:ro`)
    expect(compose).toContain('condition: service_healthy')
  })

  it('behavior: starts as the image does, on Redis as compose wires it; the HEALTHCHECK passes; SIGTERM exits 0', async () => {
    const container = startContainer({
      // `docker run -e`: a free port on loopback (the image listens on 0.0.0.0:8787), compose's
      // Redis (redis://redis:6379 there) and relay key.
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      RELAY_SIGNING_KEY: 'A'.repeat(43),
    })
    try {
      const url = await container.listening
      expect(container.out()).toContain('(store: redis)')
      const port = new URL(url).port
      const config = await fetch(`${url}/api/v1/connect/config`, {
        headers: { 'x-app-key': 'sample-app-key' },
      })
      expect(config.status).toBe(200) // the image's projects file: the sample, until mounted over
      expect(healthcheck(port)).toBe(0)
    } finally {
      container.child.kill('SIGTERM')
    }
    expect(await container.exited).toBe(0)
  })

  it('error: the HEALTHCHECK fails while Redis is down (/readyz 503) and passes once it is back', async () => {
    const container = startContainer({
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      RELAY_SIGNING_KEY: 'A'.repeat(43),
    })
    try {
      const url = await container.listening
      const port = new URL(url).port
      expect(healthcheck(port)).toBe(0)
      await redis.stop()
      await expect.poll(() => healthcheck(port), { timeout: 15_000, interval: 250 }).toBe(1)
      redis = await startRedis({ port: redis.port })
      await expect.poll(() => healthcheck(port), { timeout: 15_000, interval: 250 }).toBe(0)
    } finally {
      container.child.kill('SIGTERM')
    }
    expect(await container.exited).toBe(0)
  })

  it('error: a projects file the image cannot read exits 1, naming it', async () => {
    // `docker run` without the compose volume, and PROJECTS_FILE pointing where nothing is mounted.
    const container = startContainer({
      PORT: '0',
      HOST: '127.0.0.1',
      PROJECTS_FILE: local('/app/mounted/projects.json'),
    })
    expect(await container.exited).toBe(1)
    expect(container.err()).toMatch(
      /invalid \S+mounted\/projects\.json:\n {2}- cannot read: ENOENT/,
    )
  })
})
