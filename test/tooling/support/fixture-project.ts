/**
 * Small projects on disk for the mutation tool's tests: a temp folder with `machines/`, `test/` and
 * a `node_modules` link to this repository's, so xstate and vitest resolve as in the real project.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

export interface FixtureProject {
  root: string
  write(path: string, text: string): string
  remove(): void
}

export function createFixtureProject(files: Record<string, string>): FixtureProject {
  const root = mkdtempSync(join(tmpdir(), 'scope-connect-fixture-'))
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir')
  const write = (path: string, text: string) => {
    const full = join(root, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, text)
    return full
  }
  for (const [path, text] of Object.entries(files)) write(path, text)
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) }
}

/**
 * A machine with every transition form the tool follows: target shorthands (`GO: 'loading'`, a
 * root `.child`, a dotted sibling path), `#id` targets, `always`, `after` (named and numeric),
 * invoke `onDone`/`onError`, a shared array used directly and spread, a shared single transition
 * used as an element and as a shorthand property, a helper call, and a targetless transition.
 */
export const FORMS_MACHINE = `import { fromPromise, setup } from 'xstate'

const ON_LOAD_ERROR = [
  { guard: 'isGone', target: '#fixture.done' },
  { target: 'failed' },
] as const

const RETRY = { target: 'loading', actions: 'count' } as const

const endOn = (code: string, target: string) =>
  ({ guard: { type: 'hasCode', params: { code } }, target }) as const

export const fixtureMachine = setup({
  actors: { load: fromPromise(async () => 1) },
  guards: { isGone: () => false, skip: () => false, hasCode: (_: unknown, p: { code: string }) => p.code === 'X' },
  actions: { count: () => {} },
  delays: { wait: 10 },
}).createMachine({
  id: 'fixture',
  initial: 'idle',
  on: { STOP: '.done' },
  states: {
    idle: {
      on: {
        GO: 'loading',
        JUMP: { target: '#fixture.active.two' },
        NOOP: { actions: 'count' },
      },
    },
    loading: {
      always: [{ guard: 'skip', target: 'active' }],
      on: { FAST: 'active.three' },
      invoke: { id: 'load', src: 'load', onDone: { target: 'active' }, onError: ON_LOAD_ERROR },
    },
    active: {
      initial: 'one',
      on: { FAIL: [endOn('X', 'failed'), RETRY] },
      states: {
        one: { after: { wait: 'two', 500: { target: 'three' } } },
        two: { on: { BACK: 'one' } },
        three: {},
      },
    },
    failed: { on: { RETRY } },
    other: {
      invoke: { id: 'again', src: 'load', onDone: [...ON_LOAD_ERROR, { target: 'idle' }] },
    },
    done: { type: 'final' },
  },
})
`

/** Every transition of FORMS_MACHINE: `<state> <event>#<index> -> <targets>`. */
export const FORMS_TRANSITIONS = [
  '(root) STOP#0 -> .done',
  'idle GO#0 -> loading',
  'idle JUMP#0 -> #fixture.active.two',
  'idle NOOP#0 -> ',
  'loading FAST#0 -> active.three',
  'loading always#0 -> active',
  'loading done load#0 -> active',
  'loading error load#0 -> #fixture.done',
  'loading error load#1 -> failed',
  'active FAIL#0 -> failed',
  'active FAIL#1 -> loading',
  'active.one after wait#0 -> two',
  'active.one after 500#0 -> three',
  'active.two BACK#0 -> one',
  'failed RETRY#0 -> loading',
  'other done again#0 -> #fixture.done',
  'other done again#1 -> failed',
  'other done again#2 -> idle',
]

/** A two-state machine and a test that checks TOGGLE both ways but never sends RESET. */
export const TOGGLE_PROJECT = {
  'machines/toggle/toggle.machine.ts': `import { setup } from 'xstate'

export const toggleMachine = setup({}).createMachine({
  id: 'toggle',
  initial: 'off',
  states: {
    off: { on: { TOGGLE: 'on' } },
    on: { on: { TOGGLE: 'off', RESET: { target: 'off' } } },
  },
})
`,
  'test/toggle.test.ts': `import { expect, it } from 'vitest'
import { createActor } from 'xstate'
import { toggleMachine } from '../machines/toggle/toggle.machine'

it('toggles on and off', () => {
  const actor = createActor(toggleMachine).start()
  actor.send({ type: 'TOGGLE' })
  expect(actor.getSnapshot().value).toBe('on')
  actor.send({ type: 'TOGGLE' })
  expect(actor.getSnapshot().value).toBe('off')
})
`,
}

/**
 * A machine with every shape the fault operators handle, as the real charts write them: an invoke
 * `onError` list behind a shared constant (session-polling), a single `onError` in place (sign), a
 * shared invoke object with its own `onError`, a helper returning a list whose branches read a
 * failure (`onPollDone` / `endOnCode` of universal-link), `on` handlers of a `*.FAILED` event and of
 * `xstate.error.actor.*`, a guarded branch on a child's `failed`/`rejected` status that reports an
 * error code (client), and `after` transitions, single and guarded (client, pairing). Its actor
 * always fails.
 */
export const FAULTS_MACHINE = `import { fromPromise, setup } from 'xstate'

const ON_FETCH_ERROR = [
  { guard: 'isGone', target: '#faults.expired' },
  { target: '#faults.failed', actions: 'storeError' },
] as const

const endOnCode = (code: string, target: string) =>
  ({ guard: { type: 'failedWith', params: { code } }, target }) as const

const onChildDone = (target: string) =>
  [{ guard: 'succeeded', target }, endOnCode('USER_REJECTED', 'rejected'), { target: 'failed' }] as const

const SHARED_INVOKE = { id: 'ping', src: 'load', onError: { target: '#faults.failed' } } as const

export const faultsMachine = setup({
  actors: {
    load: fromPromise<number>(async () => {
      throw new Error('boom')
    }),
  },
  guards: {
    isGone: () => false,
    succeeded: () => true,
    failedWith: () => false,
    childIn: (_: unknown, states: string[]) => states.includes('failed'),
  },
  actions: { storeError: () => {}, settle: () => {} },
  delays: { answerMs: 20 },
}).createMachine({
  id: 'faults',
  initial: 'idle',
  states: {
    idle: {
      on: {
        GO: 'loading',
        SINGLE: 'single',
        PING: 'pinging',
        WAIT: 'waiting',
        'CHILD.FAILED': 'failed',
        'xstate.error.actor.other': { target: 'failed' },
      },
    },
    loading: {
      invoke: { id: 'load', src: 'load', onDone: onChildDone('done'), onError: ON_FETCH_ERROR },
    },
    single: {
      invoke: { id: 'single', src: 'load', onError: { target: 'failed', actions: 'storeError' } },
    },
    pinging: { invoke: SHARED_INVOKE },
    waiting: {
      on: {
        'CHILD.CHANGED': [
          {
            guard: { type: 'childIn', params: ['rejected', 'failed'] },
            target: 'idle',
            actions: { type: 'settle', params: { code: 'WALLET_ERROR' } },
          },
          { guard: { type: 'childIn', params: ['connected'] }, target: 'done' },
        ],
        CANCEL: { target: 'idle', actions: { type: 'settle', params: { code: 'ABORTED' } } },
      },
      after: {
        answerMs: { target: 'idle', actions: { type: 'settle', params: { code: 'TIMEOUT' } } },
        1000: [{ guard: 'isGone', target: 'expired' }, { target: 'failed' }],
      },
    },
    done: { type: 'final' },
    failed: { type: 'final' },
    rejected: { type: 'final' },
    expired: { type: 'final' },
  },
})
`

/** The fault mutants of FAULTS_MACHINE: `<kind> <state> <event>#<index>`. */
export const FAULT_MUTANTS = [
  'drop-handler idle CHILD.FAILED#0',
  'drop-handler idle error other#0',
  'drop-handler loading done load#1',
  'drop-handler loading done load#2',
  'drop-onerror loading error load#0',
  'drop-handler loading error load#0',
  'drop-handler loading error load#1',
  'drop-onerror single error single#0',
  'drop-onerror pinging error ping#0',
  'drop-handler waiting CHILD.CHANGED#0',
  'drop-after waiting after answerMs#0',
  'drop-after waiting after 1000#0',
  'drop-after waiting after 1000#1',
]

/**
 * A loader that fails or hangs as told, with a timeout, and a test that only drives the success:
 * its re-targets die, its fault mutants survive (the suite never makes the actor fail or hang).
 */
export const FETCH_PROJECT = {
  'machines/fetch/fetch.machine.ts': `import { fromPromise, setup } from 'xstate'

export const fetchMachine = setup({
  actors: { load: fromPromise<number, { mode: string }>(async ({ input }) => {
    if (input.mode === 'fail') throw new Error('boom')
    if (input.mode === 'hang') return new Promise<number>(() => {})
    return 1
  }) },
  delays: { limit: 50 },
}).createMachine({
  id: 'fetch',
  types: {} as { context: { mode: string }; input: { mode: string } },
  context: ({ input }) => ({ mode: input.mode }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ mode: context.mode }),
        onDone: { target: 'loaded' },
        onError: { target: 'failed' },
      },
      after: { limit: { target: 'timedOut' } },
    },
    loaded: { type: 'final' },
    failed: { type: 'final' },
    timedOut: { type: 'final' },
  },
})
`,
  'test/fetch.test.ts': `import { expect, it } from 'vitest'
import { createActor, toPromise } from 'xstate'
import { fetchMachine } from '../machines/fetch/fetch.machine'

it('loads', async () => {
  const actor = createActor(fetchMachine, { input: { mode: 'ok' } }).start()
  await toPromise(actor)
  expect(actor.getSnapshot().value).toBe('loaded')
})
`,
}

/**
 * A sub-state config shared between parents, as relay-connection shares its handshake: a constant
 * of `createStateConfig` states used whole (`states: STEPS`) and by property (`STEPS.loading`), its
 * `onError` behind another shared constant, and a helper returning a state config, called twice.
 * Its actor always fails.
 */
export const SHARED_STATES_MACHINE = `import { fromPromise, setup } from 'xstate'

const sharedSetup = setup({
  actors: {
    load: fromPromise<number>(async () => {
      throw new Error('boom')
    }),
  },
  guards: { isGone: () => false },
  delays: { pauseMs: 10 },
})

const ON_LOAD_ERROR = [
  { guard: 'isGone', target: '#shared.gone' },
  { target: '#shared.failed' },
] as const

const STEPS = {
  loading: sharedSetup.createStateConfig({
    invoke: { id: 'load', src: 'load', onDone: 'saving', onError: ON_LOAD_ERROR },
  }),
  saving: sharedSetup.createStateConfig({
    invoke: { id: 'save', src: 'load', onDone: '#shared.done', onError: { target: '#shared.failed' } },
    on: { CANCEL: 'loading' },
  }),
}

function pause(next: string) {
  return sharedSetup.createStateConfig({ after: { pauseMs: { target: next } }, on: { SKIP: next } })
}

export const sharedMachine = sharedSetup.createMachine({
  id: 'shared',
  initial: 'first',
  states: {
    first: { initial: 'loading', states: STEPS, on: { RETRY: 'again' } },
    again: {
      initial: 'waiting',
      states: { waiting: pause('loading'), loading: STEPS.loading, saving: STEPS.saving },
    },
    resting: { initial: 'waiting', states: { waiting: pause('over'), over: {} } },
    done: { type: 'final' },
    failed: { type: 'final' },
    gone: { type: 'final' },
  },
})
`
