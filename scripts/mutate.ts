/**
 * Mutation testing of the statecharts (docs/statecharts.md, "Mutation testing").
 *
 *   npm run mutate                                 # every machine, default tests
 *   npm run mutate -- --machine connect --list     # the mutants, without running them
 *   npm run mutate -- --tests test/model --kinds retarget --threshold 95
 *   npm run mutate -- --machine sign --kinds faults              # drop-onerror, drop-handler, drop-after
 *
 * Flags: --machine <name|id> (repeatable), --tests <glob|folder> (repeatable or comma-separated),
 * --kinds retarget,drop,drop-onerror,drop-handler,drop-after (or `faults`: the last three),
 * --all-targets, --json <path> (default reports/mutation.json), --list,
 * --concurrency <n> (default 2), --timeout <ms> per mutant, --test-timeout <ms>,
 * --threshold <percent> (exit 1 below it), --root <dir>, --config <vitest config>.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { FAULT_KINDS, MUTANT_KINDS, type MutantKind } from './mutation/mutants'
import { BaselineError, planMutation, runMutation } from './mutation/mutate'
import { describeMutant, formatProblems, formatSummary, formatSurvivors } from './mutation/report'

const { values } = parseArgs({
  options: {
    machine: { type: 'string', multiple: true },
    tests: { type: 'string', multiple: true },
    kinds: { type: 'string' },
    'all-targets': { type: 'boolean', default: false },
    json: { type: 'string', default: 'reports/mutation.json' },
    list: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    'test-timeout': { type: 'string' },
    threshold: { type: 'string' },
    root: { type: 'string', default: '.' },
    config: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})

if (values.help) {
  console.log(
    'Usage: npm run mutate -- [--machine <name>] [--tests <glob>] [--kinds <kinds>|faults]',
  )
  console.log('  [--all-targets] [--json <path>] [--list] [--concurrency <n>] [--timeout <ms>]')
  console.log('  [--test-timeout <ms>] [--threshold <percent>] [--root <dir>] [--config <file>]')
  console.log(`  kinds: ${MUTANT_KINDS.join(', ')}; faults = ${FAULT_KINDS.join(',')}`)
  process.exit(0)
}

const split = (list: string[] | undefined) => list?.flatMap((v) => v.split(',')).filter(Boolean)
const number = (flag: string, value: string | undefined) => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${flag} must be a number, got "${value}"`)
    process.exit(2)
  }
  return n
}
const kinds = split(values.kinds ? [values.kinds] : undefined)?.flatMap((k) =>
  k === 'faults' ? [...FAULT_KINDS] : [k],
) as MutantKind[] | undefined
for (const kind of kinds ?? []) {
  if (!MUTANT_KINDS.includes(kind)) {
    console.error(`--kinds: unknown kind "${kind}" (${MUTANT_KINDS.join(', ')})`)
    process.exit(2)
  }
}

const root = resolve(values.root)
const options = {
  root,
  ...(values.config ? { config: resolve(values.config) } : {}),
  machines: split(values.machine),
  tests: split(values.tests),
  kinds,
  allTargets: values['all-targets'],
  concurrency: number('concurrency', values.concurrency),
  timeoutMs: number('timeout', values.timeout),
  testTimeout: number('test-timeout', values['test-timeout']),
  log: (line: string) => console.log(line),
}
const threshold = number('threshold', values.threshold)

if (values.list) {
  for (const plan of planMutation(options)) {
    console.log(
      `${plan.name} (${plan.file}): ${plan.chart.transitions.length} transitions, ${plan.mutants.length} mutants`,
    )
    console.log(`  tests: ${plan.tests.join(', ') || '(none)'}`)
    for (const mutant of plan.mutants) console.log(`  ${describeMutant(mutant)}`)
    for (const u of plan.chart.unsupported)
      console.log(`  not followed: ${plan.file}:${u.line} ${u.reason}`)
  }
  process.exit(0)
}

try {
  const report = await runMutation(options)
  const jsonPath = resolve(root, values.json)
  mkdirSync(dirname(jsonPath), { recursive: true })
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\n${formatSummary(report)}\n`)
  console.log(formatSurvivors(report))
  const problems = formatProblems(report)
  if (problems) console.log(`\n${problems}`)
  console.log(`\nReport: ${jsonPath}`)
  if (threshold !== undefined && (report.total.score ?? 0) < threshold) {
    console.error(
      `Mutation score ${report.total.score ?? '-'} % is below the threshold ${threshold} %.`,
    )
    process.exit(1)
  }
} catch (error) {
  if (error instanceof BaselineError) {
    console.error(error.message)
    process.exit(2)
  }
  throw error
}
