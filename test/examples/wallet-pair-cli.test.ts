import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { dappPairing } from '../relay/support/pairing-setup'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('examples/wallet-simulator pair-cli (docs/wallet.md)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('pairs with a URI from the command line and answers a personal_sign', async () => {
    const dapp = dappPairing(server)
    const child = spawn(
      'node_modules/.bin/tsx',
      ['examples/wallet-simulator/src/pair-cli.ts', dapp.uri as string, server.appKey],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    )
    // 'close': the process exited and its output streams are read to the end.
    const exited = new Promise((resolve) => child.on('close', resolve))
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    try {
      const session = await dapp.approval
      expect(session.peer.metadata.name).toBe('Wallet Simulator')
      const signature = await dapp.signMessage('from the CLI wallet')
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
      await dapp.disconnect()
      // The dApp ended the session: the CLI wallet closes and exits by itself. Its lines are read
      // once it has exited (the signature can reach the dApp before "paired with" reaches us).
      expect(await exited).toBe(0)
      expect(output).toContain('paired with Example dApp (https://dapp.example)')
      expect(output).toContain('the dApp ended the session')
    } finally {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      dapp.stop()
    }
  }, 60_000)
})
