import { ed25519 } from '@noble/curves/ed25519.js'
import { base64urlnopad } from '@scure/base'
import { API_PREFIX, ErrorBodySchema, RelayTokenResponseSchema, ROUTES } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createRelayTokenSigner,
  generateRelaySigningKey,
  parseRelaySigningKeys,
  RelayTokenError,
} from '../../src/relay/token'
import { call } from '../support/http'
import { connectRelay, refusedUpgrade, relayUrl } from '../support/relay-client'
import {
  OTHER_APP_KEY,
  startTestServer,
  TEST_APP_KEY,
  TEST_PROJECT,
  TEST_PROJECTS,
  type TestServer,
} from '../support/server'

const ENDPOINTS = {
  issuer: 'https://api.example',
  audience: 'wss://api.example/api/v1/connect/relay',
}
const HOUR_S = 3600

const reasonOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof RelayTokenError) return error.reason
    throw error
  }
  return 'accepted'
}

const decodePart = (part: string) =>
  JSON.parse(new TextDecoder().decode(base64urlnopad.decode(part))) as Record<string, unknown>
const encodePart = (value: object) =>
  base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)))

describe('relay token signer (EdDSA JWT)', () => {
  const seed = generateRelaySigningKey()
  let now = 1_800_000_000_000
  const signer = createRelayTokenSigner({ seeds: [seed], ttlSeconds: HOUR_S, now: () => now })

  it('issues a compact JWS verifiable with the public key, with the documented claims', () => {
    const grant = signer.issue(ENDPOINTS)
    const [header, claims, signature] = grant.token.split('.') as [string, string, string]
    expect(decodePart(header)).toMatchObject({ alg: 'EdDSA', typ: 'JWT', kid: expect.any(String) })
    expect(decodePart(claims)).toEqual({
      iss: ENDPOINTS.issuer,
      sub: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      aud: ENDPOINTS.audience,
      iat: now / 1000,
      exp: now / 1000 + HOUR_S,
    })
    expect(grant.expiresAt).toBe(now + HOUR_S * 1000)
    const valid = ed25519.verify(
      base64urlnopad.decode(signature),
      new TextEncoder().encode(`${header}.${claims}`),
      ed25519.getPublicKey(seed),
    )
    expect(valid).toBe(true)
    expect(signer.verify(grant.token, ENDPOINTS).sub).toBe(decodePart(claims).sub)
    // Every grant names a new client.
    expect(decodePart(signer.issue(ENDPOINTS).token.split('.')[1]!).sub).not.toBe(
      decodePart(claims).sub,
    )
  })

  it('refuses forged, tampered, expired, foreign and malformed tokens', () => {
    const { token } = signer.issue(ENDPOINTS)
    const [header, claims, signature] = token.split('.') as [string, string, string]
    const forger = createRelayTokenSigner({
      seeds: [generateRelaySigningKey()],
      ttlSeconds: HOUR_S,
      now: () => now,
    })
    expect(reasonOf(() => signer.verify(forger.issue(ENDPOINTS).token, ENDPOINTS))).toBe(
      'unknown-key',
    )
    // A forger that copies our kid still cannot sign.
    const [, forgedClaims, forgedSignature] = forger.issue(ENDPOINTS).token.split('.')
    expect(
      reasonOf(() => signer.verify(`${header}.${forgedClaims}.${forgedSignature}`, ENDPOINTS)),
    ).toBe('bad-signature')
    const longer = encodePart({ ...decodePart(claims), exp: now / 1000 + 100 * HOUR_S })
    expect(reasonOf(() => signer.verify(`${header}.${longer}.${signature}`, ENDPOINTS))).toBe(
      'bad-signature',
    )
    const none = encodePart({ ...decodePart(header), alg: 'none' })
    expect(reasonOf(() => signer.verify(`${none}.${claims}.`, ENDPOINTS))).toBe('malformed')
    expect(reasonOf(() => signer.verify(`${header}.${claims}`, ENDPOINTS))).toBe('malformed')
    expect(reasonOf(() => signer.verify('x'.repeat(5000), ENDPOINTS))).toBe('malformed')
    expect(reasonOf(() => signer.verify(undefined, ENDPOINTS))).toBe('missing')
    expect(reasonOf(() => signer.verify(['a', 'b'], ENDPOINTS))).toBe('missing')
    expect(
      reasonOf(() => signer.verify(token, { ...ENDPOINTS, audience: 'wss://other/relay' })),
    ).toBe('claims')
    expect(reasonOf(() => signer.verify(token, { ...ENDPOINTS, issuer: 'https://other' }))).toBe(
      'claims',
    )

    const saved = now
    now += HOUR_S * 1000 - 1
    expect(reasonOf(() => signer.verify(token, ENDPOINTS))).toBe('accepted')
    now += 1
    expect(reasonOf(() => signer.verify(token, ENDPOINTS))).toBe('expired')
    now = saved
  })

  it('rotation: the first key signs, the others still verify', () => {
    const oldSeed = generateRelaySigningKey()
    const old = createRelayTokenSigner({ seeds: [oldSeed], ttlSeconds: HOUR_S, now: () => now })
    const rotated = createRelayTokenSigner({
      seeds: [seed, oldSeed],
      ttlSeconds: HOUR_S,
      now: () => now,
    })
    expect(reasonOf(() => rotated.verify(old.issue(ENDPOINTS).token, ENDPOINTS))).toBe('accepted')
    expect(reasonOf(() => signer.verify(rotated.issue(ENDPOINTS).token, ENDPOINTS))).toBe(
      'accepted',
    )
  })

  it('parses --relay-key: base64url 32-byte seeds, comma list, padding optional', () => {
    const a = generateRelaySigningKey()
    const b = generateRelaySigningKey()
    const text = `${Buffer.from(a).toString('base64url')}, ${Buffer.from(b).toString('base64url')}=`
    expect(parseRelaySigningKeys(text)).toEqual([a, b])
    expect(() => parseRelaySigningKeys('')).toThrow('empty')
    expect(() => parseRelaySigningKeys('abc')).toThrow('expected 32')
    expect(() => parseRelaySigningKeys('!!!!')).toThrow('not base64url')
  })
})

describe('POST /relay/token', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      projects: {
        projects: [
          { ...TEST_PROJECT, rateLimits: { appKey: { limit: 3, windowSeconds: 60 } } },
          ...TEST_PROJECTS.projects.slice(1),
        ],
      },
    })
  })
  afterAll(() => server?.close())

  it('grants a token for an hour, limited like /config, never cached', async () => {
    const before = Date.now()
    const answer = await call(server.baseUrl, ROUTES.relayToken, {
      method: 'POST',
      headers: { 'x-app-key': TEST_APP_KEY },
    })
    expect(answer.status).toBe(200)
    const grant = RelayTokenResponseSchema.parse(answer.body)
    expect(grant.expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + HOUR_S * 1000)
    expect(grant.expiresAt).toBeLessThanOrEqual(Date.now() + HOUR_S * 1000)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.headers.get('ratelimit-policy')).toMatch(/q=3;w=60/)
    const host = new URL(server.baseUrl).host
    expect(decodePart(grant.token.split('.')[1]!)).toMatchObject({
      iss: `http://${host}`,
      aud: `ws://${host}${API_PREFIX}${ROUTES.relay}`,
    })

    await call(server.baseUrl, ROUTES.relayToken, {
      method: 'POST',
      headers: { 'x-app-key': TEST_APP_KEY },
    })
    await call(server.baseUrl, ROUTES.relayToken, {
      method: 'POST',
      headers: { 'x-app-key': TEST_APP_KEY },
    })
    const limited = await call(server.baseUrl, ROUTES.relayToken, {
      method: 'POST',
      headers: { 'x-app-key': TEST_APP_KEY },
    })
    expect(limited.status).toBe(429)
    expect(ErrorBodySchema.parse(limited.body).error.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it.each([
    ['no app key', {}, 401, 'MISSING_APP_KEY'],
    ['an unknown app key', { 'x-app-key': 'unknown-key-0001' }, 401, 'INVALID_APP_KEY'],
    [
      'an origin the project does not allow',
      { 'x-app-key': OTHER_APP_KEY, origin: 'https://evil.example' },
      403,
      'ORIGIN_NOT_ALLOWED',
    ],
  ])('%s: %i %s', async (_name, headers, status, code) => {
    const answer = await call(server.baseUrl, ROUTES.relayToken, { method: 'POST', headers })
    expect(answer.status).toBe(status)
    expect(ErrorBodySchema.parse(answer.body).error.code).toBe(code)
  })
})

describe('GET /relay upgrade', () => {
  const seed = generateRelaySigningKey()
  let server: TestServer
  let host: string
  const endpointsOf = (base: string) => ({
    issuer: `http://${new URL(base).host}`,
    audience: `ws://${new URL(base).host}${API_PREFIX}${ROUTES.relay}`,
  })

  beforeAll(async () => {
    server = await startTestServer({
      relay: { signingKeys: [seed], limits: { maxSocketsPerIp: 3 } },
    })
    host = server.baseUrl
  })
  afterAll(() => server?.close())

  const expectRefused = async (token: string | undefined, message: RegExp) => {
    const refusal = await refusedUpgrade(relayUrl(host, token))
    expect(refusal.status).toBe(401)
    const body = ErrorBodySchema.parse(refusal.body)
    expect(body.error.code).toBe('INVALID_RELAY_TOKEN')
    expect(body.error.message).toMatch(message)
  }

  it('refuses a missing, malformed, forged, expired or foreign token with 401 INVALID_RELAY_TOKEN', async () => {
    await expectRefused(undefined, /missing/)
    await expectRefused('', /missing/)
    await expectRefused('not.a.token', /malformed/)
    const forger = createRelayTokenSigner({
      seeds: [generateRelaySigningKey()],
      ttlSeconds: HOUR_S,
      now: Date.now,
    })
    await expectRefused(forger.issue(endpointsOf(host)).token, /not signed here/)
    const past = createRelayTokenSigner({
      seeds: [seed],
      ttlSeconds: HOUR_S,
      now: () => Date.now() - 2 * HOUR_S * 1000,
    })
    await expectRefused(past.issue(endpointsOf(host)).token, /expired/)
    const ours = createRelayTokenSigner({ seeds: [seed], ttlSeconds: HOUR_S, now: Date.now })
    await expectRefused(
      ours.issue({ ...endpointsOf(host), audience: 'wss://elsewhere/relay' }).token,
      /another relay/,
    )
    // The same key and the right claims: accepted.
    const client = await connectRelay(host, { token: ours.issue(endpointsOf(host)).token })
    expect(await client.request('scr_ping')).toBe(true)
    client.close()
  })

  it('answers a plain GET with 426 UPGRADE_REQUIRED', async () => {
    const answer = await call(host, ROUTES.relay)
    expect(answer.status).toBe(426)
    expect(ErrorBodySchema.parse(answer.body).error.code).toBe('UPGRADE_REQUIRED')
    expect(answer.headers.get('upgrade')).toBe('websocket')
  })

  it('caps open sockets per IP (429), and frees a slot when a socket closes', async () => {
    const open = await Promise.all([1, 2, 3].map(() => connectRelay(host)))
    const { token } = (await await fetch(`${host}${API_PREFIX}${ROUTES.relayToken}`, {
      method: 'POST',
      headers: { 'x-app-key': TEST_APP_KEY },
    }).then((r) => r.json())) as { token: string }
    const refusal = await refusedUpgrade(relayUrl(host, token))
    expect(refusal.status).toBe(429)
    expect(ErrorBodySchema.parse(refusal.body).error.code).toBe('RATE_LIMITED')
    expect(refusal.headers['retry-after']).toMatch(/^\d+$/)

    open[0]!.close()
    await open[0]!.closed
    // The server side sees the close a moment later.
    let client: Awaited<ReturnType<typeof connectRelay>> | undefined
    for (let attempt = 0; attempt < 250 && !client; attempt++) {
      client = await connectRelay(host, { token }).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return undefined
      })
    }
    expect(await client!.request('scr_ping')).toBe(true)
    for (const socket of [client!, ...open.slice(1)]) socket.close()
  })
})

describe('--public-url', () => {
  it('sets the audience and issuer; a token for it works whatever Host the client used', async () => {
    const server = await startTestServer({
      relay: { publicUrl: 'https://relay.example/base/' },
    })
    try {
      const answer = await call(server.baseUrl, ROUTES.relayToken, {
        method: 'POST',
        headers: { 'x-app-key': TEST_APP_KEY },
      })
      const grant = RelayTokenResponseSchema.parse(answer.body)
      expect(decodePart(grant.token.split('.')[1]!)).toMatchObject({
        iss: 'https://relay.example/base',
        aud: `wss://relay.example/base${API_PREFIX}${ROUTES.relay}`,
      })
      const client = await connectRelay(server.baseUrl, { token: grant.token })
      expect(await client.request('scr_ping')).toBe(true)
      client.close()
    } finally {
      await server.close()
    }
    await expect(startTestServer({ relay: { publicUrl: 'ftp://x' } })).rejects.toThrow('public URL')
  })
})
