/**
 * The transition table of a loaded machine, as XState resolved it, and the checks that tie the
 * static analysis to it: every statically found transition is where the runtime has it, and a
 * mutant changes exactly its one transition.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate'
import type { Mutant } from './mutants'
import type { ChartMachine } from './transitions'

/**
 * One runtime transition: `key` is `<state id>|<event>|<index>`; `targets` null when targetless;
 * `guard` the guard's type (`inline` for a function), null when unguarded.
 */
export interface RuntimeTransition {
  key: string
  targets: string[] | null
  guard?: string | null
}

const guardLabel = (guard: unknown): string | null => {
  if (guard === undefined || guard === null) return null
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string')
    return (guard as { type: string }).type
  return 'inline'
}

export function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'provide' in value
}

/** The machine with this id among a module's exports (the named export first). */
export function findMachine(
  exports: Record<string, unknown>,
  id: string,
  exportName?: string,
): AnyStateMachine | undefined {
  const named = exportName ? exports[exportName] : undefined
  if (isMachine(named) && named.id === id) return named
  return Object.values(exports).find((v): v is AnyStateMachine => isMachine(v) && v.id === id)
}

/** Every transition of every state node, in state definition order. */
export function runtimeTransitions(machine: AnyStateMachine): RuntimeTransition[] {
  const table: RuntimeTransition[] = []
  const visit = (node: AnyStateNode) => {
    const add = (
      event: string,
      list: readonly { target?: readonly AnyStateNode[]; guard?: unknown }[],
    ) =>
      list.forEach((t, index) => {
        table.push({
          key: `${node.id}|${event}|${index}`,
          targets: t.target?.length ? t.target.map((s) => s.id) : null,
          guard: guardLabel(t.guard),
        })
      })
    for (const [event, list] of node.transitions) add(event, list)
    if (node.always) add('always', node.always)
    for (const child of Object.values(node.states ?? {})) visit(child)
  }
  visit(machine.root)
  return table
}

const same = (a: string[] | null, b: string[] | null) =>
  a === b || (a !== null && b !== null && a.join('\n') === b.join('\n'))

/**
 * The baseline without the removed transitions: one (`index`) or every one (`index` null) of
 * `event` on `stateId`, the later ones of the same list moving up.
 */
export function tableWithout(
  baseline: RuntimeTransition[],
  removes: NonNullable<Mutant['removes']>,
): RuntimeTransition[] {
  const prefix = `${removes.stateId}|${removes.event}|`
  let position = 0
  const table: RuntimeTransition[] = []
  for (const t of baseline) {
    if (!t.key.startsWith(prefix) || t.key.slice(prefix.length).includes('|')) {
      table.push(t)
      continue
    }
    const index = Number(t.key.slice(prefix.length))
    if (removes.index === null || index === removes.index) continue
    table.push({ ...t, key: `${prefix}${position++}` })
  }
  return table
}

const describe = (t: RuntimeTransition | undefined) =>
  t ? `${t.key} → ${JSON.stringify(t.targets)}${t.guard ? ` [${t.guard}]` : ''}` : '(none)'

/** Why the mutant's table is not the baseline with exactly the expected change; undefined if it is. */
export function checkMutantTable(
  baseline: RuntimeTransition[],
  mutated: RuntimeTransition[],
  mutant: Pick<Mutant, 'key' | 'expectedTargets'> & Partial<Pick<Mutant, 'removes'>>,
): string | undefined {
  if (mutant.removes) {
    const expected = tableWithout(baseline, mutant.removes)
    if (expected.length === baseline.length)
      return 'the mutant does not change the transition (nothing to remove)'
    if (mutated.length !== expected.length)
      return `the mutant has ${mutated.length} transitions, expected ${expected.length}`
    const byKey = new Map(mutated.map((t) => [t.key, t]))
    const wrong = expected.filter((t) => {
      const m = byKey.get(t.key)
      return !m || !same(m.targets, t.targets) || (m.guard ?? null) !== (t.guard ?? null)
    })
    if (wrong.length > 0)
      return `other transitions changed too: ${wrong
        .slice(0, 3)
        .map((t) => `${describe(t)} is ${describe(byKey.get(t.key))}`)
        .join(', ')}`
    return undefined
  }
  const byKey = new Map(mutated.map((t) => [t.key, t.targets]))
  if (mutated.length !== baseline.length || baseline.some((t) => !byKey.has(t.key)))
    return 'the mutant has a different set of transitions'
  if (!same(byKey.get(mutant.key) ?? null, mutant.expectedTargets))
    return `${mutant.key} targets ${JSON.stringify(byKey.get(mutant.key))}, expected ${JSON.stringify(mutant.expectedTargets)}`
  const changed = baseline.filter(
    (t) => t.key !== mutant.key && !same(t.targets, byKey.get(t.key)!),
  )
  if (changed.length > 0)
    return `other transitions changed too: ${changed.map((t) => t.key).join(', ')}`
  if (same(baseline.find((t) => t.key === mutant.key)!.targets, mutant.expectedTargets))
    return 'the mutant does not change the transition'
  return undefined
}

export interface SiteCheck {
  /** Static transitions whose key or targets the runtime does not confirm. */
  mismatched: string[]
  /** Runtime transitions with a target that the static analysis did not find. */
  notFound: string[]
}

/** Compares the statically found transitions of `chart` with the loaded machine's table. */
export function checkSites(chart: ChartMachine, baseline: RuntimeTransition[]): SiteCheck {
  const byKey = new Map(baseline.map((t) => [t.key, t.targets]))
  const found = new Set<string>()
  const mismatched: string[] = []
  for (const site of chart.transitions) {
    const key = `${site.source.id}|${site.event}|${site.index}`
    found.add(key)
    const targets = site.targets.length ? site.targets.map((t) => t.state.id) : null
    if (!byKey.has(key) || !same(byKey.get(key)!, targets)) mismatched.push(key)
  }
  const notFound = baseline.filter((t) => t.targets !== null && !found.has(t.key)).map((t) => t.key)
  return { mismatched, notFound }
}
