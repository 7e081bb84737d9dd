import fc from 'fast-check'
import { correction, generate } from 'lean-qr/nano'
import { describe, expect, it } from 'vitest'
import { type PairingQrOptions, pairingQrSvg } from '../../src/qr'
import { createPairing } from '../../src/relay'
import { rasterizeQrSvg, readQr } from '../support/qr-image'

// Our encoder (pairingQrSvg, on lean-qr) against a decoder we did not write (jsQR): the SVG the modal
// paints, rasterised module by module (test/support/qr-image.ts, a strict parser of the SVG's
// shape), must decode to the exact URI. In Chromium the same holds for the painted modal
// (test/browser/walletconnect.browser.test.ts).

/** The scale that paints whole pixels: 4 pixels a module (jsQR reads that well, and fast). */
const scaleOf = (pixelSize: number) => 4 / pixelSize

/**
 * jsQR cannot read version-23 codes (cozmo/jsQR#251: its table puts the fourth alignment centre at
 * 74 instead of ISO 18004's 78), so the properties skip inputs that encode at version 23; the last
 * test checks our version-23 code against the standard's positions instead.
 */
const versionOf = (uri: string, ecc: PairingQrOptions['ecc'] = 'L') =>
  (generate(uri, { minCorrectionLevel: correction[ecc] }).size - 17) / 4
const jsQrReads = (uri: string, ecc: PairingQrOptions['ecc'] = 'L') => versionOf(uri, ecc) !== 23

function decoded(uri: string, options: PairingQrOptions = {}): string | null {
  const svg = pairingQrSvg(uri, options)
  return readQr(rasterizeQrSvg(svg, scaleOf(options.pixelSize ?? 8)))
}

const hex = (length: number) =>
  fc
    .uint8Array({ minLength: length / 2, maxLength: length / 2 })
    .map((bytes) => Buffer.from(bytes).toString('hex'))

/** `wc:` URIs as sign-client 2.x writes them: topic, version 2, its parameters in any order. */
const wcUri = fc
  .record({
    topic: hex(64),
    symKey: hex(64),
    expiry: fc.integer({ min: 1_700_000_000, max: 2_100_000_000 }),
    extra: fc.shuffledSubarray([
      'methods=[wc_sessionPropose],[wc_authRequest,wc_authBatchRequest]',
      'relay-data=7b2270726f6a6563744964223a2274657374227d',
      'methods=[wc_sessionPropose]',
    ]),
  })
  .chain(({ topic, symKey, expiry, extra }) =>
    fc
      .shuffledSubarray(
        [`expiryTimestamp=${expiry}`, 'relay-protocol=irn', `symKey=${symKey}`, ...extra],
        { minLength: 3 + extra.length },
      )
      .map((params) => `wc:${topic}@2?${params.join('&')}`),
  )

/** Any URI text: the characters a URI may hold (RFC 3986, with `%` escapes), up to 1200 long. */
const URI_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...`-._~:/?#[]@!$&'()*+,;=%`,
]
const anyUri = fc
  .string({ unit: fc.constantFrom(...URI_CHARS), minLength: 1, maxLength: 1200 })
  .map((rest) => `wc:${rest}`)

const options = fc.record(
  {
    ecc: fc.constantFrom('L', 'M', 'Q', 'H'),
    pixelSize: fc.constantFrom(1, 2, 4, 8),
    border: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<PairingQrOptions>

describe('pairingQrSvg decodes with jsQR to its exact input', () => {
  it('WalletConnect pairing URIs as sign-client writes them, at every error correction', () => {
    fc.assert(
      fc.property(wcUri, options, (uri, opts) => {
        fc.pre(jsQrReads(uri, opts.ecc))
        expect(decoded(uri, opts)).toBe(uri)
      }),
      { numRuns: 40 },
    )
  })

  it('any URI text up to 1200 characters (the modal’s default options)', () => {
    fc.assert(
      fc.property(anyUri, (uri) => {
        fc.pre(jsQrReads(uri))
        expect(decoded(uri)).toBe(uri)
      }),
      { numRuns: 40 },
    )
  })

  it('a scope relay pairing URI, and the largest codes (version 40 at L and at H)', () => {
    const { uri } = createPairing('wss://relay.example.com/api/v1/connect/relay', {
      expiryTimestamp: 1_800_000_000,
    })
    expect(decoded(uri)).toBe(uri)
    // The most a version-40 code holds: its data codewords less the UTF-8 ECI and byte-mode header.
    const atL = `wc:${'a1'.repeat(1474)}a`
    expect([atL.length, versionOf(atL)]).toEqual([2952, 40])
    expect(decoded(atL, { pixelSize: 4 })).toBe(atL)
    const atH = `wc:${'b2'.repeat(634)}b`
    expect([atH.length, versionOf(atH, 'H')]).toEqual([1272, 40])
    expect(decoded(atH, { ecc: 'H', pixelSize: 4 })).toBe(atH)
  })

  it('the rasteriser is strict: a code painted wrong does not decode to the input', () => {
    const uri = 'wc:0123456789abcdef@2?relay-protocol=irn&symKey=00'
    const image = rasterizeQrSvg(pairingQrSvg(uri), 0.5)
    expect(readQr(image)).toBe(uri)
    // Blank a finder pattern (the top-left 7×7 modules inside the 2-module quiet zone).
    for (let row = 8; row < 36; row++)
      for (let col = 8; col < 36; col++)
        image.data.fill(255, (row * image.width + col) * 4, (row * image.width + col) * 4 + 3)
    expect(readQr(image)).toBeNull()
    expect(() => rasterizeQrSvg('<svg xmlns="http://www.w3.org/2000/svg"/>')).toThrow(/shape/)
  })

  it('a version-23 code (which jsQR misreads) has its alignment patterns where ISO 18004 puts them', () => {
    const uri = `wc:${'c3'.repeat(510)}`
    const code = generate(uri, { minCorrectionLevel: correction.L })
    const size = code.size
    expect(versionOf(uri)).toBe(23)
    expect(pairingQrSvg(uri)).toContain(`viewBox="0 0 ${(size + 4) * 8} ${(size + 4) * 8}"`)
    const centres = [6, 30, 54, 78, 102] // Annex E, table E.1
    const isAlignment = (x: number, y: number) => {
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const ring = Math.max(Math.abs(dx), Math.abs(dy))
          if (code.get(x + dx, y + dy) !== (ring !== 1)) return false
        }
      return true
    }
    for (const x of centres)
      for (const y of centres) {
        const finder = (x === 6 && y === 6) || (x === 6 && y === 102) || (x === 102 && y === 6)
        if (!finder) expect(isAlignment(x, y), `alignment at ${x},${y}`).toBe(true)
      }
    expect(isAlignment(74, 54)).toBe(false) // where jsQR looks
  })
})
