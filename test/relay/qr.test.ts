import { correction, generate } from 'lean-qr/nano'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import { pairingQrSvg } from '../../src/qr'
import { createPairing } from '../../src/relay'

describe('pairingQrSvg', () => {
  const { uri } = createPairing('wss://relay.example.com/api/v1/connect/relay', {
    expiryTimestamp: 1_800_000_000,
  })

  it('renders the URI as an SVG whose modules are the QR code of the URI', () => {
    const svg = pairingQrSvg(uri)
    expect(svg.startsWith('<svg')).toBe(true)
    const code = generate(uri, { minCorrectionLevel: correction.L })
    const side = (code.size + 4) * 8 // the 2-module quiet zone on each side
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`)
    let dark = 0
    for (let y = 0; y < code.size; y++) for (let x = 0; x < code.size; x++) dark += +code.get(x, y)
    expect(svg.match(/M\d+,\d+h8v8h-8z/g)?.length).toBe(dark)
    expect(svg).not.toContain(uri) // the key travels only inside the code
  })

  it('takes colours, size and error correction', () => {
    const svg = pairingQrSvg(uri, {
      foreground: '#112233',
      background: 'ivory',
      pixelSize: 4,
      ecc: 'M',
    })
    expect(svg).toContain('#112233')
    expect(svg).toContain('ivory')
    expect(pairingQrSvg(uri, { ecc: 'H' }).length).toBeGreaterThan(pairingQrSvg(uri).length)
  })

  it('refuses markup in colours, bad sizes and empty or huge input', () => {
    for (const bad of [
      () => pairingQrSvg(uri, { foreground: 'red" onload="alert(1)' }),
      () => pairingQrSvg(uri, { pixelSize: 0 }),
      () => pairingQrSvg(uri, { border: -1 }),
      () => pairingQrSvg(''),
      () => pairingQrSvg('x'.repeat(4097)),
      // Past a version-40 code's capacity (2952 bytes at L, 1272 at H): lean-qr's error before.
      () => pairingQrSvg('x'.repeat(2953)),
      () => pairingQrSvg('x'.repeat(1273), { ecc: 'H' }),
      () => pairingQrSvg(uri, { ecc: 'X' as 'L' }),
      () => pairingQrSvg(uri, null as never),
    ]) {
      try {
        bad()
        throw new Error('accepted')
      } catch (error) {
        expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
      }
    }
  })
})
