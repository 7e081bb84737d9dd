import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer as createTcpServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ConfigResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { ROOT, removeLater } from '../../../test/support/packed'
import { installStage, linkCopy } from '../support/image'

// The backend as an operator gets it: both packages packed (`npm pack`, whose prepack builds
// them), installed with `npm install <tarballs>` into an empty folder (server/Dockerfile's install
// stage, built once and shared with container.test.ts; linked here into a folder of this file's
// own), and run from there with Node alone: no tsx, no repository, no path mapping.

const run = promisify(execFile)
let dir: string

const PROJECTS = {
  projects: [
    {
      projectId: 'installed',
      name: 'Installed dApp',
      appKeys: ['installed-app-key'],
      networks: [{ chainId: 'eip155:1' }, { chainId: 'eip155:8453' }],
      wallets: ['metamask'],
    },
  ],
}

beforeAll(() => {
  const installed = installStage()
  dir = mkdtempSync(join(tmpdir(), 'scope-connect-server-installed-'))
  for (const name of ['package.json', 'node_modules']) {
    linkCopy(join(installed, name), join(dir, name))
  }
  writeFileSync(join(dir, 'projects.json'), JSON.stringify(PROJECTS))
}, 900_000)

afterAll(() => {
  // Links to the shared install stage's tree: removed in the background.
  if (dir) removeLater(dir)
})

/** `npx scope-connect-server …`: the installed bin, run by node itself so SIGTERM reaches it. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const bin = join(
    dir,
    'node_modules',
    '@scope-connect',
    'server',
    'bin',
    'scope-connect-server.js',
  )
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, LOG_FORMAT: 'json', ...env },
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

async function stopped(child: ChildProcess, exited: Promise<number | null>) {
  child.kill('SIGTERM')
  return exited
}

// Concurrent: each test starts its own processes (free ports, its own script files) in the
// installed folder and waits on them; assertions use the test's own `expect`.
describe.concurrent('@scope-connect/server installed from its tarball', () => {
  it('installs no tsx and ships built JavaScript, no TypeScript sources', ({ expect }) => {
    const pkg = join(dir, 'node_modules', '@scope-connect', 'server')
    expect(existsSync(join(pkg, 'dist', 'cli.js'))).toBe(true)
    expect(existsSync(join(pkg, 'dist', 'index.d.ts'))).toBe(true)
    expect(existsSync(join(pkg, 'src'))).toBe(false)
    expect(existsSync(join(dir, 'node_modules', 'tsx'))).toBe(false)
    // The library is the installed tarball's build, not the repository's sources.
    expect(existsSync(join(dir, 'node_modules', 'scope-connect', 'dist', 'wire', 'index.js'))).toBe(
      true,
    )
  })

  it('behavior: `scope-connect-server --projects projects.json` serves /healthz, /readyz and the project config; SIGTERM exits 0', async ({
    expect,
  }) => {
    const proc = cli(['--projects', 'projects.json', '--port', '0', '--log-level', 'warn'])
    try {
      const url = await proc.listening
      expect(proc.out()).toContain('(store: memory)')
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      const ready = await fetch(`${url}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toMatchObject({ status: 'ready' })
      const config = await fetch(`${url}/api/v1/connect/config`, {
        headers: { 'x-app-key': 'installed-app-key' },
      })
      expect(config.status).toBe(200)
      const body = ConfigResponseSchema.parse(await config.json())
      expect(body.networks.map((network) => network.networkId)).toEqual(['eip155:1', 'eip155:8453'])
    } finally {
      expect(await stopped(proc.child, proc.exited)).toBe(0)
    }
  })

  it('behavior: `@scope-connect/server/testing` loads in plain Node and starts and stops a backend', async ({
    expect,
  }) => {
    const script = join(dir, 'testing.mjs')
    writeFileSync(
      script,
      `import { startTestBackend, TEST_BACKEND_APP_KEY } from '@scope-connect/server/testing'
const backend = await startTestBackend()
const config = await fetch(backend.baseUrl + '/api/v1/connect/config', {
  headers: { 'x-app-key': TEST_BACKEND_APP_KEY },
})
console.log(JSON.stringify({ status: config.status, relayUrl: backend.relayUrl }))
await backend.close()
`,
    )
    const { stdout } = await run(process.execPath, [script], { cwd: dir })
    const result = JSON.parse(stdout) as { status: number; relayUrl: string }
    expect(result.status).toBe(200)
    expect(result.relayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/api\/v1\/connect\/relay$/)
  })

  it('behavior: `createServer` of `@scope-connect/server` embeds it in a Node program', async ({
    expect,
  }) => {
    const script = join(dir, 'embed.mjs')
    writeFileSync(
      script,
      `import { createServer } from '@scope-connect/server'
const server = await createServer({ projects: './projects.json', port: 0, logger: false })
const ready = await fetch(server.url + '/readyz')
console.log(JSON.stringify({ ready: ready.status, storeKind: server.storeKind }))
await server.close()
`,
    )
    const { stdout } = await run(process.execPath, [script], { cwd: dir })
    expect(JSON.parse(stdout)).toEqual({ ready: 200, storeKind: 'memory' })
  })

  it('behavior: `@scope-connect/server/testing` loads in a Vitest file of the installed folder', async ({
    expect,
  }) => {
    // Vitest itself from the repository (linked in, as a dev dependency of the app would be); the
    // backend from the installed package.
    const modules = join(dir, 'node_modules')
    if (!existsSync(join(modules, 'vitest'))) {
      symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(modules, 'vitest'), 'dir')
    }
    writeFileSync(join(dir, 'vitest.config.mjs'), 'export default {}\n')
    writeFileSync(
      join(dir, 'backend.test.mjs'),
      `import { startTestBackend } from '@scope-connect/server/testing'
import { expect, it } from 'vitest'
it('starts the backend', async () => {
  const backend = await startTestBackend()
  expect((await fetch(backend.baseUrl + '/healthz')).status).toBe(200)
  await backend.close()
})
`,
    )
    const { stdout } = await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--root',
        dir,
        'backend.test.mjs',
      ],
      { cwd: dir, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1' } },
    )
    expect(stdout).toMatch(/1 passed/)
  })

  it('error: a missing projects file exits 1 naming the file; the next start works', async ({
    expect,
  }) => {
    const missing = cli(['--projects', 'nowhere.json', '--port', '0'])
    expect(await missing.exited).toBe(1)
    expect(missing.err()).toMatch(/invalid nowhere\.json:\n {2}- cannot read: ENOENT/)
    const next = cli(['--projects', 'projects.json', '--port', '0', '--log-level', 'warn'])
    await next.listening
    expect(await stopped(next.child, next.exited)).toBe(0)
  })

  it('error: a bad flag exits 1 with the flag named', async ({ expect }) => {
    const badPort = cli(['--projects', 'projects.json', '--port', 'eighty'])
    expect(await badPort.exited).toBe(1)
    expect(badPort.err()).toContain('scope-connect-server: --port: not a port: eighty')
    const unknown = cli(['--projects', 'projects.json', '--prot', '80'])
    expect(await unknown.exited).toBe(1)
    expect(unknown.err()).toContain("Unknown option '--prot'")
  })

  it('error: a port in use exits 1 with EADDRINUSE; the same start on a free port works', async ({
    expect,
  }) => {
    const holder: Server = createTcpServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const address = holder.address()
    const port = typeof address === 'object' && address ? address.port : 0
    try {
      const taken = cli(['--projects', 'projects.json', '--port', String(port)])
      expect(await taken.exited).toBe(1)
      expect(taken.err()).toContain('EADDRINUSE')
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
    const next = cli(['--projects', 'projects.json', '--port', '0', '--log-level', 'warn'])
    await next.listening
    expect(await stopped(next.child, next.exited)).toBe(0)
  })

  it('error: `startTestBackend({ anvil: true })` without @foundry-rs/anvil says which package; the next start works', async ({
    expect,
  }) => {
    const script = join(dir, 'no-anvil.mjs')
    writeFileSync(
      script,
      `import { startTestBackend } from '@scope-connect/server/testing'
const message = await startTestBackend({ anvil: true }).then(
  async (backend) => { await backend.close(); return 'started' },
  (error) => error.message,
)
const backend = await startTestBackend()
const status = (await fetch(backend.baseUrl + '/healthz')).status
await backend.close()
console.log(JSON.stringify({ message, status }))
`,
    )
    const { stdout } = await run(process.execPath, [script], { cwd: dir })
    const result = JSON.parse(stdout) as { message: string; status: number }
    expect(result.message).toContain('needs the @foundry-rs/anvil package')
    expect(result.status).toBe(200)
  })
})
