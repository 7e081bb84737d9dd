import { randomBytes } from 'node:crypto'
import { RELAY_METHODS } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRelay } from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'

const HEARTBEAT_MS = 100
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Issue 16: only the pong that echoes the server's ping (a random payload) proves a peer alive.
 * A client that ignores pings but sends pongs of its own would otherwise hold a socket forever.
 */
describe('relay heartbeat', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ relay: { limits: { heartbeatMs: HEARTBEAT_MS } } })
  })
  afterAll(() => server?.close())

  it('error: unsolicited pongs every interval do not keep a dead socket', async () => {
    const client = await connectRelay(server.baseUrl, { autoPong: false })
    const pongs = setInterval(() => client.socket.pong(randomBytes(8)), HEARTBEAT_MS / 2)
    const closed = await Promise.race([client.closed, sleep(20 * HEARTBEAT_MS).then(() => null)])
    clearInterval(pongs)
    expect(closed?.code).toBe(1006) // terminated: no close frame
  })

  it('behavior: a client that answers the pings stays', async () => {
    const client = await connectRelay(server.baseUrl)
    await sleep(6 * HEARTBEAT_MS)
    expect(await client.request(RELAY_METHODS.ping)).toBe(true)
    client.close()
  })
})
