import { bytesToHex } from '@noble/hashes/utils.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import { createPairing, parsePairingUri } from '../../src/relay'

describe('createPairing', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('returns a 32-byte lower-case hex topic, a 32-byte key and a parseable URI', () => {
    const pairing = createPairing('wss://relay.example.com')
    expect(pairing.pairingTopic).toMatch(/^[0-9a-f]{64}$/)
    expect(pairing.symKeyP).toBeInstanceOf(Uint8Array)
    expect(pairing.symKeyP).toHaveLength(32)
    const parsed = parsePairingUri(pairing.uri)
    expect(parsed.pairingTopic).toBe(pairing.pairingTopic)
    expect(parsed.symKeyP).toEqual(pairing.symKeyP)
    expect(parsed.relayUrl).toBe('wss://relay.example.com')
  })

  it('draws topic and key from crypto.getRandomValues', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues')
    const pairing = createPairing('wss://relay.example.com')
    expect(spy).toHaveBeenCalledTimes(2)
    const [topicBytes, keyBytes] = spy.mock.results.map((r) => r.value as Uint8Array)
    expect(pairing.pairingTopic).toBe(bytesToHex(topicBytes!))
    expect(pairing.symKeyP).toBe(keyBytes)
  })

  it('gives distinct topics and keys across calls, and topic differs from key', () => {
    const pairings = Array.from({ length: 200 }, () => createPairing('wss://relay.example.com'))
    const topics = new Set(pairings.map((p) => p.pairingTopic))
    const keys = new Set(pairings.map((p) => bytesToHex(p.symKeyP)))
    expect(topics.size).toBe(200)
    expect(keys.size).toBe(200)
    for (const p of pairings) expect(bytesToHex(p.symKeyP)).not.toBe(p.pairingTopic)
  })

  it.each(['https://relay.example.com', 'relay.example.com', '', 'wss://'])(
    'refuses relay url %j before drawing randomness',
    (url) => {
      const spy = vi.spyOn(globalThis.crypto, 'getRandomValues')
      let caught: unknown
      try {
        createPairing(url)
      } catch (error) {
        caught = error
      }
      expect(isAppError(caught, 'INVALID_CONFIG')).toBe(true)
      expect((caught as { details?: { field: string }[] }).details?.[0]?.field).toBe('relayUrl')
      expect(spy).not.toHaveBeenCalled()
    },
  )
})
