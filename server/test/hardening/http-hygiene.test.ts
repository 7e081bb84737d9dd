import { connect } from 'node:net'
import { ErrorBodySchema } from 'scope-connect/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { startEvmFixture, UNTOUCHED_DEV_ACCOUNT } from '../chains/support/evm-fixture'
import { call } from '../support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from '../support/server'

const TOKEN = 'health-details-token-0123'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** One raw HTTP/1.1 exchange: the bytes as written, the answer as sent (status, headers, body). */
function raw(baseUrl: string, request: string) {
  const { port } = new URL(baseUrl)
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>(
    (resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1')
      let data = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => {
        data += chunk
      })
      socket.on('error', () => {})
      socket.once('close', () => {
        const [head = '', ...rest] = data.split('\r\n\r\n')
        const [statusLine = '', ...lines] = head.split('\r\n')
        const match = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine)
        if (!match) return reject(new Error(`no HTTP answer: ${JSON.stringify(data)}`))
        const headers: Record<string, string> = {}
        for (const line of lines) {
          const colon = line.indexOf(':')
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
        }
        resolve({ status: Number(match[1]), headers, body: rest.join('\r\n\r\n') })
      })
      socket.write(request)
    },
  )
}

/** The documented error body, with `code`. */
function expectErrorBody(body: string, code: string) {
  const parsed = ErrorBodySchema.parse(JSON.parse(body))
  expect(parsed.error.code).toBe(code)
  expect(Object.keys(JSON.parse(body))).toEqual(['error'])
}

describe('public /healthz answers its status only (issue 28, item 6)', () => {
  it('no outage counts, refusals or sockets without the token; all of them with it', async () => {
    server = await startTestServer({ metrics: { token: TOKEN } })
    const open = await call(server.baseUrl, '//healthz')
    expect(open.status).toBe(200)
    expect(open.body).toEqual({ status: 'ok' })
    expect(open.headers.get('cache-control')).toBe('no-store')
    const wrong = await call(server.baseUrl, '//healthz', {
      headers: { authorization: 'Bearer not-the-token-at-all' },
    })
    expect(wrong.body).toEqual({ status: 'ok' })
    const detailed = await call(server.baseUrl, '//healthz', {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(detailed.body).toMatchObject({
      status: 'ok',
      rateLimiter: { mode: 'shared' },
      connections: { refusedByIpCap: 0 },
      store: { down: false, outages: 0 },
      relay: { redis: 'none', sockets: 0 },
    })
  })

  it('without metrics configured the details are nowhere public', async () => {
    server = await startTestServer()
    expect((await call(server.baseUrl, '//healthz')).body).toEqual({ status: 'ok' })
  })

  it('the metrics listener serves the details on its own /healthz', async () => {
    server = await startTestServer({ metrics: { port: 0 } })
    const url = server.app.metricsUrl!
    const answer = await fetch(`${url}/healthz`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await answer.json()).toMatchObject({
      status: 'ok',
      store: { down: false },
      relay: { redis: 'none' },
    })
    expect((await call(server.baseUrl, '//healthz')).body).toEqual({ status: 'ok' })
    expect((await fetch(`${url}/metrics`)).status).toBe(200)
  })
})

describe('headers on answers (issue 28, item 6)', () => {
  it('every JSON answer says nosniff: 200s, refusals, 404s, healthz, openapi', async () => {
    server = await startTestServer()
    const headers = { 'x-app-key': server.appKey }
    const answers = [
      await call(server.baseUrl, '/config', { headers }),
      await call(server.baseUrl, '/config'),
      await call(server.baseUrl, '/no-such-route'),
      await call(server.baseUrl, '//healthz'),
      await call(server.baseUrl, '//readyz'),
      await call(server.baseUrl, '/openapi.json'),
      await call(server.baseUrl, '/sessions', { body: '{x', headers }),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 200, 200, 200, 400])
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('/config: public for a minute, one copy per app key and Origin; its refusals carry no cache header', async () => {
    server = await startTestServer()
    const ok = await call(server.baseUrl, '/config', { headers: { 'x-app-key': server.appKey } })
    expect(ok.headers.get('cache-control')).toBe('public, max-age=60')
    expect(ok.headers.get('vary')).toBe('Origin, X-App-Key')
    const refused = await call(server.baseUrl, '/config', { headers: { 'x-app-key': 'nope' } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('cache-control')).toBeNull()
  })

  it('/balances, GET and the POST batch: no-store', async () => {
    const fx = await startEvmFixture()
    try {
      const networks = [{ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl }]
      server = await startTestServer({ projects: { projects: [{ ...TEST_PROJECT, networks }] } })
      const headers = { 'x-app-key': server.appKey }
      const query = {
        chainId: fx.chainId,
        tokenAddress: 'native',
        account: UNTOUCHED_DEV_ACCOUNT,
      }
      const one = await call(server.baseUrl, `/balances?${new URLSearchParams(query)}`, { headers })
      expect(one.status).toBe(200)
      expect(one.headers.get('cache-control')).toBe('no-store')
      expect(one.headers.get('x-content-type-options')).toBe('nosniff')
      const batch = await call(server.baseUrl, '/balances', { headers, body: { queries: [query] } })
      expect(batch.status).toBe(200)
      expect(batch.headers.get('cache-control')).toBe('no-store')
    } finally {
      await fx.anvil.stop()
    }
  }, 60_000)
})

describe("Node's and Fastify's own refusals use the documented body (issue 28, item 6)", () => {
  it('431: headers past the limit → HEADERS_TOO_LARGE', async () => {
    server = await startTestServer()
    const answer = await raw(
      server.baseUrl,
      `GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(answer.status).toBe(431)
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expectErrorBody(answer.body, 'HEADERS_TOO_LARGE')
  })

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: a\r\nbroken header\r\n\r\n'],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /api/v1/connect/sessions HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
  ])('400 from the parser (%s) → BAD_REQUEST', async (_name, request) => {
    server = await startTestServer()
    const answer = await raw(server.baseUrl, request)
    expect(answer.status).toBe(400)
    expectErrorBody(answer.body, 'BAD_REQUEST')
  })

  it('a body that is not JSON, of the wrong type or too large: documented body and nosniff', async () => {
    server = await startTestServer()
    const headers = { 'x-app-key': server.appKey }
    const badJson = await call(server.baseUrl, '/sessions', { body: '{"a":', headers })
    expect(badJson.status).toBe(400)
    expect(badJson.body).toEqual({
      error: { code: 'BAD_REQUEST', message: 'the body is not valid JSON' },
    })
    const text = await call(server.baseUrl, '/sessions', {
      body: 'hello',
      headers: { ...headers, 'content-type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    expect((text.body as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    const big = await call(server.baseUrl, '/sessions', {
      body: JSON.stringify({ pad: 'x'.repeat(64 * 1024) }),
      headers,
    })
    expect(big.status).toBe(413)
    expect((big.body as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE')
    for (const answer of [badJson, text, big]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('two Host headers are refused (issue 28, item 6)', () => {
  it('400 BAD_REQUEST in the documented body; one Host (or HTTP/1.0 without) is served as before', async () => {
    server = await startTestServer()
    const doubled = await raw(
      server.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
    )
    expect(doubled.status).toBe(400)
    expectErrorBody(doubled.body, 'BAD_REQUEST')
    expect(JSON.parse(doubled.body).error.message).toMatch(/more than one Host/)
    // The same on an API route, whatever the case of the header names.
    const api = await raw(
      server.baseUrl,
      `GET /api/v1/connect/config HTTP/1.1\r\nhost: a\r\nHOST: b\r\nX-App-Key: ${server.appKey}\r\nConnection: close\r\n\r\n`,
    )
    expect(api.status).toBe(400)
    // One Host (or HTTP/1.0 without one) is served as before.
    const one = await raw(
      server.baseUrl,
      'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    )
    expect(one.status).toBe(200)
    const old = await raw(server.baseUrl, 'GET /healthz HTTP/1.0\r\n\r\n')
    expect(old.status).toBe(200)
  })

  it('an HTTP/1.1 request without Host: 400 in the documented body (was an empty 400 from Node)', async () => {
    server = await startTestServer()
    const answer = await raw(server.baseUrl, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(answer.status).toBe(400)
    expectErrorBody(answer.body, 'BAD_REQUEST')
  })
})

describe('the OpenAPI document says so (issue 28, item 6)', () => {
  it('431 HEADERS_TOO_LARGE and 408 REQUEST_TIMEOUT on every route; /healthz is { status }', async () => {
    server = await startTestServer()
    const doc = (await call(server.baseUrl, '/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>
    }
    const config = doc.paths['/api/v1/connect/config']!.get!.responses
    expect(config['431']).toMatchObject({ description: 'HEADERS_TOO_LARGE' })
    expect(config['408']).toMatchObject({ description: 'REQUEST_TIMEOUT' })
    expect(config['200']!.headers).toHaveProperty('Cache-Control')
    const health = doc.paths['/healthz']!.get!.responses['200'] as {
      content: { 'application/json': { schema: { required: string[] } } }
    }
    expect(health.content['application/json'].schema.required).toEqual(['status'])
  })
})
