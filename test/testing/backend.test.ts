import { startTestBackend } from '@scope-connect/server/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import {
  type ClientPathDriver,
  createBackendDouble,
  getClientPaths,
  runClientPath,
  TEST_APP_KEY,
  TEST_BASE_URL,
} from '../../src/testing'
import { API_PREFIX, ROUTES } from '../../src/wire'

// The two backends of the kit: the real server and relay in process (`startTestBackend`), and the
// backend test double, which answers as the real one does for what the Client reads.

let backend: Awaited<ReturnType<typeof startTestBackend>>

beforeAll(async () => {
  backend = await startTestBackend({ anvil: true })
}, 60_000)

afterAll(async () => {
  await backend?.close()
})

const ANVIL_DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

describe('startTestBackend(): the real server and relay on a free port', () => {
  it('serves the test project, and balances from its anvil node', async () => {
    expect(backend.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(backend.relayUrl).toBe(
      `${backend.baseUrl.replace('http', 'ws')}${API_PREFIX}${ROUTES.relay}`,
    )
    const client = new Client({ baseUrl: backend.baseUrl, appKey: backend.appKey })
    const config = await client.loadConfig()
    expect(config.networks.map((n) => n.networkId)).toContain(`eip155:${backend.anvil?.chainId}`)
    const balance = await client.getBalance({
      chainId: `eip155:${backend.anvil?.chainId}`,
      tokenAddress: 'native',
      account: ANVIL_DEV,
    })
    expect(balance.raw).toBe(10_000n * 10n ** 18n)
    client.actor.stop()
  })

  it('grants relay tokens, and refuses an unknown app key with the documented error', async () => {
    const grant = await fetch(`${backend.baseUrl}${API_PREFIX}${ROUTES.relayToken}`, {
      method: 'POST',
      headers: { 'x-app-key': backend.appKey },
    })
    expect(grant.status).toBe(200)
    expect(await grant.json()).toMatchObject({ token: expect.any(String) })
    const refused = await fetch(`${backend.baseUrl}${API_PREFIX}${ROUTES.config}`, {
      headers: { 'x-app-key': 'nobody' },
    })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_APP_KEY' } })
  })

  it('a generated path replays against it (options.backend)', async () => {
    const driver: ClientPathDriver = {
      mount: (client) => {
        void client.loadConfig()
      },
      act: (action, client) => {
        action.run(client).catch(() => {})
      },
      expect: () => {},
    }
    const path = getClientPaths({ maxSteps: 3 }).find((p) =>
      /the wallet approves/.test(p.description),
    )
    const run = await runClientPath(path!, driver, { backend })
    expect(run.backend).toBeNull()
    expect(run.views.at(-1)?.status).toBe(path!.steps.at(-1)?.expected.status)
  })
})

describe('the backend test double answers the config read as the server does', () => {
  it('the same shape, and the same error for an unknown app key', async () => {
    const double = createBackendDouble()
    const fromDouble = await new Client({
      baseUrl: TEST_BASE_URL,
      appKey: TEST_APP_KEY,
      fetchImpl: double.fetch,
    }).loadConfig()
    const fromServer = await new Client({
      baseUrl: backend.baseUrl,
      appKey: backend.appKey,
    }).loadConfig()
    expect(Object.keys(fromDouble).sort()).toEqual(Object.keys(fromServer).sort())
    const refused = await double.fetch(`${TEST_BASE_URL}${API_PREFIX}${ROUTES.config}`, {
      headers: { 'x-app-key': 'nobody' },
    })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_APP_KEY' } })
  })
})
