import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { BatchAnswerSchema } from '../src/balance/batch'
import { BalanceItemErrorSchema, DecimalsSchema, ErrorBodySchema } from '../src/wire'
import {
  AddressSchema,
  Caip2Schema,
  DecimalStringSchema,
  lengthAtMost,
} from '../src/wire/primitives'

// Issue 30 item 7: the balance reader's wire checks were re-expressed without `z.int`, `z.gte`,
// `z.lte`, `z.minLength`, `z.maxLength` and `z.union` (zod/mini classes the reader paid for). Each
// property runs the old expression, kept here, against the new one: the same values pass with the
// same output, and the same values fail with the same issues.

function sameVerdict(before: z.ZodMiniType, after: z.ZodMiniType, input: unknown): void {
  const old = before.safeParse(input)
  const now = after.safeParse(input)
  expect(now.success).toBe(old.success)
  if (old.success && now.success) expect(now.data).toStrictEqual(old.data)
  if (!old.success && !now.success) expect(now.error.issues).toStrictEqual(old.error.issues)
}

const OldDecimalsSchema = z.int().check(z.gte(0), z.lte(255))

/** Numbers around every bound the old check had (0, 255, the safe integers), and non-numbers. */
const numberish = fc.oneof(
  fc.integer({ min: -300, max: 300 }),
  fc.double(),
  fc.constantFrom(
    -0,
    0.5,
    255.5,
    2 ** 53,
    2 ** 53 - 1,
    -(2 ** 53),
    2 ** 60,
    -(2 ** 60),
    Number.MAX_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
  fc.anything(),
)

describe('property: the re-expressed wire checks accept, refuse and report as before', () => {
  it('DecimalsSchema is z.int() from 0 to 255', () => {
    fc.assert(
      fc.property(numberish, (input) => sameVerdict(OldDecimalsSchema, DecimalsSchema, input)),
    )
  })

  it('lengthAtMost(n) is z.maxLength(n), counted in code points (lone surrogates too)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 140 }),
      fc.string({ unit: 'binary', maxLength: 140 }),
      fc.string({ unit: 'grapheme', maxLength: 70 }),
      fc.anything(),
    )
    fc.assert(
      fc.property(text, fc.constantFrom(1, 2, 64, 128), (input, maximum) =>
        sameVerdict(
          z.string().check(z.maxLength(maximum)),
          z.string().check(lengthAtMost(maximum)),
          input,
        ),
      ),
    )
  })

  it('ErrorBodySchema refuses empty details as z.minLength(1) did', () => {
    const OldErrorBodySchema = z.object({
      error: z.object({
        code: z.string(),
        message: z.string(),
        details: z.optional(
          z.array(z.object({ field: z.string(), reason: z.string() })).check(z.minLength(1)),
        ),
      }),
    })
    const issue = fc.oneof(fc.record({ field: fc.string(), reason: fc.string() }), fc.anything())
    const body = fc.oneof(
      fc.record(
        {
          error: fc.record(
            {
              code: fc.oneof(fc.string(), fc.anything()),
              message: fc.string(),
              details: fc.oneof(fc.array(issue, { maxLength: 3 }), fc.anything()),
            },
            { requiredKeys: ['code'] },
          ),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    )
    fc.assert(fc.property(body, (input) => sameVerdict(OldErrorBodySchema, ErrorBodySchema, input)))
  })

  it("POST /balances's answer is the old z.union of a balance and an item error", () => {
    const OldBalanceResponseSchema = z.object({
      chainId: Caip2Schema,
      tokenAddress: z.string(),
      account: z.string(),
      raw: DecimalStringSchema,
      decimals: OldDecimalsSchema,
      blockNumber: z.optional(DecimalStringSchema),
    })
    const OldBalancesResponseSchema = z.object({
      balances: z.array(z.union([OldBalanceResponseSchema, BalanceItemErrorSchema])),
    })
    // Valid and invalid values of every field, so entries are balances, item errors, both, broken
    // in their formats or ranges only (the union then reports the balance's issues) or in their types.
    const caip2 = fc.constantFrom('eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'x', 1)
    const decimalString = fc.constantFrom(
      '0',
      '18',
      '123456789012345678901234567890',
      '01',
      '-1',
      7,
    )
    const text = fc.oneof(fc.constantFrom('native', '0xabc'), fc.anything())
    const entry = fc.oneof(
      fc.record(
        {
          chainId: caip2,
          tokenAddress: text,
          account: text,
          raw: decimalString,
          decimals: numberish,
          blockNumber: decimalString,
          error: fc.oneof(
            fc.record({ code: fc.constantFrom('UNSUPPORTED_CHAIN', 3), message: fc.string() }),
            fc.anything(),
          ),
          extra: fc.anything(),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    )
    const answer = fc.oneof(
      fc.record({ balances: fc.array(entry, { maxLength: 4 }) }),
      fc.record({ balances: fc.anything() }),
      fc.anything(),
    )
    fc.assert(
      fc.property(answer, (input) =>
        sameVerdict(OldBalancesResponseSchema, BatchAnswerSchema, input),
      ),
      { numRuns: 1000 },
    )
  })

  it('the address and CAIP-2 checks the answers reuse are unchanged zod checks', () => {
    // A guard for the copy above: the old union's balance is built from these same schemas.
    expect(AddressSchema.safeParse('0x0000000000000000000000000000000000000001').success).toBe(true)
    expect(Caip2Schema.safeParse('eip155:1').success).toBe(true)
  })
})
