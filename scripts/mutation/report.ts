/** The mutation report: per-mutant outcomes, per-machine scores, and their text rendering. */
import type { Mutant, MutantKind } from './mutants'

/**
 * - `killed`: a test failed. `timeout`: the run did not finish in time (a hang is detected too).
 * - `survived`: every test passed. `invalid`: the mutant did not load or changed more than its
 *   transition (not counted). `error`: the run itself broke (not counted, reported).
 */
export type MutantStatus = 'killed' | 'timeout' | 'survived' | 'invalid' | 'error'

export interface MutantResult extends Mutant {
  status: MutantStatus
  /** The first failing test, for killed mutants. */
  killedBy?: { file: string; test: string; message: string }
  /** Why the mutant is invalid, or what broke. */
  reason?: string
  durationMs: number
}

export interface Tally {
  mutants: number
  killed: number
  timeout: number
  survived: number
  invalid: number
  error: number
  /** (killed + timeout) / (killed + timeout + survived), in percent; null without valid mutants. */
  score: number | null
}

export interface MachineSummary extends Tally {
  name: string
  machineId: string
  file: string
  tests: string[]
  baselineMs: number
  byKind: Partial<Record<MutantKind, Tally>>
  /** Runtime transitions with a target that the source analysis did not find (not mutated). */
  notFound: string[]
  /** Transitions the analysis found where the runtime disagrees (not mutated). */
  mismatched: string[]
  unsupported: Array<{ line: number; reason: string }>
}

export interface MutationReport {
  version: 1
  options: { kinds: MutantKind[]; allTargets: boolean; tests: string[] | 'default' }
  machines: MachineSummary[]
  total: Tally
  mutants: MutantResult[]
}

export function tally(results: Pick<MutantResult, 'status'>[]): Tally {
  const count = (status: MutantStatus) => results.filter((r) => r.status === status).length
  const killed = count('killed')
  const timeout = count('timeout')
  const survived = count('survived')
  const valid = killed + timeout + survived
  return {
    mutants: results.length,
    killed,
    timeout,
    survived,
    invalid: count('invalid'),
    error: count('error'),
    score: valid === 0 ? null : Math.round(((killed + timeout) / valid) * 1000) / 10,
  }
}

const pct = (score: number | null) => (score === null ? '-' : `${score.toFixed(1)} %`)

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}

/** Per machine: counts and scores (overall and per kind), as a Markdown table. */
export function formatSummary(report: MutationReport): string {
  const kinds = report.options.kinds
  const row = (name: string, t: Tally, byKind: Partial<Record<MutantKind, Tally>>) => [
    name,
    String(t.mutants),
    String(t.killed),
    String(t.timeout),
    String(t.survived),
    String(t.invalid + t.error),
    pct(t.score),
    ...kinds.map((k) => pct(byKind[k]?.score ?? null)),
  ]
  const totalByKind = Object.fromEntries(
    kinds.map((k) => [k, tally(report.mutants.filter((m) => m.kind === k))]),
  )
  return table(
    ['machine', 'mutants', 'killed', 'timeout', 'survived', 'invalid', 'score', ...kinds],
    [
      ...report.machines.map((m) => row(m.name, m, m.byKind)),
      row('total', report.total, totalByKind),
    ],
  )
}

const quoteTargets = (targets: string[] | null) =>
  targets === null || targets.length === 0 ? '(no target)' : targets.map((t) => `'${t}'`).join(', ')

/** One line per mutant: where, which transition, and the change. */
export function describeMutant(m: Mutant): string {
  const where =
    m.useLine === m.line ? `${m.file}:${m.line}` : `${m.file}:${m.line} (used at :${m.useLine})`
  const guard = m.guard ? ` [${m.guard}]` : ''
  if (m.kind === 'drop-onerror')
    return `${m.id}  ${where}  ${m.state} --${m.eventLabel}-->  onError removed (${quoteTargets(m.from)})  (${m.kind}: ${m.fault})`
  if (m.removes)
    return `${m.id}  ${where}  ${m.state} --${m.eventLabel}${guard}-->  ${quoteTargets(m.from)} removed  (${m.kind}: ${m.fault})`
  return `${m.id}  ${where}  ${m.state} --${m.eventLabel}${guard}-->  ${quoteTargets(m.from)} → ${quoteTargets(m.to)}  (${m.kind})`
}

export function formatSurvivors(report: MutationReport): string {
  const survivors = report.mutants.filter((m) => m.status === 'survived')
  if (survivors.length === 0) return 'No survivors.'
  return [
    `Survivors (${survivors.length}):`,
    ...survivors.map((m) => `  ${describeMutant(m)}`),
  ].join('\n')
}

export function formatProblems(report: MutationReport): string {
  const lines: string[] = []
  for (const m of report.mutants.filter((r) => r.status === 'invalid' || r.status === 'error'))
    lines.push(`  ${m.status} ${describeMutant(m)}: ${m.reason ?? ''}`)
  for (const machine of report.machines) {
    for (const key of machine.notFound)
      lines.push(`  ${machine.name}: transition not found in the source, not mutated: ${key}`)
    for (const key of machine.mismatched)
      lines.push(`  ${machine.name}: source and runtime disagree, not mutated: ${key}`)
    for (const u of machine.unsupported)
      lines.push(`  ${machine.name}: ${machine.file}:${u.line} not followed: ${u.reason}`)
  }
  return lines.length ? ['Not counted:', ...lines].join('\n') : ''
}
