/**
 * Mutation testing of the statecharts: plan (find machines, transitions, mutants, tests), run a
 * baseline per machine (the tests must pass on the unmutated chart, and the source analysis must
 * agree with the loaded machine), then run every mutant and summarise. `scripts/mutate.ts` is the
 * command line; see docs/statecharts.md, "Mutation testing".
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { machineFiles, machineName, readsGlobalSetup, selectTests } from './files'
import { generateMutants, MUTANT_KINDS, type MutantKind, type MutantWithSource } from './mutants'
import { type MachineSummary, type MutantResult, type MutationReport, tally } from './report'
import { type JobInput, type JobOutcome, runJobs } from './runner'
import { checkSites } from './runtime'
import { analyzeSource, type ChartMachine } from './transitions'

export interface MutateOptions {
  /** Project root (default: the current directory). */
  root?: string
  /** Vitest config file; default `vitest.config.ts` in the root when present. */
  config?: string | false
  /** Machine names (`connect`) or ids (`sessionPolling`) to mutate; default all. */
  machines?: string[]
  /** Test file globs or folders; default see `selectTests`. */
  tests?: string[]
  kinds?: MutantKind[]
  allTargets?: boolean
  /** Mutants run at the same time (default 2). */
  concurrency?: number
  /** Wall-clock limit per mutant run; default 3 × the machine's baseline + 15 s, at least 30 s. */
  timeoutMs?: number
  /** Vitest's per-test timeout inside mutant runs (default: the config's). */
  testTimeout?: number
  log?: (line: string) => void
}

export interface MachinePlan {
  name: string
  file: string
  chart: ChartMachine
  tests: string[]
  /** Whether a test file reads what the Vitest config's `globalSetup` provides (see `readsGlobalSetup`). */
  readsGlobalSetup: boolean
  mutants: MutantWithSource[]
}

/** Finds the machines, their mutants and their tests; loads and runs nothing. */
export function planMutation(options: MutateOptions = {}): MachinePlan[] {
  const root = resolve(options.root ?? '.')
  const plans: MachinePlan[] = []
  for (const file of machineFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8')
    const charts = analyzeSource(file, text, (module) =>
      existsSync(join(root, module)) ? readFileSync(join(root, module), 'utf8') : undefined,
    )
    for (const chart of charts) {
      const name = charts.length > 1 ? `${machineName(file)}:${chart.id}` : machineName(file)
      if (options.machines && !options.machines.some((m) => m === name || m === chart.id)) continue
      const tests = selectTests(
        root,
        file,
        chart.exportName ? [chart.exportName] : [],
        options.tests,
      )
      plans.push({
        name,
        file,
        chart,
        tests,
        readsGlobalSetup: readsGlobalSetup(root, tests),
        mutants: generateMutants(name, file, text, chart, {
          kinds: options.kinds ?? MUTANT_KINDS,
          allTargets: options.allTargets ?? false,
        }),
      })
    }
  }
  return plans
}

export class BaselineError extends Error {}

/** Runs the baseline and every mutant of the planned machines. */
export async function runMutation(options: MutateOptions = {}): Promise<MutationReport> {
  const root = resolve(options.root ?? '.')
  const log = options.log ?? (() => {})
  const config =
    options.config ??
    (existsSync(join(root, 'vitest.config.ts')) ? join(root, 'vitest.config.ts') : false)
  const concurrency = options.concurrency ?? 2
  const plans = planMutation({ ...options, root })

  const jobFor = (plan: MachinePlan): JobInput => ({
    root,
    config,
    module: join(root, plan.file),
    machineId: plan.chart.id,
    exportName: plan.chart.exportName,
    tests: plan.tests.map((t) => join(root, t)),
    globalSetup: plan.readsGlobalSetup,
    ...(options.testTimeout ? { testTimeout: options.testTimeout } : {}),
  })

  log(`Baseline: ${plans.map((p) => `${p.name} (${p.tests.length} test files)`).join(', ')}`)
  const baselines = await runJobs(plans.map(jobFor), {
    concurrency,
    timeoutMs: () => options.timeoutMs ?? 300_000,
  })
  const machines: MachineSummary[] = []
  const jobs: Array<{ job: JobInput; mutant: MutantWithSource; timeoutMs: number }> = []
  const skipped: MutantResult[] = []
  plans.forEach((plan, i) => {
    const outcome = baselines[i]!
    const failure = baselineFailure(outcome)
    if (failure) throw new BaselineError(`${plan.name}: the baseline run failed: ${failure}`)
    const result = (outcome as Extract<JobOutcome, { kind: 'done' }>).result
    const table = result.table!
    const { mismatched, notFound } = checkSites(plan.chart, table)
    machines.push({
      name: plan.name,
      machineId: plan.chart.id,
      file: plan.file,
      tests: plan.tests,
      baselineMs: result.durationMs,
      byKind: {},
      notFound,
      mismatched,
      unsupported: plan.chart.unsupported,
      ...tally([]),
    })
    const timeoutMs = options.timeoutMs ?? Math.max(30_000, 3 * result.durationMs + 15_000)
    for (const mutant of plan.mutants) {
      if (mismatched.includes(mutant.key)) {
        skipped.push({
          ...strip(mutant),
          status: 'error',
          reason: 'source and runtime disagree',
          durationMs: 0,
        })
        continue
      }
      jobs.push({
        mutant,
        timeoutMs,
        job: {
          ...jobFor(plan),
          mutant: {
            ...(mutant.file === plan.file ? {} : { file: join(root, mutant.file) }),
            source: mutant.source,
            key: mutant.key,
            expectedTargets: mutant.expectedTargets,
            ...(mutant.removes ? { removes: mutant.removes } : {}),
          },
          baseline: table,
        },
      })
    }
  })

  log(`Running ${jobs.length} mutants, ${concurrency} at a time`)
  let finished = 0
  const outcomes = await runJobs(
    jobs.map((j) => j.job),
    {
      concurrency,
      timeoutMs: (index) => jobs[index]!.timeoutMs,
      onDone: (index, outcome) => {
        finished++
        const status = toResult(jobs[index]!.mutant, outcome).status
        log(`[${finished}/${jobs.length}] ${jobs[index]!.mutant.id} ${status}`)
      },
    },
  )
  const mutants = [...jobs.map((j, i) => toResult(j.mutant, outcomes[i]!)), ...skipped].sort(
    (a, b) => order(plans, a) - order(plans, b),
  )
  for (const machine of machines) {
    const own = mutants.filter((m) => m.machine === machine.name)
    Object.assign(machine, tally(own))
    for (const kind of options.kinds ?? MUTANT_KINDS)
      machine.byKind[kind] = tally(own.filter((m) => m.kind === kind))
  }
  return {
    version: 1,
    options: {
      kinds: [...(options.kinds ?? MUTANT_KINDS)],
      allTargets: options.allTargets ?? false,
      tests: options.tests ?? 'default',
    },
    machines,
    total: tally(mutants),
    mutants,
  }
}

const order = (plans: MachinePlan[], m: MutantResult) => {
  const p = plans.findIndex((plan) => plan.name === m.machine)
  return p * 100_000 + Number(m.id.split('#').pop())
}

function strip(mutant: MutantWithSource) {
  const { source: _source, ...rest } = mutant
  return rest
}

function baselineFailure(outcome: JobOutcome): string | undefined {
  if (outcome.kind === 'timeout') return `timed out after ${outcome.durationMs} ms`
  if (outcome.kind === 'crashed') return outcome.message || 'the run crashed'
  const { result } = outcome
  if (result.invalid) return result.invalid
  if (result.failure)
    return `${result.failure.file} > ${result.failure.test}: ${result.failure.message}`
  return undefined
}

export function toResult(mutant: MutantWithSource, outcome: JobOutcome): MutantResult {
  const base = strip(mutant)
  if (outcome.kind === 'timeout')
    return { ...base, status: 'timeout', durationMs: outcome.durationMs }
  if (outcome.kind === 'crashed')
    return { ...base, status: 'error', reason: outcome.message, durationMs: outcome.durationMs }
  const { result } = outcome
  if (result.invalid)
    return { ...base, status: 'invalid', reason: result.invalid, durationMs: result.durationMs }
  if (result.failure)
    return { ...base, status: 'killed', killedBy: result.failure, durationMs: result.durationMs }
  return { ...base, status: 'survived', durationMs: result.durationMs }
}
