import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runQuickstart } from '../../examples/quickstart'
import { startTestServer, type TestServer } from '../../server/test/support/server'

describe('examples/quickstart', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('runs end to end against a real server: config, a typed balance error, a signed session', async () => {
    const lines: string[] = []
    const result = await runQuickstart({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      log: (line) => lines.push(line),
      intervalMs: 50,
    })
    expect(result).toMatchObject({ status: 'signed', connected: true, signed: true })
    expect(result.walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(lines[0]).toMatch(/^project Test dApp: 4 networks, 5 wallets$/)
    // eip155:1 has no RPC URL in the test project: the read fails with a typed, coded error.
    expect(lines[1]).toMatch(/^balance on .+: RPC_ERROR \(\w+\)$/)
    expect(lines).toContain('status: signed')
    expect(lines.at(-1)).toBe(`signed by ${result.walletAddress}, verified by the backend`)
  })
})
