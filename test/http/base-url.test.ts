import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import { isLocalDevelopmentHost, normalizeBaseUrl } from '../../src/http/base-url'
import { parseRetryAfter } from '../../src/http/retry-after'

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com///', 'https://api.example.com'],
    ['https://api.example.com/api/v1', 'https://api.example.com'],
    ['https://api.example.com/api/v1/', 'https://api.example.com'],
    ['https://api.example.com/api/v1/connect', 'https://api.example.com'],
    ['https://api.example.com/api/v1/connect/', 'https://api.example.com'],
    ['https://api.example.com/base', 'https://api.example.com/base'],
    ['https://api.example.com/base/api/v1', 'https://api.example.com/base'],
    ['https://api.example.com/api/v12', 'https://api.example.com/api/v12'],
    ['https://API.Example.com:8443/x/', 'https://api.example.com:8443/x'],
    ['  https://api.example.com/api/v1/  ', 'https://api.example.com'],
    ['http://localhost:8787', 'http://localhost:8787'],
    ['http://localhost:8787/api/v1/', 'http://localhost:8787'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['http://app.localhost', 'http://app.localhost'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected)
  })

  it.each([
    ['', 'required'],
    ['   ', 'required'],
    [undefined, 'required'],
    ['api.example.com', 'absolute'],
    ['/api/v1', 'absolute'],
    ['ftp://api.example.com', 'https'],
    ['http://api.example.com', 'local development'],
    ['http://192.168.1.10:8787', 'local development'],
    ['http://localhost.example.com', 'local development'],
    ['https://api.example.com/?x=1', 'query'],
    ['https://user:pw@api.example.com', 'credentials'],
  ])('rejects %j with INVALID_CONFIG', (input, reason) => {
    let caught: unknown
    try {
      normalizeBaseUrl(input)
    } catch (error) {
      caught = error
    }
    expect(isAppError(caught, 'INVALID_CONFIG')).toBe(true)
    expect((caught as Error).message).toContain(reason)
  })

  it('knows the local development hosts', () => {
    for (const host of ['localhost', 'LOCALHOST', 'a.localhost', '127.0.0.1', '[::1]']) {
      expect(isLocalDevelopmentHost(host)).toBe(true)
    }
    for (const host of ['127.0.0.2', 'localhost.evil.com', 'example.com', '10.0.0.1']) {
      expect(isLocalDevelopmentHost(host)).toBe(false)
    }
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-08-20T10:00:00Z')
  it.each([
    ['0', 0],
    ['1', 1000],
    [' 12 ', 12_000],
    ['Thu, 20 Aug 2026 10:00:30 GMT', 30_000],
    ['Thursday, 20-Aug-26 10:00:05 GMT', 5000],
    ['Thu, 20 Aug 2026 09:59:00 GMT', 0],
  ])('%j → %d ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms)
  })

  it.each([null, undefined, '', '-1', '1.5', 'soon', '12abc'])('%j → undefined', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined()
  })
})
