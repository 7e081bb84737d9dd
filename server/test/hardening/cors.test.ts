import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { OTHER_PROJECT, TEST_APP_KEY, TEST_PROJECT } from '../support/server'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

describe('CORS (finding 6: Origin: null was echoed back as allowed)', () => {
  it('never allows Origin: null, on a project without allowedOrigins, nor on the callbacks', async () => {
    // TEST_PROJECT lists no allowedOrigins: every real origin is allowed, null is not.
    app = await buildApp({ projects: { projects: [TEST_PROJECT] } })
    const config = await app.inject({
      url: '/api/v1/connect/config',
      headers: { 'x-app-key': TEST_APP_KEY, origin: 'null' },
    })
    expect(config.headers['access-control-allow-origin']).toBeUndefined()
    expect([config.statusCode, config.json().error.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED'])

    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/connect/config',
      headers: { origin: 'null', 'access-control-request-method': 'GET' },
    })
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    expect(preflight.statusCode).toBe(403)

    const callback = await app.inject({
      method: 'POST',
      url: '/api/v1/connect/callback/reject',
      headers: { origin: 'null' },
      payload: { sessionId: 'A'.repeat(22), errorCode: 'USER_REJECTED' },
    })
    expect(callback.headers['access-control-allow-origin']).toBeUndefined()

    // A real origin still gets the headers the browser needs.
    const real = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/connect/sessions/abc/result',
      headers: { origin: 'https://any.example', 'access-control-request-method': 'GET' },
    })
    expect(real.statusCode).toBe(204)
    expect(real.headers['access-control-allow-origin']).toBe('https://any.example')
    expect(real.headers['access-control-allow-headers']).toMatch(/x-session-nonce/)
    expect(real.headers['access-control-allow-headers']).toMatch(/if-none-match/)
  })

  it('a project that lists origins answers others 403 and sends them no CORS headers', async () => {
    app = await buildApp({ projects: { projects: [OTHER_PROJECT] } })
    const allowed = await app.inject({
      url: '/api/v1/connect/config',
      headers: { 'x-app-key': OTHER_PROJECT.appKeys[0]!, origin: 'https://other.example' },
    })
    expect(allowed.statusCode).toBe(200)
    expect(allowed.headers['access-control-allow-origin']).toBe('https://other.example')
    expect(allowed.headers['access-control-expose-headers']).toMatch(/ratelimit-policy/)
    const refused = await app.inject({
      url: '/api/v1/connect/config',
      headers: { 'x-app-key': OTHER_PROJECT.appKeys[0]!, origin: 'https://evil.example' },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
  })
})
