import { describe, expect, it } from 'vitest'
import {
  parsePersistedState,
  UNIVERSAL_LINK_STATE_FORMAT,
  UNIVERSAL_LINK_STATE_FORMAT_VERSION,
  type UniversalLinkPersistedState,
} from '../../src/universal-link'

const STATE: UniversalLinkPersistedState = {
  format: 'scope-connect/universal-link',
  formatVersion: 2,
  fingerprint: '0123456789abcdef',
  tokens: { 's-1': 'token-token-token' },
  savedAt: 0,
  expiresAt: 600_000,
  snapshot: { status: 'active', value: { awaitingWallet: 'polling' }, context: {} },
}

describe('parsePersistedState', () => {
  it('exposes the format tag and version', () => {
    expect(UNIVERSAL_LINK_STATE_FORMAT).toBe('scope-connect/universal-link')
    expect(UNIVERSAL_LINK_STATE_FORMAT_VERSION).toBe(2)
  })

  it('accepts a valid envelope and survives a JSON round trip', () => {
    expect(parsePersistedState(STATE)).toEqual(STATE)
    expect(parsePersistedState(JSON.parse(JSON.stringify(STATE)))).toEqual(STATE)
  })

  it('drops unknown top-level keys', () => {
    expect(parsePersistedState({ ...STATE, extra: 1 })).toEqual(STATE)
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', JSON.stringify(STATE)],
    ['an array', [STATE]],
    ['wrong format', { ...STATE, format: 'scope-connect/other' }],
    ['format version 1', { ...STATE, formatVersion: 1 }],
    ['format version as string', { ...STATE, formatVersion: '2' }],
    ['fingerprint not a string', { ...STATE, fingerprint: 1 }],
    ['a token that is not a string', { ...STATE, tokens: { s: 1 } }],
    ['no tokens', { ...STATE, tokens: undefined }],
    ['missing savedAt', { ...STATE, savedAt: undefined }],
    ['NaN expiresAt', { ...STATE, expiresAt: Number.NaN }],
    ['string expiresAt', { ...STATE, expiresAt: '600000' }],
    ['null snapshot', { ...STATE, snapshot: null }],
    ['array snapshot', { ...STATE, snapshot: [] }],
    ['number snapshot', { ...STATE, snapshot: 1 }],
    ['class-instance snapshot', { ...STATE, snapshot: new Date(0) }],
    ['unsafe-integer savedAt', { ...STATE, savedAt: 2 ** 53 }],
    ['infinite expiresAt', { ...STATE, expiresAt: Number.POSITIVE_INFINITY }],
  ])('returns null for %s', (_, value) => {
    expect(parsePersistedState(value)).toBeNull()
  })
})
