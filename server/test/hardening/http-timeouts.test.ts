import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_HTTP_LIMITS, resolveHttpLimits } from '../../src/http/connection-limits'
import { startServer } from '../../src/server'
import { HEALTH_DETAILS, HEALTH_TOKEN } from '../support/health'
import { connectRelay } from '../support/relay-client'
import { startTestServer, TEST_PROJECTS, type TestServer } from '../support/server'

let server: TestServer | undefined
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await server?.close()
  server = undefined
})

const SHORT = {
  headersTimeoutMs: 600,
  requestTimeoutMs: 1_000,
  timeoutCheckIntervalMs: 100,
}

interface Probe {
  socket: Socket
  /** Everything the server sent. */
  received: () => string
  /** Resolves with the ms from open to close. */
  closed: Promise<number>
}

function open(baseUrl: string): Promise<Probe> {
  const { port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1')
    sockets.push(socket)
    let data = ''
    const started = Date.now()
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      data += chunk
    })
    socket.on('error', () => {})
    const closed = new Promise<number>((done) =>
      socket.once('close', () => done(Date.now() - started)),
    )
    socket.once('connect', () => resolve({ socket, received: () => data, closed }))
    socket.once('error', reject)
  })
}

describe('request timeouts (finding 2: connections that trickle a body were never cut)', () => {
  it('cuts a client that trickles its body, with a 408, within the request timeout', async () => {
    server = await startTestServer({ http: SHORT })
    const probe = await open(server.baseUrl)
    probe.socket.write(
      'POST /api/v1/connect/callback/reject HTTP/1.1\r\nHost: x\r\n' +
        'Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
    )
    // One byte every 100 ms: never idle long enough for an inactivity timeout to fire.
    const trickle = setInterval(() => {
      if (!probe.socket.destroyed) probe.socket.write(' ')
    }, 100)
    try {
      const timeout = new Promise<number>((done) => setTimeout(() => done(-1), 5_000))
      const closedAfter = await Promise.race([probe.closed, timeout])
      // On Fastify's defaults (requestTimeout 0) the connection is still open after 5 s.
      expect(closedAfter).toBeGreaterThan(0)
      expect(closedAfter).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs - 50)
      expect(closedAfter).toBeLessThan(SHORT.requestTimeoutMs + 1_000)
      expect(probe.received()).toMatch(/^HTTP\/1\.1 408 /)
    } finally {
      clearInterval(trickle)
    }
  })

  it('cuts a client that never finishes its headers', async () => {
    server = await startTestServer({ http: SHORT })
    const probe = await open(server.baseUrl)
    probe.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
    const trickle = setInterval(() => {
      if (!probe.socket.destroyed) probe.socket.write('X-Pad: 1\r\n')
    }, 100)
    try {
      const closedAfter = await Promise.race([
        probe.closed,
        new Promise<number>((done) => setTimeout(() => done(-1), 5_000)),
      ])
      expect(closedAfter).toBeGreaterThan(0)
      expect(closedAfter).toBeLessThan(SHORT.requestTimeoutMs + 1_000)
    } finally {
      clearInterval(trickle)
    }
  })

  it('leaves a relay WebSocket open past the request timeout (an upgraded socket is not a request)', async () => {
    server = await startTestServer({ http: SHORT })
    const relay = await connectRelay(server.baseUrl)
    try {
      await new Promise((done) => setTimeout(done, SHORT.requestTimeoutMs * 2))
      expect(await relay.request('scr_ping')).toBeDefined()
    } finally {
      relay.close()
    }
  })

  it('defaults cut a trickling client within 30 s, keep-alive outlives a 60 s balancer idle timeout', async () => {
    const limits = resolveHttpLimits()
    expect(limits).toEqual(DEFAULT_HTTP_LIMITS)
    expect(limits.requestTimeoutMs + limits.timeoutCheckIntervalMs).toBeLessThanOrEqual(30_000)
    expect(limits.keepAliveTimeoutMs).toBeGreaterThan(60_000)
    // The relay's 200 sockets per IP fit under the connection cap, with room for HTTP.
    expect(limits.maxConnectionsPerIp).toBeGreaterThan(200)
    const running = await startServer({ projects: TEST_PROJECTS, port: 0 })
    try {
      expect(running.app.server.requestTimeout).toBe(limits.requestTimeoutMs)
      expect(running.app.server.headersTimeout).toBe(limits.headersTimeoutMs)
      expect(running.app.server.keepAliveTimeout).toBe(limits.keepAliveTimeoutMs)
    } finally {
      await running.close()
    }
    expect(() => resolveHttpLimits({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 })).toThrow(
      'headersTimeoutMs',
    )
    expect(() => resolveHttpLimits({ maxConnectionsPerIp: 0 })).toThrow('integer >= 1')
  })
})

describe('per-IP connection cap', () => {
  it('closes connections past the cap at once and keeps serving others', async () => {
    server = await startTestServer({
      http: { maxConnectionsPerIp: 5 },
      metrics: { token: HEALTH_TOKEN },
    })
    const held = await Promise.all(Array.from({ length: 5 }, () => open(server!.baseUrl)))
    // Partial requests that hold their connections (as the audit's 20,400 did).
    for (const probe of held)
      probe.socket.write('POST /api/v1/connect/callback/reject HTTP/1.1\r\n')
    await new Promise((done) => setTimeout(done, 50))
    const extra = await open(server.baseUrl)
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    const closedAfter = await Promise.race([
      extra.closed,
      new Promise<number>((done) => setTimeout(() => done(-1), 2_000)),
    ])
    expect(closedAfter).toBeGreaterThanOrEqual(0)
    expect(extra.received()).toBe('')
    // Free one slot: the next connection from the address is served, and the refusal was counted.
    held[0]!.socket.destroy()
    await held[0]!.closed
    const health = await fetch(`${server.baseUrl}/healthz`, { headers: HEALTH_DETAILS })
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ connections: { refusedByIpCap: 1 } })
  })

  it('does not cap a trusted proxy (its clients are capped at the proxy)', async () => {
    server = await startTestServer({ http: { maxConnectionsPerIp: 2 }, trustProxy: ['127.0.0.1'] })
    const held = await Promise.all(Array.from({ length: 4 }, () => open(server!.baseUrl)))
    held[3]!.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await held[3]!.closed
    expect(held[3]!.received()).toMatch(/^HTTP\/1\.1 200 /)
  })
})
