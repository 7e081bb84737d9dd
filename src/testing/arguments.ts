import * as z from 'zod/mini'
import { parseParameters } from '../wire/parse-parameters'

/**
 * The argument checks of `scope-connect/testing`'s public functions: each throws `INVALID_CONFIG`
 * naming the argument (`createTestWallet options.namespace`) before the function does anything,
 * so a test that passes the wrong thing learns which, never a raw `TypeError` from deep inside.
 * They only check: the functions go on with the caller's own value (unknown keys are kept). The
 * schemas are built on first use (this module has no top-level code).
 */

const FLOWS = ['desktop', 'universalLink', 'pairing'] as const

function buildSchemas() {
  const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function')
  const object = z.custom<object>((v) => typeof v === 'object' && v !== null)
  const optionalFn = z.optional(fn)
  const caip2 = z.string().check(z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/))
  const bytes32 = z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.length === 32, {
    message: 'must be a 32-byte Uint8Array',
  })
  const hexKey = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))
  const chainNumber = z.int().check(z.gte(1))
  const nonNegative = z.number().check(z.gte(0))

  /** The view fields `viewDifferences` reads (the rest of a `ClientView` is not compared). */
  const view = z.looseObject({
    status: z.string(),
    isConnected: z.boolean(),
    isBusy: z.boolean(),
    canConnect: z.boolean(),
    canRetry: z.boolean(),
    canCancel: z.boolean(),
    canSign: z.boolean(),
    pending: z.nullable(z.string()),
    error: z.nullable(z.looseObject({ code: z.string() })),
    walletId: z.nullable(z.string()),
    connectionKind: z.nullable(z.string()),
    address: z.nullable(z.string()),
    accounts: z.array(z.string()),
    chainId: z.nullable(z.string()),
    walletUrl: z.nullable(z.string()),
    pairingUri: z.nullable(z.string()),
  })
  const driver = z.looseObject({ mount: fn, act: fn, expect: fn, unmount: optionalFn })
  const pathOptions = z.optional(
    z.looseObject({
      flows: z.optional(z.array(z.enum(FLOWS))),
      maxSteps: z.optional(z.int().check(z.gte(0))),
      machine: z.optional(object),
      rules: z.optional(z.array(object)),
      world: z.optional(object),
    }),
  )
  const runOptions = z.optional(
    z.looseObject({
      backend: z.optional(
        z.looseObject({ baseUrl: z.string(), appKey: z.string(), fetchImpl: optionalFn }),
      ),
      timeouts: z.optional(z.record(z.string(), nonNegative)),
      wait: optionalFn,
      settleMs: z.optional(nonNegative),
      coverage: z.optional(z.looseObject({ record: fn })),
      client: z.optional(object),
      world: z.optional(object),
      expectShown: z.optional(z.looseObject({ balance: optionalFn, toast: optionalFn })),
    }),
  )
  const path = z.looseObject({
    description: z.string(),
    flow: z.enum(FLOWS),
    initial: view,
    steps: z.array(
      z.looseObject({
        kind: z.enum(['user', 'wallet', 'fault', 'time', 'reload']),
        description: z.string(),
        expected: view,
      }),
    ),
  })
  return {
    function: fn,
    string: z.string(),
    view,
    driver,
    pathOptions,
    runOptions,
    path,
    paths: z.array(path),
    stepIndex: z.int().check(z.gte(-1)),
    /** An element to search (`querySelectorAll`). */
    element: z.looseObject({ querySelectorAll: fn }),
    domDriverOptions: z.looseObject({
      render: fn,
      act: z.record(z.string(), fn),
      expect: fn,
      retryMs: z.optional(nonNegative),
    }),
    page: z.looseObject({ exposeFunction: fn, goto: fn, waitForFunction: fn, evaluate: fn }),
    /** A page whose clock the runs play on (`openClientPaths` with `clock: true`). */
    clockPage: z.looseObject({ clock: z.looseObject({ install: fn, runFor: fn }) }),
    openOptions: z.optional(z.looseObject({ act: optionalFn, clock: z.optional(z.boolean()) })),
    exposeOptions: z.looseObject({ driver, paths: pathOptions, run: runOptions }),
    evmKeys: z.array(hexKey),
    evmOptions: z.optional(
      z.looseObject({ chains: z.optional(z.array(chainNumber).check(z.minLength(1))) }),
    ),
    solanaKeys: z.array(bytes32),
    solanaOptions: z.optional(
      z.looseObject({ chains: z.optional(z.array(caip2).check(z.minLength(1))) }),
    ),
    testWalletOptions: z.discriminatedUnion('namespace', [
      z.looseObject({
        namespace: z.literal('eip155'),
        privateKey: z.optional(z.union([hexKey, bytes32])),
        chains: z.optional(
          z
            .array(z.union([chainNumber, z.string().check(z.regex(/^eip155:[1-9][0-9]*$/))]))
            .check(z.minLength(1)),
        ),
        walletId: z.optional(z.string()),
        name: z.optional(z.string()),
      }),
      z.looseObject({
        namespace: z.literal('solana'),
        privateKey: z.optional(z.union([hexKey, bytes32])),
        chains: z.optional(z.array(caip2).check(z.minLength(1))),
        walletId: z.optional(z.string()),
        name: z.optional(z.string()),
      }),
    ]),
  }
}

let schemas: ReturnType<typeof buildSchemas> | undefined

/** Which check: a key of the schemas above. */
export type ArgumentKind = keyof ReturnType<typeof buildSchemas>

/**
 * `input` checked as `kind`; else `INVALID_CONFIG` naming `what` and the field, e.g.
 * `Invalid createTestWallet options.namespace: must be one of "eip155", "solana".`
 */
export function checkArgument(kind: ArgumentKind, input: unknown, what: string): void {
  schemas ??= buildSchemas()
  parseParameters(schemas[kind], input, what)
}
