import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BalanceResponseSchema, ConfigResponseSchema } from 'scope-connect/wire'
import { describe, it } from 'vitest'
import { DEV_ACCOUNT } from '../scripts/dev-chain'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const readme = readFileSync(`${ROOT}README.md`, 'utf8')

// Concurrent: the two `npm start`s listen on free ports and chains of their own; assertions use
// the test's own `expect`.
describe.concurrent('the README commands', () => {
  it('gives one command that starts the backend and one that runs every test; CI runs the latter', ({
    expect,
  }) => {
    expect(readme).toMatch(/^npm install && npm start\b/m)
    expect(readme).toMatch(/^npm install && npm test\b/m)
    const ci = readFileSync(`${ROOT}.ci/run`, 'utf8')
    expect(ci).toMatch(/^npm install\b/m)
    expect(ci).toMatch(/^npm test$/m)
  })

  it('`npm start` serves the sample project and its local chain: a balance answers', async ({
    expect,
  }) => {
    // `--port 0` and DEV_CHAIN_PORT=0 only so parallel runs do not collide; the rest is the README's.
    const child = spawn('npm', ['start', '--', '--port', '0', '--log-level', 'warn'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, DEV_CHAIN_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+) \(store: memory\)/.exec(output)
          if (match?.[1]) resolve(match[1])
        })
        void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)))
      })
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      const config = await fetch(`${url}/api/v1/connect/config`, {
        headers: { 'x-app-key': 'sample-app-key' },
      })
      expect(config.status).toBe(200)
      expect(ConfigResponseSchema.parse(await config.json()).networks.length).toBeGreaterThan(0)
      expect(output).toMatch(/dev chain: anvil on http:\/\/127\.0\.0\.1:\d+ \(eip155:31337\)/)
      const balance = await fetch(
        `${url}/api/v1/connect/balances?chainId=eip155:31337&tokenAddress=native&account=${DEV_ACCOUNT}`,
        { headers: { 'x-app-key': 'sample-app-key' } },
      )
      expect(balance.status).toBe(200)
      expect(BalanceResponseSchema.parse(await balance.json()).raw).toBe('10000000000000000000000')
    } finally {
      // npm, the shell script and the server form one process group.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await exited
    }
  }, 60_000)

  it('`npm start` warns and serves without the chain when anvil cannot start', async ({
    expect,
  }) => {
    const child = spawn('npm', ['start', '--', '--port', '0', '--log-level', 'warn'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, DEV_CHAIN_PORT: '0', ANVIL_BIN: '/nonexistent/anvil' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+) \(store: memory\)/.exec(output)
          if (match?.[1]) resolve(match[1])
        })
        void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)))
      })
      expect(output).toMatch(/dev chain not started \(.*nonexistent.*\)/)
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
      await exited
    }
  }, 60_000)
})
