/**
 * The clock of the deadlines inside a page: milliseconds since the epoch that never jump. It reads
 * the wall clock once, when made, and from then on advances with `performance.now()` (monotonic):
 * an NTP correction or a user changing the time moves `Date.now()`, not this. Deadlines that came
 * from another page (a persisted absolute time) are capped at their timeout's length where they
 * are waited for (`clientTimekeeping`, `transactionTimekeeping`), so a wall clock that went back
 * between the pages cannot stretch them. Without `performance` (an old runtime): `Date.now`.
 */
export function monotonicClock(
  performance: { now(): number } | null | undefined = (
    globalThis as { performance?: { now(): number } }
  ).performance,
  wall: () => number = Date.now,
): () => number {
  if (typeof performance?.now !== 'function') return () => wall()
  const origin = wall() - performance.now()
  return () => origin + performance.now()
}
