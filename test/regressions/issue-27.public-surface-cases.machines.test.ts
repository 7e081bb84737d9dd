import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import * as machines from '../../machines/index'
import { isAppError } from '../../src/errors'
import * as internal from '../../src/internal/index'

// Issue 27, "No raw TypeError from any public method": the counterexamples the public-surface
// property (issue-27.public-surface.test.ts) found, kept as named cases, each with the valid call
// that must still work after it. Cases of each entry live under their own `describe`.

/** Calls `call`; the `AppError` code it threw, or fails the test on a raw error or no throw. */
function codeOf(call: () => unknown): string {
  try {
    call()
  } catch (error) {
    if (isAppError(error)) return error.code
    throw new Error(`raised a raw ${String(error)}`)
  }
  throw new Error('did not throw')
}

/** No actor is started: an empty environment is enough. */
const env = {} as internal.ClientEnvironment
/** The root actor as the Client builds it (not started). */
const rootActor = () => createActor(internal.provideClient(env), { input: {} })
const forgedSnapshot = {
  context: {},
  status: 'active',
  children: { transaction: 5 },
  hasTag: () => false,
  matches: () => false,
}

describe('machines and internal entries', () => {
  it('backoffDelay / intervalDelay: a symbol, bigint or missing argument is INVALID_CONFIG', () => {
    expect(codeOf(() => internal.backoffDelay(Symbol.iterator as never, 0.5))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => internal.backoffDelay(1, 42n as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => (internal.intervalDelay as (...a: unknown[]) => number)())).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => internal.intervalDelay(['1', 2] as never, 0))).toBe('INVALID_CONFIG')
    expect(internal.backoffDelay(1, 0.5)).toBe(1000)
    expect(internal.intervalDelay([1000, 2000], 0.5)).toBe(1500)
  })

  it('isTransientFailure(null) is INVALID_CONFIG; ErrorData still answers', () => {
    expect(codeOf(() => internal.isTransientFailure(null as never))).toBe('INVALID_CONFIG')
    expect(internal.isTransientFailure({ code: 'BACKEND_ERROR', message: 'x', status: 503 })).toBe(
      true,
    )
  })

  it('toAppError never throws: anything becomes an AppError', () => {
    for (const value of [undefined, null, 0, 'x', Symbol('s'), 42n, Object.create(null), {}]) {
      const error = internal.toAppError(value as never)
      expect(isAppError(error)).toBe(true)
      expect(error.code).toBe('INVALID_CONFIG')
    }
    // A foreign error keeps a code of the list.
    expect(internal.toAppError({ code: 'TIMEOUT' } as never).code).toBe('TIMEOUT')
    const kept = internal.toAppError({ code: 'BACKEND_ERROR', message: 'm', status: 502 })
    expect([kept.code, kept.shortMessage, kept.status]).toEqual(['BACKEND_ERROR', 'm', 502])
  })

  it('utf8ToHex / personalSignRequest / sessionSignInput refuse non-strings', () => {
    expect(codeOf(() => internal.utf8ToHex(Symbol('s') as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => internal.personalSignRequest(null as never, '0xa'))).toBe('INVALID_CONFIG')
    expect(codeOf(() => internal.personalSignRequest({ raw: 5 } as never, '0xa'))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => internal.personalSignRequest('hi', undefined as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => machines.sessionSignInput(undefined as never, '0xa'))).toBe(
      'INVALID_CONFIG',
    )
    expect(
      codeOf(() => machines.sessionSignInput({ sessionId: 's', nonce: 'n' }, '0xa', NaN)),
    ).toBe('INVALID_CONFIG')
    expect(internal.utf8ToHex('hi')).toBe('0x6869')
    expect(internal.personalSignRequest('hi', '0xa')).toEqual({
      method: 'personal_sign',
      params: ['0x6869', '0xa'],
    })
    expect(machines.sessionSignInput({ sessionId: 's', nonce: 'n' }, '0xa', 1).verify).toEqual({
      sessionId: 's',
      walletAddress: '0xa',
      timestamp: 1,
    })
  })

  it('toConnectionData / toWalletWatchEvent: a malformed connector answer is no TypeError', () => {
    expect(codeOf(() => internal.toConnectionData(undefined as never))).toBe('WALLET_ERROR')
    // `accounts: "0x…"` was spread into characters.
    expect(codeOf(() => internal.toConnectionData({ accounts: '0xabc' } as never))).toBe(
      'WALLET_ERROR',
    )
    expect(internal.toWalletWatchEvent(null as never)).toBeNull()
    expect(
      internal.toWalletWatchEvent({ type: 'accountsChanged', accounts: '0xabc' } as never),
    ).toBeNull()
    expect(internal.toWalletWatchEvent({ type: 'accountsChanged', accounts: ['0xa'] })).toEqual({
      type: 'WALLET.ACCOUNTS_CHANGED',
      accounts: ['0xa'],
    })
  })

  it('the views and serializeClientSnapshot refuse what is not a snapshot', () => {
    for (const view of [
      machines.toClientView,
      machines.toPairingView,
      machines.toRelayConnectionView,
      machines.toTransactionView,
      internal.serializeClientSnapshot,
    ] as ((snapshot: unknown) => unknown)[]) {
      // The first counterexample: toClientView(-1.07e-289, {…}) read `.transaction` of undefined.
      expect(codeOf(() => view(-1.0773927787647712e-289))).toBe('INVALID_CONFIG')
      expect(codeOf(() => view({ context: null }))).toBe('INVALID_CONFIG')
    }
    // A child that is not an actor is no transaction.
    expect(machines.toClientView(forgedSnapshot as never).transaction).toBeNull()
    const root = rootActor().getSnapshot()
    expect(machines.toClientView(root).status).toBe('idle')
  })

  it('createClientActors / provideClient / provideTransaction refuse a missing env or machine', () => {
    expect(codeOf(() => (internal.createClientActors as () => unknown)())).toBe('INVALID_CONFIG')
    expect(codeOf(() => internal.provideClient(null as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => internal.provideClient({ now: 5 } as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => machines.provideTransaction(undefined as never))).toBe('INVALID_CONFIG')
    const actor = createActor(internal.provideClient(env), { input: {} }).start()
    expect(actor.getSnapshot().status).toBe('active')
    actor.stop()
  })

  it('describeMachineDefinition / machineFingerprint refuse what is not a machine', () => {
    expect(codeOf(() => internal.describeMachineDefinition(undefined as never))).toBe(
      'INVALID_CONFIG',
    )
    const forged = {
      transition() {},
      getInitialSnapshot() {},
      root: {},
      implementations: {},
      config: {},
    }
    expect(codeOf(() => internal.machineFingerprint(forged as never))).toBe('INVALID_CONFIG')
    expect(internal.machineFingerprint(machines.clientMachine)).toMatch(/^[0-9a-f]{16}$/)
  })

  it('checkRestorableRecord never throws, whatever it is given', () => {
    for (const [state, options] of [
      [undefined, undefined],
      [{}, {}],
      [{ fingerprint: 'a', expiresAt: Number.MAX_SAFE_INTEGER, snapshot: 1, tokens: {} }, null],
    ] as const) {
      const check = internal.checkRestorableRecord(state as never, options as never)
      expect(check.ok).toBe(false)
    }
    const check = internal.checkRestorableRecord(
      { fingerprint: 'old', expiresAt: Number.MAX_SAFE_INTEGER, snapshot: {}, tokens: {} },
      {
        machine: machines.clientMachine,
        fingerprint: 'new',
        migrations: { old: (() => 5) as never },
      },
    )
    expect(check).toEqual({ ok: false, reason: 'the migration from old returned no record' })
  })

  it('persistWhileResumable / persistWhilePaired refuse a missing actor, store or options', () => {
    const actor = rootActor()
    const store = { save() {}, clear() {}, load: () => null }
    expect(codeOf(() => internal.persistWhileResumable(5 as never, store, {} as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => internal.persistWhileResumable(actor, store, {} as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => machines.persistWhilePaired(actor, store, undefined as never))).toBe(
      'INVALID_CONFIG',
    )
    const stop = internal.persistWhileResumable(actor, store, {
      fingerprint: 'f',
      tokens: () => ({}),
      expiresAt: () => 1,
      child: 'universalLink',
    })
    expect(typeof stop).toBe('function')
    stop()
  })

  it('the actor factories refuse a missing connector, client or options', () => {
    const vault = machines.createMemoryTokenVault()
    expect(codeOf(() => machines.createConnectActor(null as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => machines.createSignActor({} as never, null as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => machines.createSignActor({} as never, { inspect: 5 } as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => machines.startPairing(undefined as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => machines.resumePairing({ store: 'x' } as never))).toBe('INVALID_CONFIG')
    expect(codeOf(() => machines.createSessionPollingActor({} as never, null as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(
      codeOf(() =>
        machines.resumeSessionPollingActor({} as never, { status: 'active', value: 5 } as never, {
          vault,
        }),
      ),
    ).toBe('INVALID_CONFIG')
    expect(codeOf(() => machines.createUniversalLinkActors({} as never, {} as never))).toBe(
      'INVALID_CONFIG',
    )
    expect(codeOf(() => machines.sanitizeInspectionEvent(null as never))).toBe('INVALID_CONFIG')
    // SURFACE_SEED=9: createSessionPollingActors({…}, false, null) read `now` of null.
    expect(
      codeOf(() => machines.createSessionPollingActors({} as never, false as never, null as never)),
    ).toBe('INVALID_CONFIG')
    expect(
      codeOf(() => machines.provideSessionPolling({} as never, vault, { now: 5 } as never)),
    ).toBe('INVALID_CONFIG')
    expect(machines.provideSessionPolling({} as never, vault).id).toBe('sessionPolling')
    // The valid calls still build their actors.
    expect(machines.createSignActor({} as never).getSnapshot().value).toBe('idle')
    expect(
      machines.createUniversalLinkActors({ createSession() {}, getResult() {} } as never, {
        vault,
        intent: 'connect',
      }).createSession,
    ).toBeDefined()
  })
})
