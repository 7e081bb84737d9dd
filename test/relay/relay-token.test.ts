import { afterEach, describe, expect, it, vi } from 'vitest'
import { RELAY_TOKEN_EXPIRY_MARGIN_MS, relayTokenExpired } from '../../src/relay'

const grant = { token: 'relay-token-0123456789', expiresAt: 1_000_000 }

describe('relayTokenExpired', () => {
  it('uses a 5 second margin', () => {
    expect(RELAY_TOKEN_EXPIRY_MARGIN_MS).toBe(5000)
  })

  it('is false before expiresAt - 5000', () => {
    expect(relayTokenExpired(grant, 1_000_000 - 5001)).toBe(false)
    expect(relayTokenExpired(grant, 0)).toBe(false)
  })

  it('is true from expiresAt - 5000 on', () => {
    expect(relayTokenExpired(grant, 1_000_000 - 5000)).toBe(true)
    expect(relayTokenExpired(grant, 1_000_000 - 1)).toBe(true)
    expect(relayTokenExpired(grant, 1_000_000)).toBe(true)
    expect(relayTokenExpired(grant, 2_000_000)).toBe(true)
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('defaults nowMs to Date.now()', () => {
    vi.useFakeTimers({ now: 1_000_000 - 5001 })
    expect(relayTokenExpired(grant)).toBe(false)
    vi.setSystemTime(1_000_000 - 5000)
    expect(relayTokenExpired(grant)).toBe(true)
  })

  it.each([
    ['NaN expiresAt', { token: 't', expiresAt: Number.NaN }],
    ['Infinity expiresAt', { token: 't', expiresAt: Number.POSITIVE_INFINITY }],
    ['string expiresAt', { token: 't', expiresAt: '2000000' }],
    ['missing expiresAt', { token: 't' }],
    ['null grant', null],
    ['undefined grant', undefined],
  ])('counts a grant with %s as expired (refresh it) instead of throwing', (_, bad) => {
    expect(relayTokenExpired(bad as never, 0)).toBe(true)
  })

  it('counts a NaN clock as expired', () => {
    expect(relayTokenExpired(grant, Number.NaN)).toBe(true)
  })
})
