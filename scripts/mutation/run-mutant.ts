/**
 * One mutation run, in its own process (started by runner.ts, never by hand):
 *
 *   node --import tsx scripts/mutation/run-mutant.ts <job.json>
 *
 * Starts Vitest with a plugin that serves the mutant's source in place of the machine file (the
 * work tree is never written), imports the machine to check that it loads and that exactly the
 * mutated transition changed, then runs the job's test files with `bail: 1` and writes the outcome
 * to the job's result file. Without a mutant it is the baseline run: the machine as committed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { Plugin } from 'vitest/config'
import { BaseSequencer, createVitest, type TestModule, type TestSpecification } from 'vitest/node'
import {
  checkMutantTable,
  findMachine,
  type RuntimeTransition,
  runtimeTransitions,
} from './runtime'

export interface MutantJob {
  root: string
  /** The Vitest config file, or false for none. */
  config: string | false
  /** Absolute path of the machine's source file. */
  module: string
  machineId: string
  exportName: string | undefined
  /** Absolute paths of the test files to run. */
  tests: string[]
  /** False when no test file reads what the config's `globalSetup` provides: it is skipped. */
  globalSetup: boolean
  mutant?: {
    /** Absolute path of the file the mutant changes, when not `module` (an imported state config). */
    file?: string
    source: string
    key: string
    expectedTargets: string[] | null
    removes?: { stateId: string; event: string; index: number | null }
  }
  /** The unmutated table, to check the mutant against. */
  baseline?: RuntimeTransition[]
  testTimeout?: number
  resultPath: string
}

export interface JobResult {
  table?: RuntimeTransition[]
  /** Why the mutant is not a valid mutant (it does not load, or changes something else). */
  invalid?: string
  tests?: { passed: number; failed: number; skipped: number }
  /** The first failing test (or load error) when a test failed. */
  failure?: { file: string; test: string; message: string }
  durationMs: number
}

const cleanId = (id: string) => id.replace(/[?#].*$/, '')

/** Serves `source` for `file`, so imports of the machine get the mutant and resolve as usual. */
export function mutantPlugin(file: string, source: string): Plugin {
  return {
    name: 'scope-connect:mutant',
    enforce: 'pre',
    load(id) {
      return cleanId(id) === file ? source : undefined
    },
  }
}

/** Runs test files in the job's order (fast, focused tests first), so `bail` stops early. */
function inOrder(files: string[]) {
  return class extends BaseSequencer {
    override async sort(specifications: TestSpecification[]) {
      const rank = (s: TestSpecification) => files.indexOf(s.moduleId)
      return [...specifications].sort((a, b) => rank(a) - rank(b))
    }
  }
}

/** The gist of an error message: its first lines, on one line, at most 300 characters. */
const gist = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' ')
    .slice(0, 300)

async function run(job: MutantJob): Promise<JobResult> {
  const started = Date.now()
  const vitest = await createVitest(
    'test',
    {
      root: job.root,
      config: job.config,
      watch: false,
      bail: 1,
      pool: 'forks',
      maxWorkers: 1,
      silent: true,
      reporters: [{}],
      passWithNoTests: true,
      cache: false,
      sequence: { sequencer: inOrder(job.tests) },
      ...(job.globalSetup ? {} : { globalSetup: [] }),
      ...(job.testTimeout ? { testTimeout: job.testTimeout } : {}),
    },
    job.mutant ? { plugins: [mutantPlugin(job.mutant.file ?? job.module, job.mutant.source)] } : {},
  )
  const done = (result: Omit<JobResult, 'durationMs'>): JobResult => ({
    ...result,
    durationMs: Date.now() - started,
  })
  try {
    let table: RuntimeTransition[]
    try {
      const exports = (await vitest.import(job.module)) as Record<string, unknown>
      const machine = findMachine(exports, job.machineId, job.exportName)
      if (!machine) return done({ invalid: `no exported machine with id "${job.machineId}"` })
      table = runtimeTransitions(machine)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return done({ invalid: `does not load: ${gist(message)}` })
    }
    if (job.mutant && job.baseline) {
      const reason = checkMutantTable(job.baseline, table, job.mutant)
      if (reason) return done({ table, invalid: reason })
    }

    const project = vitest.getRootProject()
    const specifications = job.tests.map((file) => project.createSpecification(file))
    const { testModules, unhandledErrors } = await vitest.runTestSpecifications(specifications)
    const tests = { passed: 0, failed: 0, skipped: 0 }
    let failure: JobResult['failure']
    const fail = (module: TestModule, test: string, message: string) => {
      failure ??= { file: module.relativeModuleId, test, message: gist(message) }
    }
    for (const module of testModules) {
      for (const error of module.errors()) fail(module, '(module)', error.message)
      for (const test of module.children.allTests()) {
        const { state } = test.result()
        if (state === 'passed') tests.passed++
        else if (state === 'failed') {
          tests.failed++
          fail(module, test.fullName, test.result().errors?.[0]?.message ?? 'failed')
        } else tests.skipped++
      }
    }
    if (!failure && unhandledErrors.length > 0) {
      const error = unhandledErrors[0] as { message?: string }
      failure = {
        file: '(unhandled)',
        test: '(unhandled error)',
        message: gist(String(error?.message ?? error)),
      }
    }
    return done({ table, tests, ...(failure ? { failure } : {}) })
  } finally {
    await vitest.close()
  }
}

const jobPath = process.argv[2]
if (jobPath && process.argv[1]?.endsWith('run-mutant.ts')) {
  // The runner is gone (killed hard): end this process group, Vitest's workers included.
  process.on('disconnect', () => {
    process.kill(-process.pid, 'SIGKILL')
  })
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as MutantJob
  const result = await run(job)
  writeFileSync(job.resultPath, JSON.stringify(result))
  process.exit(0)
}
