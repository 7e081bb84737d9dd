/**
 * QR images for tests, read with a REAL decoder (`jsqr`), so that our encoder (`pairingQrSvg`) and
 * what the modal paints are checked against a decoder we did not write:
 *
 * - `rasterizeQrSvg`: our encoder's SVG (a background `<rect>` and one `<path>` of `M x,y h v h z`
 *   squares, as a string or as a DOM serialises it back) painted into an RGBA bitmap. The parser is strict: any other shape of
 *   SVG throws, so a change of the encoder's output shows here instead of passing unread.
 * - `decodePng`: an 8-bit RGB/RGBA PNG (Chromium's screenshots) into RGBA pixels (node:zlib; no
 *   image package needed).
 * - `readQr`: jsQR over RGBA pixels, `null` when no code is found.
 */
import { inflateSync } from 'node:zlib'
import jsQR from 'jsqr'

/** RGBA pixels, 4 bytes a pixel, row by row (the layout of the DOM's `ImageData`). */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8ClampedArray
}

/** The text of the QR code in `image` (jsQR, both polarities tried), or `null`. */
export function readQr(image: RgbaImage): string | null {
  return (
    jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null
  )
}

const SQUARE = /^M(\d+),(\d+)h(\d+)v(\d+)h-(\d+)z/

/**
 * Paints our encoder's SVG (the shape above) into an RGBA bitmap, `scale` pixels per SVG unit
 * (fractions allowed where every coordinate stays whole: 0.5 for the default 8-unit modules).
 * Background pixels are white, module pixels black, whatever the SVG's colours.
 */
export function rasterizeQrSvg(svg: string, scale = 1): RgbaImage {
  const shape =
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) (\d+)"><rect fill="[^"]+" width="(\d+)" height="(\d+)"(?:\/>|><\/rect>)<path fill="[^"]+" d="([^"]*)"(?:\/>|><\/path>)<\/svg>$/.exec(
      svg,
    )
  if (!shape) throw new Error(`not the encoder's SVG shape: ${svg.slice(0, 200)}`)
  const [viewW, viewH, rectW, rectH] = shape.slice(1, 5).map(Number) as [
    number,
    number,
    number,
    number,
  ]
  if (rectW !== viewW || rectH !== viewH) throw new Error('the background does not fill the code')
  const px = (units: number) => {
    const value = units * scale
    if (!Number.isInteger(value)) throw new Error(`scale ${scale} splits a module (${units})`)
    return value
  }
  const width = px(viewW)
  const height = px(viewH)
  const data = new Uint8ClampedArray(width * height * 4).fill(255)
  let d = shape[5] ?? ''
  while (d !== '') {
    const square = SQUARE.exec(d)
    if (!square) throw new Error(`unexpected path data: ${d.slice(0, 40)}`)
    const [x, y, w, h, back] = square.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ]
    if (back !== w) throw new Error(`not a closed square: ${square[0]}`)
    if (x + w > viewW || y + h > viewH) throw new Error(`a module outside the code: ${square[0]}`)
    for (let row = px(y); row < px(y + h); row++) {
      for (let col = px(x); col < px(x + w); col++) {
        const at = (row * width + col) * 4
        data[at] = data[at + 1] = data[at + 2] = 0
      }
    }
    d = d.slice(square[0].length)
  }
  return { width, height, data }
}

/** Decodes a non-interlaced 8-bit RGB or RGBA PNG (as Chromium's screenshots are) into RGBA. */
export function decodePng(png: Uint8Array): RgbaImage {
  const bytes = Buffer.from(png)
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const idat: Buffer[] = []
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const body = bytes.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const [depth, colour, , , interlace] = body.subarray(8, 13)
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) {
        throw new Error(`PNG not 8-bit RGB/RGBA non-interlaced (${depth}, ${colour}, ${interlace})`)
      }
      channels = colour === 6 ? 4 : 3
    } else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const pixels = new Uint8Array(height * stride)
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)]
    const line = raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1))
    const out = row * stride
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (pixels[out + i - channels] ?? 0) : 0
      const b = row > 0 ? (pixels[out - stride + i] ?? 0) : 0
      const c = row > 0 && i >= channels ? (pixels[out - stride + i - channels] ?? 0) : 0
      const x = line[i] ?? 0
      let value: number
      if (filter === 0) value = x
      else if (filter === 1) value = x + a
      else if (filter === 2) value = x + b
      else if (filter === 3) value = x + ((a + b) >> 1)
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        value = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
      } else throw new Error(`PNG filter ${filter}`)
      pixels[out + i] = value & 0xff
    }
  }
  const data = new Uint8ClampedArray(width * height * 4)
  for (let p = 0; p < width * height; p++) {
    data[p * 4] = pixels[p * channels] ?? 0
    data[p * 4 + 1] = pixels[p * channels + 1] ?? 0
    data[p * 4 + 2] = pixels[p * channels + 2] ?? 0
    data[p * 4 + 3] = channels === 4 ? (pixels[p * channels + 3] ?? 255) : 255
  }
  return { width, height, data }
}
