/**
 * `scope-connect/qr`: a pairing URI as an SVG QR code, on `lean-qr/nano` (ISO 18004, ~2 KB gzip,
 * dependency-free). In its own entry so apps that never show a QR code do not ship the encoder.
 */
import { correction, generate } from 'lean-qr/nano'
import { AppError } from '../errors/app-error'

/** Options of `pairingQrSvg`: error correction, module size, quiet zone and colours. */
export interface PairingQrOptions {
  /** Error correction: `L` (default, smallest code), `M`, `Q`, `H`. */
  ecc?: 'L' | 'M' | 'Q' | 'H'
  /** Size of one module in SVG units. Default 8. */
  pixelSize?: number
  /** Quiet zone in modules. Default 2. */
  border?: number
  /** CSS colours (`#rgb`, `#rrggbb`, a name). Default black on white. */
  foreground?: string
  background?: string
}

const ECC: readonly unknown[] = ['L', 'M', 'Q', 'H']
const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,32})$/

/**
 * The QR code of `uri` (a pairing URI) as an SVG document string. The URI holds the pairing key:
 * render the SVG in the page, never send it to a server or a log.
 *
 * @throws AppError `INVALID_CONFIG` for an empty URI, a URI over 4096 characters or longer than a
 * QR code holds at the chosen error correction (2952 UTF-8 bytes at `L`, 1272 at `H`), or an option
 * that is not a plain colour, a positive size or one of the four error corrections.
 */
export function pairingQrSvg(uri: string, options: PairingQrOptions = {}): string {
  if (typeof uri !== 'string' || uri === '' || uri.length > 4096) {
    throw new AppError('INVALID_CONFIG', 'A QR code needs a URI of 1..4096 characters.')
  }
  if (typeof options !== 'object' || options === null) {
    throw new AppError('INVALID_CONFIG', 'QR options must be an object.')
  }
  const ecc = options.ecc ?? 'L'
  if (!ECC.includes(ecc)) throw new AppError('INVALID_CONFIG', 'QR ecc must be L, M, Q or H.')
  const foreground = options.foreground ?? 'black'
  const background = options.background ?? 'white'
  // The colours go into attributes as given: only plain colour values pass.
  if (!COLOR.test(foreground) || !COLOR.test(background)) {
    throw new AppError('INVALID_CONFIG', 'QR colours must be #hex or a colour name.')
  }
  const pixelSize = options.pixelSize ?? 8
  const border = options.border ?? 2
  if (!Number.isInteger(pixelSize) || pixelSize < 1 || !Number.isInteger(border) || border < 0) {
    throw new AppError('INVALID_CONFIG', 'QR pixelSize must be a positive integer, border ≥ 0.')
  }
  let code: ReturnType<typeof generate>
  try {
    code = generate(uri, { minCorrectionLevel: correction[ecc] })
  } catch (cause) {
    // lean-qr throws (its code 4) past a version-40 code's capacity.
    const message = `The URI is too long for a QR code at error correction ${ecc}.`
    throw new AppError('INVALID_CONFIG', message, { cause })
  }
  // A square per dark module, offset by the quiet zone: `M x,y h v h z` (one path, no text).
  let path = ''
  for (let row = 0; row < code.size; row++) {
    for (let col = 0; col < code.size; col++) {
      if (code.get(col, row)) {
        path += `M${(col + border) * pixelSize},${(row + border) * pixelSize}h${pixelSize}v${pixelSize}h-${pixelSize}z`
      }
    }
  }
  const side = (code.size + 2 * border) * pixelSize
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}"><rect fill="${background}" width="${side}" height="${side}"/><path fill="${foreground}" d="${path}"/></svg>`
}
