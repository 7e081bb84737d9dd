import fc from 'fast-check'
import { API_PREFIX, type CreateSessionResponse, ErrorBodySchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { createTestSession } from './support/sessions'
import { evmWallet } from './support/wallets'

// In-process (`app.inject`): the whole stack from routing to serialization, without sockets, so
// 20,000 requests take seconds. The socket-level limits have their own tests (test/hardening).
const RUNS = 20_000
const HIGH = { limit: 1_000_000, windowSeconds: 60 }

let server: TestServer
let sessions: CreateSessionResponse[] = []
const wallet = evmWallet()

beforeAll(async () => {
  server = await startTestServer({
    projects: {
      rateLimits: { callbackIp: HIGH, authFailureIp: HIGH },
      projects: [{ ...TEST_PROJECT, rateLimits: { appKey: HIGH, project: HIGH, session: HIGH } }],
    },
  })
  sessions = await Promise.all(
    ['connect', 'sign', 'transaction'].map((intent) =>
      createTestSession(server.baseUrl, { caip2Chain: 'eip155:1', intent }),
    ),
  )
  // One connected session, so sign/transaction/verify bodies reach the deeper checks.
  await call(server.baseUrl, '/callback/connect', {
    body: {
      sessionId: sessions[1]!.sessionId,
      walletSlug: 'metamask',
      caip2Chain: 'eip155:1',
      walletAddress: wallet.address,
    },
  })
})
afterAll(() => server.close())

// Sessions are created in beforeAll, after the arbitraries are built: pick by index.
const session = () => fc.nat({ max: 2 }).map((i) => sessions[i]!)
const urlChars = fc.constantFrom(
  ...'abcXYZ019-_.~%2F/?&=:;@!$*+,'.split(''),
  '%00',
  '%ZZ',
  '..',
  '//',
)
const printable = fc.string({
  unit: fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~é'.split('')),
})

const path = fc.oneof(
  fc.constantFrom(
    '/balances',
    '/config',
    '/sessions',
    '/callback/connect',
    '/callback/sign',
    '/callback/transaction',
    '/callback/reject',
    '/openapi.json',
    '/relay/token',
    '/relay',
    '/relay?token=x',
    '//healthz',
    '//readyz',
  ),
  session().map((s) => `/sessions/${s.sessionId}/result`),
  session().map((s) => `/sessions/${s.sessionId}/verify`),
  fc.string({ unit: urlChars, maxLength: 40 }).map((tail) => `/sessions/${tail}/result`),
  fc.string({ unit: urlChars, maxLength: 60 }).map((tail) => `/${tail}`),
  fc
    .dictionary(fc.constantFrom('chainId', 'tokenAddress', 'account', 'decimals', 'x'), printable)
    .map((q) => `/balances?${new URLSearchParams(q)}`),
)

const chain = fc.oneof(
  fc.constantFrom(
    'eip155:1',
    'eip155:8453',
    'eip155:999999',
    'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  ),
  printable,
)
const field = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  printable,
  fc.integer(),
  fc.constant('x'.repeat(5_000)),
)
/** Plausible bodies with one or more fields wrong, plus pure garbage. */
const jsonBody = fc
  .oneof(
    fc.record(
      {
        sessionId: fc.oneof(
          session().map((s) => s.sessionId),
          field,
        ),
        caip2Chain: chain,
        walletSlug: fc.oneof(fc.constantFrom('metamask', 'phantom', 'okx', 'Nope'), field),
        walletAddress: fc.oneof(
          fc.constant(wallet.address),
          fc.constant(evmWallet().address),
          field,
        ),
        signature: fc.oneof(fc.constant(`0x${'ab'.repeat(65)}`), field),
        timestamp: fc.oneof(fc.constant(Date.now()), fc.integer(), fc.double(), field),
        publicKey: field,
        txSignature: field,
        errorCode: fc.oneof(fc.constantFrom('USER_REJECTED', 'FAILED'), field),
        intent: fc.oneof(fc.constantFrom('connect', 'sign', 'transaction'), field),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 4 }),
  )
  .map((value) => JSON.stringify(value))
const body = fc.option(
  fc.oneof(
    jsonBody,
    printable,
    fc.constantFrom('{', '{"a":', '[1,2', 'null', '""', '{"__proto__":{"x":1}}', '\u0000'),
    fc.nat({ max: 40_000 }).map((n) => `{"pad":"${'y'.repeat(n)}"}`),
  ),
  { nil: undefined },
)
const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'garbage',
    ),
    'x-app-key': fc.oneof(fc.constant('test-app-key'), printable),
    authorization: fc.oneof(
      session().map((s) => `Bearer ${s.sessionToken}`),
      printable.map((t) => `Bearer ${t}`),
      printable,
    ),
    origin: fc.constantFrom('https://dapp.example', 'null', 'http://localhost:3000'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1, 10.0.0.1', 'garbage'),
  },
  { requiredKeys: [] },
)
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD')
const remoteAddress = fc.constantFrom('127.0.0.1', '198.51.100.7', '2001:db8::1', '::ffff:10.0.0.1')

/** `call`'s path convention (API prefix unless the path starts with `//`), in process. */
async function inject(
  m: string,
  p: string,
  h: Record<string, string>,
  b: string | undefined,
  ip: string,
) {
  const url = p.startsWith('//') ? p.slice(1) : API_PREFIX + p
  const headers = { ...h }
  if (b === undefined) delete headers['content-type']
  const answer = await server.app.inject({
    method: m as 'GET',
    url,
    headers,
    remoteAddress: ip,
    ...(b === undefined ? {} : { payload: b }),
  })
  let body: unknown = answer.body === '' ? undefined : answer.body
  try {
    body = answer.body === '' ? undefined : JSON.parse(answer.body)
  } catch {}
  return { status: answer.statusCode, body }
}

describe('fuzz: malformed requests across every route', () => {
  it(`never answers 5xx and every error body is the wire shape (${RUNS} requests)`, async () => {
    const seen = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(method, path, headers, body, remoteAddress, async (m, p, h, b, ip) => {
        const canHaveBody = m !== 'GET' && m !== 'HEAD'
        const answer = await inject(
          m,
          p,
          h as Record<string, string>,
          canHaveBody ? b : undefined,
          ip,
        )
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1)
        expect(answer.status, `${m} ${p} → ${JSON.stringify(answer.body)}`).toBeLessThan(500)
        if (answer.status >= 400 && m !== 'HEAD') {
          const parsed = ErrorBodySchema.safeParse(answer.body)
          expect(parsed.success, `${m} ${p} → ${JSON.stringify(answer.body)}`).toBe(true)
          if (parsed.success && parsed.data.error.details) expect(answer.status).toBe(422)
        }
      }),
      { numRuns: RUNS },
    )
    // The run reached past the front door: several kinds of refusal and some successes.
    for (const status of [200, 204, 401, 404, 422]) expect(seen.get(status) ?? 0).toBeGreaterThan(0)
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBe(RUNS)
    expect([...seen.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(5)

    const health = await call(server.baseUrl, '//healthz')
    expect(health.status).toBe(200)
    const fresh = await createTestSession(server.baseUrl)
    const result = await call(server.baseUrl, `/sessions/${fresh.sessionId}/result`, {
      headers: { authorization: `Bearer ${fresh.sessionToken}` },
    })
    expect(result.status).toBe(200)
    expect(API_PREFIX).toBe('/api/v1/connect')
  }, 120_000)
})
