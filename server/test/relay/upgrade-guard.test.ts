import { connect } from 'node:net'
import { API_PREFIX, ErrorBodySchema, RELAY_METHODS, ROUTES } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withinBound } from '../store/fixtures'
import { connectRelay } from '../support/relay-client'
import { startTestServer, type TestServer } from '../support/server'
import { createTestSession } from '../support/sessions'

// @fastify/websocket lives in the relay's scope; an upgrade to any other route is refused with
// 404 and the connection closed, instead of a socket nobody looks after.

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

/** Sends `request` as is; resolves with everything the server sent once it closes the socket. */
function exchange(request: string): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request))
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('end', () => resolve(received))
    socket.on('error', reject)
  })
}

const upgradeHeaders = [
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
]

function expectRefusal(answer: string | 'hung') {
  expect(answer).not.toBe('hung')
  const [head, body] = (answer as string).split('\r\n\r\n')
  expect(head).toMatch(/^HTTP\/1\.1 404 /)
  expect(head!.toLowerCase()).toContain('connection: close')
  expect(ErrorBodySchema.parse(JSON.parse(body!)).error).toEqual({
    code: 'NOT_FOUND',
    message: 'no WebSocket at this URL',
  })
}

describe('WebSocket upgrades outside the relay', () => {
  it('a GET upgrade on the result route is 404 NOT_FOUND, then the server closes the connection', async () => {
    const session = await createTestSession(server.baseUrl)
    const request = [
      `GET ${API_PREFIX}/sessions/${session.sessionId}/result HTTP/1.1`,
      'Host: localhost',
      `Authorization: Bearer ${session.sessionToken}`,
      ...upgradeHeaders,
      '',
      '',
    ].join('\r\n')
    expectRefusal(await withinBound(exchange(request)))
  })

  it('a POST upgrade with a body is refused the same way (it does not wait for the body)', async () => {
    const request = [
      `POST ${API_PREFIX}${ROUTES.sessions} HTTP/1.1`,
      'Host: localhost',
      'Content-Type: application/json',
      'Content-Length: 1000',
      ...upgradeHeaders,
      '',
      '{"caip2Chain":',
    ].join('\r\n')
    expectRefusal(await withinBound(exchange(request)))
  })

  it('an upgrade to an unknown URL is refused the same way', async () => {
    const request = ['GET /nowhere HTTP/1.1', 'Host: localhost', ...upgradeHeaders, '', ''].join(
      '\r\n',
    )
    expectRefusal(await withinBound(exchange(request)))
  })

  it('the relay still upgrades, and its socket stays open', async () => {
    const relay = await connectRelay(server.baseUrl)
    expect(await relay.request(RELAY_METHODS.ping)).toBe(true)
    relay.close()
    expect((await relay.closed).code).toBe(1005)
  })
})
