import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { entryModules } from '../../scripts/build'
import { isAppError } from '../../src/errors'

// Issue 27, "No raw TypeError from any public method": every runtime export of every package entry
// (enumerated from package.json "exports", so a new export is covered without editing this file),
// called — or constructed, for a class — with arguments of the wrong types. Each call either
// returns, or throws / rejects with an `AppError`; never a TypeError, RangeError or other raw
// error. A promise is given a short real-time window; one still pending then counts as returned.
// Set SURFACE_SEED / SURFACE_RUNS to replay or widen a run.

const ROOT = join(import.meta.dirname, '..', '..')
const numRuns = Number(process.env.SURFACE_RUNS ?? 12)
// A fixed seed keeps CI reproducible; seeds 1–16 at 50+ runs each pass. Explore with SURFACE_SEED.
const seed = Number(process.env.SURFACE_SEED ?? 1)
const SETTLE_MS = 150

/** What cannot be called standalone, each with why. Keyed `entry:export`. */
const EXCLUDED: Record<string, string> = {}
/** React hooks need a component being rendered; test/react*.test.ts cover them. */
const isHookOrComponent = (entry: string, name: string) =>
  entry === 'src/react/index.ts' && (/^use[A-Z]/.test(name) || name === 'ClientProvider')

/** The caller's own exception (a getter that throws) may pass through unchanged. */
class CallerThrow extends Error {}
const throwingProxy = () =>
  new Proxy(
    {},
    {
      get(_t, key) {
        if (key === 'then') return undefined
        throw new CallerThrow(`get ${String(key)}`)
      },
    },
  )

/** One wrong-typed argument. */
const wrong: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, 0, -1, Number.NaN, 1.5, '', 'x', true, {}, [], 42n, Symbol('s')),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.bigInt(),
  fc.boolean(),
  fc.object({ maxDepth: 1 }),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.constant(() => undefined),
  fc.constant(Symbol.iterator),
  fc.constant(null).map(() => throwingProxy()),
)
const wrongArgs = fc.array(wrong, { minLength: 0, maxLength: 3 })

interface Target {
  readonly label: string
  readonly value: (...args: unknown[]) => unknown
  readonly isClass: boolean
}

async function publicTargets(): Promise<Target[]> {
  const targets: Target[] = []
  for (const entry of entryModules()) {
    const mod = (await import(join(ROOT, entry))) as Record<string, unknown>
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue // constants, schemas and machine definitions
      if (isHookOrComponent(entry, name)) continue
      const label = `${entry}:${name}`
      if (label in EXCLUDED) continue
      const source = Function.prototype.toString.call(value)
      targets.push({ label, value: value as Target['value'], isClass: /^class\b/.test(source) })
    }
  }
  return targets
}

function describeValue(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'symbol' || typeof v === 'function') return String(v)
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return Object.prototype.toString.call(v)
  }
}

/** Calls `target` with `args`; the raw error it throws or rejects with, if any. */
async function rawFailure(target: Target, args: unknown[]): Promise<unknown | undefined> {
  const accepted = (error: unknown) => isAppError(error) || error instanceof CallerThrow
  let result: unknown
  try {
    result = target.isClass ? Reflect.construct(target.value, args) : target.value(...args)
  } catch (error) {
    return accepted(error) ? undefined : error
  }
  if (result instanceof Promise) {
    let timer: Parameters<typeof clearTimeout>[0]
    const outcome = await Promise.race([
      result.then(
        () => undefined,
        (error: unknown) => (accepted(error) ? undefined : error),
      ),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(resolve, SETTLE_MS)
      }),
    ])
    clearTimeout(timer)
    return outcome
  }
  return undefined
}

describe('issue 27: no raw TypeError from any public function or class', async () => {
  const targets = await publicTargets()

  it('enumerates the entries of package.json (a new export is covered without a list)', () => {
    expect(targets.length).toBeGreaterThan(100)
    expect(
      targets.some((t) => t.label === 'src/connectors/index.ts:InjectedConnector' && t.isClass),
    ).toBe(true)
  })

  it.each(targets.map((t) => [t.label, t] as const))('%s', async (_label, target) => {
    await fc.assert(
      fc.asyncProperty(wrongArgs, async (args) => {
        const error = await rawFailure(target, args)
        if (error !== undefined) {
          throw new Error(
            `${target.label}(${args.map(describeValue).join(', ')}) raised a raw ${String(error)}`,
          )
        }
      }),
      { numRuns, seed, endOnFailure: true },
    )
  })
})
