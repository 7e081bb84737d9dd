/**
 * Parses a `Retry-After` header into milliseconds: delta-seconds (`"12"`) or an HTTP-date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, counted from `nowMs`). Returns `undefined` when the header is
 * absent or malformed; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value == null) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+$/.test(text)) {
    const seconds = Number(text)
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined
  }
  // An HTTP-date always names a weekday or month, never only digits; Date.parse handles IMF-fixdate,
  // RFC 850 and asctime forms.
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}
