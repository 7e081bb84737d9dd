/**
 * `scope-connect/qr`: a pairing URI as an SVG QR code, on `uqr` (small, dependency-free). In its
 * own entry so apps that never show a QR code do not ship the encoder.
 */
import { renderSVG } from 'uqr'
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

const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,32})$/

/**
 * The QR code of `uri` (a pairing URI) as an SVG document string. The URI holds the pairing key:
 * render the SVG in the page, never send it to a server or a log.
 *
 * @throws AppError `INVALID_CONFIG` for an empty URI, a URI over 4096 characters, or an option
 * that is not a plain colour or a positive size.
 */
export function pairingQrSvg(uri: string, options: PairingQrOptions = {}): string {
  if (typeof uri !== 'string' || uri === '' || uri.length > 4096) {
    throw new AppError('INVALID_CONFIG', 'A QR code needs a URI of 1..4096 characters.')
  }
  const foreground = options.foreground ?? 'black'
  const background = options.background ?? 'white'
  // uqr writes colours into attributes as given: only plain colour values pass.
  if (!COLOR.test(foreground) || !COLOR.test(background)) {
    throw new AppError('INVALID_CONFIG', 'QR colours must be #hex or a colour name.')
  }
  const pixelSize = options.pixelSize ?? 8
  const border = options.border ?? 2
  if (!Number.isInteger(pixelSize) || pixelSize < 1 || !Number.isInteger(border) || border < 0) {
    throw new AppError('INVALID_CONFIG', 'QR pixelSize must be a positive integer, border ≥ 0.')
  }
  return renderSVG(uri, {
    ecc: options.ecc ?? 'L',
    pixelSize,
    border,
    blackColor: foreground,
    whiteColor: background,
  })
}
