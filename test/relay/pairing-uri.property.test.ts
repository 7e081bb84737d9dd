import { bytesToHex } from '@noble/hashes/utils.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import { buildPairingUri, createPairing, parsePairingUri } from '../../src/relay'

const topicArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b))
const keyArb = fc.uint8Array({ minLength: 32, maxLength: 32 })
/** fc.webUrl (http/https, with paths, queries, IDN-free domains, ports) rewritten to ws/wss. */
const relayUrlArb = fc
  .tuple(
    fc.webUrl({ withQueryParameters: true, authoritySettings: { withPort: true } }),
    fc.boolean(),
  )
  .map(([url, secure]) => url.replace(/^https?:/, secure ? 'wss:' : 'ws:'))
  .filter((url) => url.length < 1000)

/**
 * The contract: parsePairingUri returns, or throws an INVALID_CONFIG AppError; nothing else. The
 * error must also name the broken part (`details`), which proves it came from a deliberate check and
 * not from the defensive catch-all around the parser.
 */
function parsesOrInvalidConfig(input: unknown): boolean {
  try {
    parsePairingUri(input as string)
    return true
  } catch (error) {
    return isAppError(error, 'INVALID_CONFIG') && error.details?.length === 1
  }
}

const VALID = buildPairingUri('0f'.repeat(32), new Uint8Array(32).fill(7), 'wss://relay.example')

/** Valid URIs with characters inserted, deleted or replaced at random positions. */
const mutatedUriArb = fc
  .tuple(
    fc.constantFrom(VALID, buildPairingUri('a1'.repeat(32), new Uint8Array(32), 'ws://[::1]:80/r')),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 4 }),
        fc.oneof(
          fc.string({ maxLength: 3 }),
          fc.constantFrom('%', '%E', '%ED%A0%80', '&', '=', '?', '@', '#', ':', '\uD800', '\u0000'),
        ),
      ),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([uri, edits]) =>
    edits.reduce((out, [at, remove, insert]) => {
      const i = at % (out.length + 1)
      return out.slice(0, i) + insert + out.slice(i + remove)
    }, uri),
  )

describe('pairing URI properties', () => {
  it('round-trips topic, key and relay url through build and parse', () => {
    fc.assert(
      fc.property(topicArb, keyArb, relayUrlArb, (topic, key, relayUrl) => {
        const parsed = parsePairingUri(buildPairingUri(topic, key, relayUrl))
        expect(parsed.pairingTopic).toBe(topic)
        expect(parsed.symKeyP).toEqual(key)
        expect(parsed.relayUrl).toBe(relayUrl)
        expect(parsed.version).toBe(1)
        expect(parsed.relayProtocol).toBe('scr')
      }),
      { numRuns: 300 },
    )
  })

  it('round-trips createPairing for arbitrary relay urls', () => {
    fc.assert(
      fc.property(relayUrlArb, (relayUrl) => {
        const pairing = createPairing(relayUrl)
        const parsed = parsePairingUri(pairing.uri)
        expect(parsed.pairingTopic).toBe(pairing.pairingTopic)
        expect(parsed.symKeyP).toEqual(pairing.symKeyP)
        expect(parsed.relayUrl).toBe(relayUrl)
      }),
      { numRuns: 200 },
    )
  })

  it('never throws anything but INVALID_CONFIG on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), parsesOrInvalidConfig), { numRuns: 2000 })
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), parsesOrInvalidConfig), {
      numRuns: 2000,
    })
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 100 }), parsesOrInvalidConfig),
      { numRuns: 500 },
    )
  })

  it('never throws anything but INVALID_CONFIG on strings that start like a pairing URI', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        (tail) => parsesOrInvalidConfig(`scope:${tail}`) && parsesOrInvalidConfig(VALID + tail),
      ),
      { numRuns: 1000 },
    )
  })

  it('never throws anything but INVALID_CONFIG on mutated valid URIs', () => {
    fc.assert(fc.property(mutatedUriArb, parsesOrInvalidConfig), { numRuns: 3000 })
  })

  it('never throws anything but INVALID_CONFIG on non-string input', () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => typeof v !== 'string'),
        (value) => {
          expect(parsesOrInvalidConfig(value)).toBe(true)
          expect(() => parsePairingUri(value as string)).toThrow(/pairing URI/)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('accepts a mutated URI only when it still parses to a valid pairing', () => {
    fc.assert(
      fc.property(mutatedUriArb, (uri) => {
        let parsed: ReturnType<typeof parsePairingUri>
        try {
          parsed = parsePairingUri(uri)
        } catch {
          return
        }
        expect(parsed.pairingTopic).toMatch(/^[0-9a-f]{64}$/)
        expect(parsed.symKeyP).toHaveLength(32)
        expect(parsed.relayUrl).toMatch(/^wss?:\/\//)
        // Whatever parses must build again (and parse to the same values).
        const again = parsePairingUri(
          buildPairingUri(parsed.pairingTopic, parsed.symKeyP, parsed.relayUrl),
        )
        expect(again).toEqual(parsed)
      }),
      { numRuns: 3000 },
    )
  })
})
