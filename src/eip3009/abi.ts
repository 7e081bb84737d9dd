import { AppError } from '../errors/app-error'

/** `name()` and `version()` selectors (first 4 bytes of keccak256 of the signature). */
export const NAME_SELECTOR = '0x06fdde03'
export const VERSION_SELECTOR = '0x54fd4d50'

function invalid(what: string, reason: string): AppError {
  return new AppError('RPC_ERROR', `The token's ${what}() answer is not a string.`, {
    details: [{ field: what, reason }],
  })
}

/**
 * Decodes the return data of a `string` getter: ABI `(string)` (offset, length, UTF-8 bytes), or a
 * `bytes32` holding the text (older tokens), zero-padded on the right.
 *
 * @throws AppError `RPC_ERROR` for anything else (empty answer, bad offset or length, not UTF-8).
 */
export function decodeAbiString(data: string, what = 'name'): string {
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data)) {
    throw invalid(what, 'is not 0x-prefixed hex')
  }
  const hex = data.slice(2)
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  const word = (index: number): bigint => {
    const slice = bytes.subarray(index, index + 32)
    if (slice.length !== 32) throw invalid(what, 'is shorter than its ABI encoding says')
    return slice.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)
  }
  const utf8 = (view: Uint8Array) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(view)
    } catch {
      throw invalid(what, 'is not UTF-8')
    }
  }
  if (bytes.length === 32) {
    const end = bytes.indexOf(0)
    return utf8(bytes.subarray(0, end < 0 ? 32 : end))
  }
  if (bytes.length < 64) throw invalid(what, 'is empty or too short (not a string getter?)')
  const offset = word(0)
  if (offset > BigInt(bytes.length - 32) || offset % 32n !== 0n) {
    throw invalid(what, 'has a bad offset')
  }
  const length = word(Number(offset))
  const start = Number(offset) + 32
  if (length > BigInt(bytes.length - start)) throw invalid(what, 'has a bad length')
  return utf8(bytes.subarray(start, start + Number(length)))
}
