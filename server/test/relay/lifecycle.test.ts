import { Writable } from 'node:stream'
import { RELAY_CLOSE_CODES, RELAY_METHODS } from 'scope-connect/wire'
import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/server'
import {
  connectRelay,
  envelope,
  issueRelayToken,
  relayUrl,
  topicFor,
} from '../support/relay-client'
import { startTestServer, TEST_PROJECTS } from '../support/server'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('relay socket lifecycle', () => {
  it('closes a socket with 4001 when its token expires; a fresh grant connects again', async () => {
    // iat is whole seconds, so a 3 s grant has between 2 and 3 s left: time enough to connect.
    const server = await startTestServer({ relay: { tokenTtlSeconds: 3 } })
    try {
      const client = await connectRelay(server.baseUrl)
      expect(await client.request(RELAY_METHODS.ping)).toBe(true)
      const { code } = await client.closed
      expect(code).toBe(RELAY_CLOSE_CODES.TOKEN_EXPIRED)
      const again = await connectRelay(server.baseUrl)
      expect(await again.request(RELAY_METHODS.ping)).toBe(true)
      again.close()
    } finally {
      await server.close()
    }
  })

  it('pings every heartbeat and terminates a socket that does not answer; answering ones stay', async () => {
    const heartbeatMs = 100
    const server = await startTestServer({ relay: { limits: { heartbeatMs } } })
    try {
      const silent = await connectRelay(server.baseUrl, { autoPong: false })
      const alive = await connectRelay(server.baseUrl)
      let pings = 0
      alive.socket.on('ping', () => pings++)
      const { code } = await silent.closed
      // Terminated: no close frame, so the client sees an abnormal closure.
      expect(code).toBe(1006)
      while (pings < 5) await sleep(heartbeatMs)
      expect(await alive.request(RELAY_METHODS.ping)).toBe(true)
      alive.close()
    } finally {
      await server.close()
    }
  })

  it('graceful shutdown closes every relay socket with 1001', async () => {
    const server = await startServer({ projects: TEST_PROJECTS, port: 0 })
    const clients = await Promise.all([1, 2, 3].map(() => connectRelay(server.url)))
    await clients[0]!.request(RELAY_METHODS.subscribe, { topic: topicFor('shutdown') })
    await server.close()
    for (const client of clients) {
      expect(await client.closed).toEqual({
        code: RELAY_CLOSE_CODES.GOING_AWAY,
        reason: 'server shutting down',
      })
    }
  })

  it('graceful shutdown does not wait past its grace for a client that never answers the close', async () => {
    const server = await startServer({
      projects: TEST_PROJECTS,
      port: 0,
      relay: { limits: { closeGraceMs: 200 } },
    })
    const client = await connectRelay(server.url)
    // A client that stops reading: the close handshake cannot finish.
    client.socket.pause()
    const startedAt = Date.now()
    await server.close()
    expect(Date.now() - startedAt).toBeLessThan(5_000)
    client.socket.resume()
    expect((await client.closed).code).not.toBe(1000)
  })

  it('never logs the relay token (it travels in the query string) or message contents', async () => {
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const server = await startTestServer({ logger: { level: 'trace', destination } })
    try {
      const { token } = await issueRelayToken(server.baseUrl)
      const client = await connectRelay(server.baseUrl, { token })
      const topic = topicFor('logging')
      const message = envelope('secret-envelope')
      await client.request(RELAY_METHODS.publish, { topic, message, ttl: 60, tag: 1 })
      client.sendRaw('garbage')
      client.close()
      await client.closed
      // A refused upgrade with a token in the URL is logged too.
      await fetch(relayUrl(server.baseUrl, token).replace(/^ws/, 'http'))
      const log = lines.join('')
      expect(log).toContain('/api/v1/connect/relay?token=[redacted]')
      expect(log).not.toContain(token)
      expect(log).not.toContain(token.split('.')[2]!)
      expect(log).not.toContain(message)
    } finally {
      await server.close()
    }
  })
})
