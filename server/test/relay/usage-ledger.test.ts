import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type AdmissionLimits, chargedBytes } from '../../src/relay/admission'
import { UsageLedger } from '../../src/relay/usage-ledger'

const KiB = 1024
const LIMITS: AdmissionLimits = {
  perTopic: 100,
  sourceQuotaBytes: 16 * KiB,
  sourceQuotaMessages: 8,
  appQuotaBytes: 48 * KiB,
  appQuotaMessages: 40,
  mailboxQuotaBytes: 96 * KiB,
  unpairedTtlMs: 300_000,
}
const APPS = 6
/** H(n) = 1 + 1/2 + … + 1/n: the shares of n app keys arriving one after another. */
const harmonic = (n: number) =>
  Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b)

const publishes = fc.array(
  fc.record({
    app: fc.integer({ min: 0, max: APPS - 1 }),
    source: fc.integer({ min: 0, max: 30 }),
    size: fc.integer({ min: 1, max: 4 * KiB }),
  }),
  { maxLength: 300 },
)

/**
 * The storage quotas' fair share (issue 28, admission.ts) over the ledger the in-process and the
 * Redis Cluster mailboxes count with: whatever was admitted before, a source of an app key that
 * holds nothing gets its first message in (while the fair shares are at least a message), and
 * the mailbox never holds more than the shares add up to (H(app keys) × its quota).
 */
describe('usage ledger: storage shared fairly', () => {
  it('property: a newcomer app key’s first message is admitted after any flood', () => {
    fc.assert(
      fc.property(publishes, fc.integer({ min: 1, max: KiB }), (flood, size) => {
        const ledger = new UsageLedger(() => 0)
        for (const { app, source, size: bytes } of flood.map((p) => ({
          ...p,
          size: chargedBytes(p.size),
        }))) {
          const from = { app: `app${app}`, sub: 's', source: `src${source}` }
          if (!ledger.refusal(from, bytes, LIMITS)) ledger.charge(from, bytes, 1_000)
        }
        const newcomer = { app: 'newcomer', sub: 's', source: 'fresh' }
        expect(ledger.refusal(newcomer, chargedBytes(size), LIMITS)).toBeUndefined()
      }),
    )
  })

  it('property: a new source of a full app key gets in while its share is a message', () => {
    fc.assert(
      fc.property(publishes, (flood) => {
        const ledger = new UsageLedger(() => 0)
        for (const { app, source, size } of flood) {
          const from = { app: `app${app}`, sub: 's', source: `src${source}` }
          const bytes = chargedBytes(size)
          if (!ledger.refusal(from, bytes, LIMITS)) ledger.charge(from, bytes, 1_000)
        }
        const before = ledger.totals()
        // Within the mailbox's share of its app key: the app ceiling admits the new source.
        const from = { app: 'app0', sub: 's', source: 'fresh' }
        const refusal = ledger.refusal(from, KiB, LIMITS)
        expect(refusal === undefined || refusal === 'mailboxBytes').toBe(true)
        expect(ledger.totals()).toEqual(before)
      }),
    )
  })

  it('property: the mailbox holds at most H(app keys) × its quota', () => {
    fc.assert(
      fc.property(publishes, (flood) => {
        const ledger = new UsageLedger(() => 0)
        for (const { app, source, size } of flood) {
          const from = { app: `app${app}`, sub: 's', source: `src${source}` }
          const bytes = chargedBytes(size)
          if (!ledger.refusal(from, bytes, LIMITS)) ledger.charge(from, bytes, 1_000)
        }
        expect(ledger.totals().bytes).toBeLessThanOrEqual(
          harmonic(APPS) * LIMITS.mailboxQuotaBytes + 4 * KiB,
        )
      }),
    )
  })

  it('releases a charge at its expiry, and a cancelled one at once, never twice', () => {
    let clock = 0
    const ledger = new UsageLedger(() => clock)
    const from = { app: 'a', sub: 's', source: 'x' }
    const first = ledger.charge(from, KiB, 10)
    ledger.charge(from, 2 * KiB, 20)
    ledger.cancel(first)
    ledger.cancel(first)
    expect(ledger.totals()).toEqual({ bytes: 2 * KiB, messages: 1 })
    clock = 10 // the cancelled charge's expiry gives nothing back again
    expect(ledger.totals()).toEqual({ bytes: 2 * KiB, messages: 1 })
    clock = 20
    expect(ledger.totals()).toEqual({ bytes: 0, messages: 0 })
    expect(ledger.snapshot()).toMatchObject({ bytes: 0, messages: 0, apps: {}, sources: {} })
  })
})
