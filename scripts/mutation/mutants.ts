/**
 * Mutants of a machine source file: each one changes one transition and nothing else.
 *
 * - `retarget`: one target is moved to another state of the same scope. A sibling name (`'idle'`,
 *   `'.cancelled'`) moves to a sibling of the state it names; an id (`'#machine.expired'`) moves to
 *   a sibling of that state too (another state id when it has none). By default the next one in
 *   definition order (wrapping around), so the set of mutants is deterministic; `allTargets` makes
 *   one mutant per alternative.
 * - `drop`: the target is removed, so the transition runs its actions and stays. Not generated for
 *   eventless (`always`) transitions: a targetless eventless transition is no chart anyone writes
 *   (it re-runs its actions on every microstep).
 *
 * Every mutant names only states that exist, so XState accepts it; the runner still checks that
 * the mutant loads and that exactly this transition changed.
 */
import {
  type ChartMachine,
  type ChartState,
  eventLabel,
  statePath,
  type TargetRef,
  type TransitionSite,
} from './transitions'

export type MutantKind = 'retarget' | 'drop'
export const MUTANT_KINDS: readonly MutantKind[] = ['retarget', 'drop']

export interface Mutant {
  /** `<machine>#<n>`, stable for a given source. */
  id: string
  /** The machine's file name without `.machine.ts` (`session-polling`). */
  machine: string
  machineId: string
  /** The source file, relative to the project root. */
  file: string
  kind: MutantKind
  /** Source state path (`waiting.fetching`) and runtime id. */
  state: string
  stateId: string
  /** Runtime event descriptor and its short label. */
  event: string
  eventLabel: string
  /** Position of the transition among the state's transitions for `event`. */
  index: number
  guard: string | undefined
  /** Targets as written, before and after (`null`: dropped). */
  from: string[]
  to: string[] | null
  /** Runtime target ids the mutated transition must have (`null`: targetless). */
  expectedTargets: string[] | null
  /** Line of the mutated target string, and of the transition's use in the state config. */
  line: number
  useLine: number
  /** `<state id>|<event>|<index>`: the transition in the runtime table. */
  key: string
}

export interface MutantWithSource extends Mutant {
  /** The whole mutated source file. */
  source: string
}

export interface MutantOptions {
  kinds?: readonly MutantKind[]
  allTargets?: boolean
}

export const transitionKey = (stateId: string, event: string, index: number) =>
  `${stateId}|${event}|${index}`

const siblings = (state: ChartState) => state.parent?.children ?? []

/** `items` rotated to start after `item`, without it. */
function after<T>(items: readonly T[], item: T): T[] {
  const i = items.indexOf(item)
  return i < 0 ? [...items] : [...items.slice(i + 1), ...items.slice(0, i)]
}

/** The states a target may be moved to, best first. */
export function alternatives(machine: ChartMachine, ref: TargetRef): ChartState[] {
  const near = after(siblings(ref.state), ref.state)
  if (near.length > 0 || !ref.text.startsWith('#')) return near
  return after(machine.states, ref.state).filter((s) => s !== machine.root)
}

/** How `state` is written in the same syntax as the original target `ref`. */
export function targetText(
  machine: ChartMachine,
  source: ChartState,
  ref: TargetRef,
  state: ChartState,
): string {
  const relative = (from: ChartState) => state.path.slice(from.path.length).join('.')
  if (ref.text.startsWith('#')) {
    const defaultId = [machine.id, ...state.path].join('.')
    if (state.id !== defaultId) return `#${state.id}`
    const anchorId = ref.text.slice(1).split('.')[0]
    const anchor = machine.states.find((s) => s.id === anchorId)
    const under =
      anchor && state.path.slice(0, anchor.path.length).join('.') === anchor.path.join('.')
    return under && anchor !== state
      ? `#${anchor.id}.${relative(anchor)}`
      : `#${[machine.id, ...state.path].join('.')}`
  }
  if (ref.text.startsWith('.')) return `.${relative(source)}`
  return relative(source.parent!)
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/** The source with the transition's target replaced by `to` (`null`: no target). */
export function applyEdit(text: string, site: TransitionSite, to: string[] | null): string {
  const { edit } = site
  const value =
    to === null
      ? 'undefined'
      : to.length === 1 && site.targets.length === 1
        ? quote(to[0]!)
        : `[${to.map(quote).join(', ')}]`
  const replaceTransition = (t: string) =>
    edit.kind !== 'wrap' && edit.kind !== 'wrap-element'
      ? t
      : edit.shorthand
        ? to === null
          ? '{}'
          : value
        : `{ ...${t}, target: ${value} }`
  let replacement: string
  switch (edit.kind) {
    case 'shorthand':
      replacement = to === null ? '{}' : value
      break
    case 'property':
      replacement = value
      break
    case 'wrap':
      replacement = edit.prefix + replaceTransition(`(${edit.text})`)
      break
    case 'wrap-element':
      replacement = `${edit.prefix}(${edit.text}).map((t, i) => (i === ${edit.index} ? ${replaceTransition('t')} : t))`
      break
  }
  return text.slice(0, edit.start) + replacement + text.slice(edit.end)
}

/** Every mutant of one machine of a source file, in transition order. */
export function generateMutants(
  name: string,
  file: string,
  text: string,
  machine: ChartMachine,
  options: MutantOptions = {},
): MutantWithSource[] {
  const kinds = options.kinds ?? MUTANT_KINDS
  const mutants: MutantWithSource[] = []
  for (const site of machine.transitions) {
    if (site.targets.length === 0) continue
    const base = {
      machine: name,
      machineId: machine.id,
      file,
      state: statePath(site.source),
      stateId: site.source.id,
      event: site.event,
      eventLabel: eventLabel(site.event),
      index: site.index,
      guard: site.guard,
      from: site.targets.map((t) => t.text),
      useLine: site.line,
      key: transitionKey(site.source.id, site.event, site.index),
    }
    const push = (
      kind: MutantKind,
      to: string[] | null,
      expected: string[] | null,
      line: number,
    ) => {
      mutants.push({
        id: `${name}#${mutants.length + 1}`,
        ...base,
        kind,
        to,
        expectedTargets: expected,
        line,
        source: applyEdit(text, site, to),
      })
    }
    if (kinds.includes('retarget')) {
      site.targets.forEach((ref, position) => {
        const choices = alternatives(machine, ref)
        for (const state of options.allTargets ? choices : choices.slice(0, 1)) {
          const to = site.targets.map((t, i) =>
            i === position ? targetText(machine, site.source, ref, state) : t.text,
          )
          const expected = site.targets.map((t, i) => (i === position ? state.id : t.state.id))
          push('retarget', to, expected, ref.line)
        }
      })
    }
    if (kinds.includes('drop') && site.event !== 'always') {
      push('drop', null, null, site.targets[0]!.line)
    }
  }
  return mutants
}
