import { spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  globToRegExp,
  machineFiles,
  readsGlobalSetup,
  selectTests,
} from '../../scripts/mutation/files'
import { FAULT_KINDS, faultOf, generateMutants } from '../../scripts/mutation/mutants'
import { planMutation } from '../../scripts/mutation/mutate'
import type { MutationReport } from '../../scripts/mutation/report'
import { type JobInput, runJobs } from '../../scripts/mutation/runner'
import {
  checkMutantTable,
  checkSites,
  findMachine,
  type RuntimeTransition,
  runtimeTransitions,
  tableWithout,
} from '../../scripts/mutation/runtime'
import { analyzeSource, eventLabel, statePath } from '../../scripts/mutation/transitions'
import {
  createFixtureProject,
  FAULT_MUTANTS,
  FAULTS_MACHINE,
  FETCH_PROJECT,
  type FixtureProject,
  FORMS_MACHINE,
  FORMS_TRANSITIONS,
  SHARED_STATES_MACHINE,
  TOGGLE_PROJECT,
} from './support/fixture-project'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const FORMS_FILE = 'machines/fixture/fixture.machine.ts'
const FAULTS_FILE = 'machines/faults/faults.machine.ts'

let project: FixtureProject
beforeAll(() => {
  project = createFixtureProject({
    [FORMS_FILE]: FORMS_MACHINE,
    [FAULTS_FILE]: FAULTS_MACHINE,
    ...TOGGLE_PROJECT,
    ...FETCH_PROJECT,
  })
})
afterAll(() => project.remove())

const chart = () => analyzeSource(FORMS_FILE, FORMS_MACHINE)[0]!
const describeSite = (t: ReturnType<typeof chart>['transitions'][number]) =>
  `${statePath(t.source)} ${eventLabel(t.event)}#${t.index} -> ${t.targets.map((r) => r.text).join(',')}`

async function load(
  path: string,
  id = 'fixture',
  exportName = 'fixtureMachine',
): Promise<RuntimeTransition[]> {
  const exports = (await import(/* @vite-ignore */ path)) as Record<string, unknown>
  return runtimeTransitions(findMachine(exports, id, exportName)!)
}

describe('source analysis', () => {
  it('finds every transition form, with its event, position and targets', () => {
    const found = chart()
    expect(found.id).toBe('fixture')
    expect(found.exportName).toBe('fixtureMachine')
    expect(found.unsupported).toEqual([])
    expect(found.transitions.map(describeSite).sort()).toEqual([...FORMS_TRANSITIONS].sort())
    const guards = Object.fromEntries(found.transitions.map((t) => [describeSite(t), t.guard]))
    expect(guards['loading error load#0 -> #fixture.done']).toBe('isGone')
    expect(guards['active FAIL#0 -> failed']).toBe('hasCode')
  })

  it('agrees with the transition table XState builds from the same file', async () => {
    const table = await load(join(project.root, FORMS_FILE))
    expect(checkSites(chart(), table)).toEqual({ mismatched: [], notFound: [] })
    // The check itself notices a transition the analysis missed.
    const partial = { ...chart(), transitions: chart().transitions.slice(1) }
    expect(checkSites(partial, table).notFound).toEqual(['fixture|STOP|0'])
  })
})

describe('mutants', () => {
  it('re-target to the next state of the same scope, in the syntax of the original', () => {
    const mutants = generateMutants('fixture', FORMS_FILE, FORMS_MACHINE, chart(), {
      kinds: ['retarget'],
    })
    const change = Object.fromEntries(
      mutants.map((m) => [`${m.state} ${m.eventLabel}#${m.index}`, `${m.from} → ${m.to}`]),
    )
    expect(change).toMatchObject({
      '(root) STOP#0': '.done → .idle',
      'idle GO#0': 'loading → active',
      'idle JUMP#0': '#fixture.active.two → #fixture.active.three',
      'loading FAST#0': 'active.three → active.one',
      'loading error load#0': '#fixture.done → #fixture.idle',
      'active.two BACK#0': 'one → two',
      'failed RETRY#0': 'loading → active',
    })
    expect(mutants).toHaveLength(17) // every transition with a target, once
  })

  it('drop mutants leave eventless transitions alone', () => {
    const drops = generateMutants('fixture', FORMS_FILE, FORMS_MACHINE, chart(), {
      kinds: ['drop'],
    })
    expect(drops).toHaveLength(16)
    expect(drops.some((m) => m.event === 'always')).toBe(false)
    expect(drops.every((m) => m.to === null && m.expectedTargets === null)).toBe(true)
  })

  it('rewrite a shared constant where it is used, not where it is declared', () => {
    const mutant = generateMutants('fixture', FORMS_FILE, FORMS_MACHINE, chart()).find(
      (m) => m.state === 'other' && m.index === 1 && m.kind === 'retarget',
    )!
    expect(mutant.source).toContain(FORMS_MACHINE.slice(0, FORMS_MACHINE.indexOf('const RETRY')))
    expect(mutant.source).toContain(
      "onDone: [...(ON_LOAD_ERROR).map((t, i) => (i === 1 ? { ...t, target: 'other' } : t)), { target: 'idle' }]",
    )
    expect(mutant.line).toBe(5) // where the target is written, inside ON_LOAD_ERROR
    expect(mutant.useLine).toBe(46) // where `other` uses it
  })

  it('every mutant, for every alternative target, loads and changes its one transition only', async () => {
    const baseline = await load(join(project.root, FORMS_FILE))
    const mutants = generateMutants('fixture', FORMS_FILE, FORMS_MACHINE, chart(), {
      allTargets: true,
    })
    expect(mutants.length).toBeGreaterThan(33)
    for (const [i, mutant] of mutants.entries()) {
      const file = project.write(`mutants/mutant-${i}.ts`, mutant.source)
      const table = await load(file)
      expect(checkMutantTable(baseline, table, mutant), mutant.id).toBeUndefined()
    }
  })

  it('the table check rejects a mutant that changes nothing, or more than its transition', () => {
    const baseline: RuntimeTransition[] = [
      { key: 'm.a|GO|0', targets: ['m.b'] },
      { key: 'm.b|GO|0', targets: ['m.a'] },
    ]
    const mutant = { key: 'm.a|GO|0', expectedTargets: ['m.a'] }
    expect(checkMutantTable(baseline, baseline, mutant)).toContain('targets')
    expect(
      checkMutantTable(
        baseline,
        [
          { key: 'm.a|GO|0', targets: ['m.a'] },
          { key: 'm.b|GO|0', targets: ['m.b'] },
        ],
        mutant,
      ),
    ).toContain('other transitions changed')
    expect(checkMutantTable(baseline, baseline.slice(1), mutant)).toContain('different set')
    expect(
      checkMutantTable(baseline, baseline, { key: 'm.a|GO|0', expectedTargets: ['m.b'] }),
    ).toContain('does not change')
  })
})

describe('fault mutants', () => {
  const faultsChart = () => analyzeSource(FAULTS_FILE, FAULTS_MACHINE)[0]!
  const faultMutants = () =>
    generateMutants('faults', FAULTS_FILE, FAULTS_MACHINE, faultsChart(), { kinds: FAULT_KINDS })

  it('remove an onError, a failure handler or a timeout, one at a time, in transition order', () => {
    expect(faultsChart().unsupported).toEqual([])
    const mutants = faultMutants()
    expect(mutants.map((m) => `${m.kind} ${m.state} ${m.eventLabel}#${m.index}`)).toEqual(
      FAULT_MUTANTS,
    )
    expect(Object.fromEntries(mutants.map((m) => [m.id, m.fault]))).toMatchObject({
      'faults#1': 'handles the failure event CHILD.FAILED',
      'faults#2': 'handles an error event',
      'faults#3': 'guard failedWith reads a failure',
      'faults#4': 'goes to the failure state failed',
      'faults#5': 'the load failure is no longer handled (2 transitions)',
      'faults#6': 'onError branch 1 of 2',
      'faults#10': 'guard childIn reads a failure',
      'faults#11': 'the timeout never fires',
    })
    // Not faults: a success branch, a cancel (ABORTED is no error), a child reporting `connected`.
    const sites = faultsChart().transitions
    const site = (state: string, event: string, index = 0) =>
      sites.find((t) => statePath(t.source) === state && t.event === event && t.index === index)!
    expect(faultOf(site('loading', 'xstate.done.actor.load'))).toBeUndefined()
    expect(faultOf(site('waiting', 'CANCEL'))).toBeUndefined()
    expect(faultOf(site('waiting', 'CHILD.CHANGED', 1))).toBeUndefined()
    // A single onError transition is the drop-onerror mutant, not a second, identical one.
    expect(faultOf(site('single', 'xstate.error.actor.single'))).toBeUndefined()
  })

  it('change the source at the use site: in place, a shared list, a helper, a shared invoke', () => {
    const source = (id: string) => faultMutants().find((m) => m.id === id)!.source
    const declarations = FAULTS_MACHINE.slice(0, FAULTS_MACHINE.indexOf('export const'))
    for (const m of faultMutants()) expect(m.source.startsWith(declarations), m.id).toBe(true)
    expect(source('faults#3')).toContain(
      "onDone: (onChildDone('done')).filter((_, i) => i !== 1), onError: ON_FETCH_ERROR",
    )
    expect(source('faults#5')).toMatch(/onDone: onChildDone\('done'\), +\}/)
    expect(source('faults#6')).toContain('onError: (ON_FETCH_ERROR).filter((_, i) => i !== 0)')
    expect(source('faults#8')).toMatch(/invoke: \{ id: 'single', src: 'load', +\}/)
    expect(source('faults#9')).toContain(
      'pinging: { invoke: { ...(SHARED_INVOKE), onError: undefined } }',
    )
    expect(source('faults#11')).not.toContain('answerMs: {')
    expect(source('faults#12')).toMatch(/1000: \[ *\{ target: 'failed' \}\]/)
  })

  it('every fault mutant loads and the table is the baseline without its transition(s)', async () => {
    const baseline = await load(join(project.root, FAULTS_FILE), 'faults', 'faultsMachine')
    expect(checkSites(faultsChart(), baseline)).toEqual({ mismatched: [], notFound: [] })
    for (const [i, mutant] of faultMutants().entries()) {
      const table = await load(
        project.write(`mutants/fault-${i}.ts`, mutant.source),
        'faults',
        'faultsMachine',
      )
      expect(checkMutantTable(baseline, table, mutant), mutant.id).toBeUndefined()
      expect(table.length, mutant.id).toBeLessThan(baseline.length)
    }
    // The check notices a removal of the wrong branch of a list with the same targets.
    const wrong = faultMutants().find((m) => m.id === 'faults#12')!
    const table = await load(
      project.write('mutants/fault-wrong.ts', wrong.source),
      'faults',
      'faultsMachine',
    )
    expect(
      checkMutantTable(baseline, table, { ...wrong, removes: { ...wrong.removes!, index: 1 } }),
    ).toContain('other transitions changed')
  })

  it('a dropped onError leaves the machine in error; a dropped after never times out', async () => {
    const { createActor } = await import('xstate')
    const mutant = async (id: string) => {
      const m = faultMutants().find((x) => x.id === id)!
      const exports = (await import(
        /* @vite-ignore */ project.write(`mutants/run-${id.replace('#', '-')}.ts`, m.source)
      )) as Record<string, unknown>
      return findMachine(exports, 'faults', 'faultsMachine')!
    }
    const original = findMachine(
      (await import(/* @vite-ignore */ join(project.root, FAULTS_FILE))) as Record<string, unknown>,
      'faults',
      'faultsMachine',
    )!
    const run = async (machine: typeof original, event: string, ms: number) => {
      const actor = createActor(machine)
      actor.subscribe({ error: () => {} })
      actor.start()
      actor.send({ type: event })
      await new Promise((r) => setTimeout(r, ms))
      const { status, value } = actor.getSnapshot()
      actor.stop()
      return { status, value }
    }
    expect(await run(original, 'SINGLE', 10)).toEqual({ status: 'done', value: 'failed' })
    expect(await run(await mutant('faults#8'), 'SINGLE', 10)).toMatchObject({ status: 'error' })
    expect(await run(await mutant('faults#9'), 'PING', 10)).toMatchObject({ status: 'error' })
    expect(await run(original, 'WAIT', 60)).toEqual({ status: 'active', value: 'idle' })
    expect(await run(await mutant('faults#11'), 'WAIT', 60)).toEqual({
      status: 'active',
      value: 'waiting',
    })
  })

  it('work on every machine of the repository: each is generated, at its use site, and parses', () => {
    // Static only (the root and pairing machines are mutated after others' changes merge): every
    // onError, every after and every failure handler of the real charts yields its mutant, and the
    // mutated source is valid TypeScript.
    const counts: Record<string, number> = {}
    for (const file of machineFiles(REPO)) {
      const text = readFileSync(join(REPO, file), 'utf8')
      for (const machine of analyzeSource(file, text)) {
        expect(machine.unsupported, file).toEqual([])
        expect(
          machine.onErrors.filter((o) => !o.removal),
          file,
        ).toEqual([])
        const removable = machine.transitions.filter(
          (t) => t.origin === 'after' || faultOf(t) !== undefined,
        )
        expect(
          removable.filter((t) => !t.removal).map((t) => t.line),
          file,
        ).toEqual([])
        const mutants = generateMutants(file, file, text, machine, { kinds: FAULT_KINDS })
        expect(mutants).toHaveLength(machine.onErrors.length + removable.length)
        for (const m of mutants) {
          const parsed = ts.createSourceFile(file, m.source, ts.ScriptTarget.Latest)
          const { parseDiagnostics } = parsed as unknown as { parseDiagnostics: ts.Diagnostic[] }
          expect(
            parseDiagnostics.map((d) => d.messageText),
            m.id,
          ).toEqual([])
          counts[m.kind] = (counts[m.kind] ?? 0) + 1
        }
      }
    }
    expect(Object.keys(counts).sort()).toEqual([...FAULT_KINDS].sort())
  })

  it('tableWithout removes one transition or a whole list and moves the later ones up', () => {
    const table: RuntimeTransition[] = [
      { key: 'm.a|E|0', targets: ['m.x'], guard: 'g' },
      { key: 'm.a|E|1', targets: ['m.y'], guard: null },
      { key: 'm.a|F|0', targets: ['m.x'], guard: null },
      { key: 'm.a.b|E|0', targets: ['m.x'], guard: null },
    ]
    expect(tableWithout(table, { stateId: 'm.a', event: 'E', index: 0 })).toEqual([
      { key: 'm.a|E|0', targets: ['m.y'], guard: null },
      table[2],
      table[3],
    ])
    expect(tableWithout(table, { stateId: 'm.a', event: 'E', index: null })).toEqual(table.slice(2))
  })
})

describe('shared state configs', () => {
  // Outside `machines/`, so the planning tests below do not see it.
  const SHARED_FILE = 'shared/shared.machine.ts'
  const sharedChart = () => analyzeSource(SHARED_FILE, SHARED_STATES_MACHINE)[0]!
  const sharedMutants = () =>
    generateMutants('shared', SHARED_FILE, SHARED_STATES_MACHINE, sharedChart())
  const loadShared = (path: string) => load(path, 'shared', 'sharedMachine')
  const declarations = SHARED_STATES_MACHINE.slice(
    0,
    SHARED_STATES_MACHINE.indexOf('export const sharedMachine'),
  )

  it('give every parent its own transitions, as XState builds them', async () => {
    const chart = sharedChart()
    expect(chart.unsupported).toEqual([])
    const baseline = await loadShared(project.write(SHARED_FILE, SHARED_STATES_MACHINE))
    expect(checkSites(chart, baseline)).toEqual({ mismatched: [], notFound: [] })
    const sites = (prefix: string) =>
      chart.transitions
        .filter((t) => statePath(t.source).startsWith(prefix))
        .map((t) => `${statePath(t.source).slice(prefix.length)} ${eventLabel(t.event)}#${t.index}`)
    expect(sites('first.')).toEqual([
      'loading done load#0',
      'loading error load#0',
      'loading error load#1',
      'saving CANCEL#0',
      'saving done save#0',
      'saving error save#0',
    ])
    expect(sites('again.').filter((s) => !s.startsWith('waiting'))).toEqual(sites('first.'))
    expect(sites('again.waiting')).toEqual(sites('resting.waiting'))
    expect(chart.onErrors.map((o) => statePath(o.source))).toEqual([
      'first.loading',
      'first.saving',
      'again.loading',
      'again.saving',
    ])
  })

  it('make a mutant per use site, each changing its own site only, none invalid', async () => {
    const baseline = await loadShared(project.write(SHARED_FILE, SHARED_STATES_MACHINE))
    const mutants = sharedMutants()
    const perSite = (kind: string, state: string, event: string) =>
      mutants.filter((m) => m.kind === kind && m.state === state && m.eventLabel === event)
    const cases = [
      ['drop-onerror', 'loading', 'error load'],
      ['drop-handler', 'loading', 'error load'],
      ['retarget', 'loading', 'done load'],
      ['drop', 'saving', 'CANCEL'],
    ] as const
    for (const [kind, state, event] of cases) {
      const first = perSite(kind, `first.${state}`, event).length
      expect(first, `${kind} first.${state}`).toBeGreaterThan(0)
      expect(perSite(kind, `again.${state}`, event), `${kind} again.${state}`).toHaveLength(first)
    }
    expect(perSite('drop-after', 'again.waiting', 'after pauseMs')).toHaveLength(1)
    expect(perSite('drop-after', 'resting.waiting', 'after pauseMs')).toHaveLength(1)
    for (const [i, mutant] of mutants.entries()) {
      // The shared code stays as written: the use site gets an edited copy.
      expect(mutant.source.startsWith(declarations), mutant.id).toBe(true)
      const table = await loadShared(project.write(`mutants/shared-${i}.ts`, mutant.source))
      expect(checkMutantTable(baseline, table, mutant), mutant.id).toBeUndefined()
    }
  })

  it('a dropped onError at one use leaves the other use handling the failure', async () => {
    const { createActor } = await import('xstate')
    const run = async (kind: string, state: string, index = 0) => {
      const mutant = sharedMutants().find(
        (m) =>
          m.kind === kind &&
          m.state === state &&
          m.eventLabel === 'error load' &&
          m.index === index,
      )!
      const path = project.write(`mutants/run-${mutant.id.replace('#', '-')}.ts`, mutant.source)
      const actor = createActor(findMachine(await import(/* @vite-ignore */ path), 'shared')!)
      actor.subscribe({ error: () => {} })
      actor.start()
      await new Promise((r) => setTimeout(r, 10))
      const { status, value } = actor.getSnapshot()
      actor.stop()
      return { status, value }
    }
    // `first.loading` runs on start; its twin in `again` is never reached.
    expect(await run('drop-onerror', 'first.loading')).toMatchObject({ status: 'error' })
    expect(await run('drop-onerror', 'again.loading')).toEqual({ status: 'done', value: 'failed' })
    // The fallback branch re-targeted (`#shared.failed` → `#shared.gone`) at one use only.
    expect(await run('retarget', 'first.loading', 1)).toEqual({ status: 'done', value: 'gone' })
    expect(await run('retarget', 'again.loading', 1)).toEqual({ status: 'done', value: 'failed' })
  })
})

describe('test selection and planning', () => {
  it('globs match like the shell', () => {
    expect(globToRegExp('test/**/*.test.ts').test('test/a.test.ts')).toBe(true)
    expect(globToRegExp('test/**/*.test.ts').test('test/x/y/a.test.ts')).toBe(true)
    expect(globToRegExp('test/*.test.ts').test('test/x/a.test.ts')).toBe(false)
  })

  it('picks the test files that mention the machine, or the given patterns', () => {
    project.write('test/unrelated.test.ts', "it('x', () => {})\n")
    expect(
      selectTests(project.root, 'machines/toggle/toggle.machine.ts', ['toggleMachine']),
    ).toEqual(['test/toggle.test.ts'])
    expect(
      selectTests(project.root, 'machines/toggle/toggle.machine.ts', [], ['test/*.test.ts']),
    ).toEqual(['test/fetch.test.ts', 'test/toggle.test.ts', 'test/unrelated.test.ts'])
  })

  it('skips the globalSetup only when no test file reaches what it provides', () => {
    project.write(
      'services/provided.ts',
      "import { inject } from 'vitest'\nexport const url = () => inject('url')\n",
    )
    project.write('services/support/services.ts', "export { url } from '../provided.js'\n")
    project.write(
      'services/uses-services.test.ts',
      "import { url } from './support/services'\nurl()\n",
    )
    expect(readsGlobalSetup(project.root, ['test/toggle.test.ts'])).toBe(false)
    expect(
      readsGlobalSetup(project.root, ['test/toggle.test.ts', 'services/uses-services.test.ts']),
    ).toBe(true)
    // This repository: the machine tests do not use the shared redis/cluster/anvil; the UI tests do.
    expect(readsGlobalSetup(REPO, ['test/machines/relay-connection.machine.test.ts'])).toBe(false)
    expect(readsGlobalSetup(REPO, ['test/ui/custom-chain-switcher.test.ts'])).toBe(true)
  })

  it('plans every machine file of the project', () => {
    const plans = planMutation({ root: project.root, kinds: ['retarget'] })
    expect(plans.map((p) => [p.name, p.chart.id, p.mutants.length])).toEqual([
      ['faults', 'faults', 19],
      ['fetch', 'fetch', 3],
      ['fixture', 'fixture', 17],
      ['toggle', 'toggle', 3],
    ])
    expect(planMutation({ root: project.root, machines: ['toggle'] }).map((p) => p.name)).toEqual([
      'toggle',
    ])
  })
})

// ---- running (child processes with Vitest) ---------------------------------------------------------

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', TSX, join(REPO, 'scripts/mutate.ts'), ...args],
      {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
    })
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString()
    })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const toggleJob = (tests: string[]): JobInput => ({
  root: project.root,
  config: false,
  module: join(project.root, 'machines/toggle/toggle.machine.ts'),
  machineId: 'toggle',
  exportName: 'toggleMachine',
  tests: tests.map((t) => join(project.root, t)),
  globalSetup: false,
})

// Concurrent: each test runs its own mutation children (its own job folder, report file and
// test files; mutants are loaded in memory, the sources stay as they are); assertions use the
// test's own `expect`.
describe.concurrent('running mutants', () => {
  it('kills what the tests catch, lists the survivor, writes the report, leaves the source as it was', async ({
    expect,
  }) => {
    const file = join(project.root, 'machines/toggle/toggle.machine.ts')
    const before = { text: readFileSync(file, 'utf8'), mtime: statSync(file).mtimeMs }
    const json = join(project.root, 'reports/mutation.json')
    const { code, stdout } = await cli([
      '--root',
      project.root,
      '--machine',
      'toggle',
      '--kinds',
      'retarget',
      '--json',
      json,
      '--threshold',
      '90',
    ])
    expect(code, stdout).toBe(1) // 2 of 3 killed: below the threshold
    const report = JSON.parse(readFileSync(json, 'utf8')) as MutationReport
    expect(report.mutants.map((m) => [m.state, m.event, m.from, m.to, m.status])).toEqual([
      ['off', 'TOGGLE', ['on'], ['off'], 'killed'],
      ['on', 'TOGGLE', ['off'], ['on'], 'killed'],
      ['on', 'RESET', ['off'], ['on'], 'survived'],
    ])
    expect(report.mutants[0]!.killedBy?.file).toBe('test/toggle.test.ts')
    expect(report.machines[0]).toMatchObject({
      name: 'toggle',
      killed: 2,
      survived: 1,
      score: 66.7,
    })
    expect(stdout).toContain(
      "toggle#3  machines/toggle/toggle.machine.ts:8  on --RESET-->  'off' → 'on'",
    )
    expect({ text: readFileSync(file, 'utf8'), mtime: statSync(file).mtimeMs }).toEqual(before)
  }, 180_000)

  it('scores each kind apart: a suite that never drives a failure kills no fault mutant', async ({
    expect,
  }) => {
    const json = join(project.root, 'reports/fetch.json')
    const { code, stdout } = await cli([
      '--root',
      project.root,
      '--machine',
      'fetch',
      '--kinds',
      'retarget,faults',
      '--json',
      json,
    ])
    expect(code, stdout).toBe(0)
    const report = JSON.parse(readFileSync(json, 'utf8')) as MutationReport
    expect(report.options.kinds).toEqual(['retarget', ...FAULT_KINDS])
    expect(report.mutants.map((m) => [m.kind, m.state, m.eventLabel, m.status])).toEqual([
      ['drop-after', 'loading', 'after limit', 'survived'],
      ['retarget', 'loading', 'after limit', 'survived'],
      ['retarget', 'loading', 'done load', 'killed'],
      ['drop-onerror', 'loading', 'error load', 'survived'],
      ['retarget', 'loading', 'error load', 'survived'],
    ])
    expect(report.machines[0]!.byKind).toMatchObject({
      retarget: { mutants: 3, killed: 1, score: 33.3 },
      'drop-onerror': { mutants: 1, survived: 1, score: 0 },
      'drop-handler': { mutants: 0, score: null },
      'drop-after': { mutants: 1, survived: 1, score: 0 },
    })
    expect(stdout).toMatch(
      /\| machine +\| mutants \| killed \| timeout \| survived \| invalid \| +score \| retarget \| drop-onerror \| drop-handler \| drop-after \|/,
    )
    expect(stdout).toMatch(
      /\| fetch +\| +5 \| +1 \| +0 \| +4 \| +0 \| +20\.0 % \| +33\.3 % \| +0\.0 % \| +- \| +0\.0 % \|/,
    )
    expect(stdout).toContain(
      "fetch#4  machines/fetch/fetch.machine.ts:22  loading --error load-->  onError removed ('failed')",
    )
  }, 180_000)

  it('counts a mutant XState rejects as invalid, not killed', async ({ expect }) => {
    const source = TOGGLE_PROJECT['machines/toggle/toggle.machine.ts'].replace(
      "TOGGLE: 'on'",
      "TOGGLE: 'nowhere'",
    )
    const [outcome] = await runJobs(
      [
        {
          ...toggleJob(['test/toggle.test.ts']),
          mutant: { source, key: 'toggle.off|TOGGLE|0', expectedTargets: ['toggle.nowhere'] },
          baseline: [],
        },
      ],
      { concurrency: 1, timeoutMs: () => 120_000 },
    )
    expect(outcome?.kind).toBe('done')
    if (outcome?.kind !== 'done') return
    expect(outcome.result.invalid).toMatch(/^does not load: .*nowhere/)
    expect(outcome.result.tests).toBeUndefined()
  }, 150_000)

  it('ends a run that hangs after its time limit, with every process it started', async ({
    expect,
  }) => {
    project.write(
      'test/hang.test.ts',
      "import { it } from 'vitest'\nit('hangs', () => {\n  for (;;) {}\n})\n",
    )
    let pid = 0
    const [outcome] = await runJobs([toggleJob(['test/hang.test.ts'])], {
      concurrency: 1,
      timeoutMs: () => 4000,
      onStart: (_, p) => {
        pid = p
      },
    })
    expect(outcome?.kind).toBe('timeout')
    const groupAlive = () => {
      try {
        process.kill(-pid, 0)
        return true
      } catch {
        return false
      }
    }
    for (let i = 0; i < 50 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100))
    expect(groupAlive()).toBe(false)
  }, 60_000)
})
