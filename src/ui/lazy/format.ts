/** `0x1234…abcd`: the start and end of an address, hash or signature. */
export function shorten(value: string, keep = 4): string {
  const head = value.startsWith('0x') ? keep + 2 : keep
  return value.length <= head + keep + 1 ? value : `${value.slice(0, head)}…${value.slice(-keep)}`
}

/** A balance in whole units with at most `digits` decimals, trailing zeros dropped: `9999.9876`. */
export function formatUnits(raw: bigint, decimals: number, digits = 4): string {
  const base = 10n ** BigInt(decimals)
  const whole = raw / base
  const fraction = (raw % base).toString().padStart(decimals, '0').slice(0, digits)
  const trimmed = fraction.replace(/0+$/, '')
  return trimmed ? `${whole}.${trimmed}` : `${whole}`
}
