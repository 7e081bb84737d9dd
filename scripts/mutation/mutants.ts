/**
 * Mutants of a machine source file: each one changes one transition (or one invoke's error
 * handling) and nothing else.
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
 *
 * Fault mutants (the chart no longer handles a failure; `FAULT_KINDS`):
 *
 * - `drop-onerror`: an invoke's `onError` key is removed. The actor's failure is then unhandled,
 *   and XState puts the whole machine in `status: 'error'` (its parent sees an error, not an
 *   outcome).
 * - `drop-handler`: one transition that handles a failure is removed (the whole transition, not
 *   its target): the event falls through to the next branch or, when none is left, is not handled.
 *   A transition handles a failure when (see `faultOf`) it is one branch of an `onError` list, an
 *   `on` handler of `xstate.error.*` or of a failure-like event (`*.FAILED`, `ERROR`, `REJECTED`,
 *   `EXPIRED`, `TIMEOUT`, `DISCONNECTED`, `DELETED`, …), its guard reads a failure (its name or
 *   params say fail / reject / error / expired / gone / rate limit / transient / deadline /
 *   attempt cap), it goes to a failure state (`failed`, `rejected`, `expired`, `error`), or its
 *   actions report an error code (`'WALLET_ERROR'`, `'NOT_CONNECTED'`; `'ABORTED'`, a cancel, does
 *   not count). A single-transition `onError` is left to `drop-onerror` (the same mutant).
 * - `drop-after`: one delayed (`after`) transition is removed: the timeout never fires.
 *
 * Every mutant names only states that exist, so XState accepts it; the runner still checks that
 * the mutant loads and that exactly this transition changed (a removal: the table is the baseline
 * without it, the later transitions of its list moving up).
 */
import {
  type ChartMachine,
  type ChartState,
  eventLabel,
  liftEdit,
  type OnErrorSite,
  type SourceEdit,
  statePath,
  type TargetRef,
  type TransitionSite,
} from './transitions'

export type MutantKind = 'retarget' | 'drop' | 'drop-onerror' | 'drop-handler' | 'drop-after'
export const MUTANT_KINDS: readonly MutantKind[] = [
  'retarget',
  'drop',
  'drop-onerror',
  'drop-handler',
  'drop-after',
]
/** The kinds that take away the handling of a failure or a timeout. */
export const FAULT_KINDS: readonly MutantKind[] = ['drop-onerror', 'drop-handler', 'drop-after']

export interface Mutant {
  /** `<machine>#<n>`, stable for a given source. */
  id: string
  /** The machine's file name without `.machine.ts` (`session-polling`). */
  machine: string
  machineId: string
  /**
   * The source file the mutant changes, relative to the project root: the machine's, or the
   * module of an imported state config (`createStateConfig`).
   */
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
  /** Targets as written, before and after (`null`: dropped; `[]` for a removed transition). */
  from: string[]
  to: string[] | null
  /** Removal mutants: the transition(s) gone from the runtime table (`index` null: all of them). */
  removes?: { stateId: string; event: string; index: number | null }
  /** Fault mutants: why the removed transition counts as handling a failure. */
  fault?: string
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

const applySourceEdit = (text: string, edit: SourceEdit) =>
  text.slice(0, edit.start) + edit.text + text.slice(edit.end)

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/**
 * The source with the transition's target replaced by `to` (`null`: no target), at its use site
 * when it sits in a shared state config.
 */
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
  return applySourceEdit(
    text,
    liftEdit(text, { start: edit.start, end: edit.end, text: replacement }, site.shared),
  )
}

const FAULT_EVENT =
  /^(FAILED|FAILURE|FAIL|ERROR|ERRORED|REJECTED|REJECT|TIMEOUT|TIMED_OUT|EXPIRED|DISCONNECTED|DELETED|LOST|GONE)$/i
const FAULT_WORD =
  /fail|reject|error|expire|gone|rate_?limit|transient|deadline|attempt_?cap|timeout/i
const FAULT_STATE = /^(failed|failure|rejected|expired|error|errored|timedOut)$/i
/** A string literal that is an error code (`'WALLET_ERROR'`, `'TIMEOUT'`), not `'ABORTED'`. */
const ERROR_CODE = /'((?:[A-Z]+_)+[A-Z]+|TIMEOUT)'/g

/**
 * Why `site` handles a failure, or undefined when it does not (see the module comment). `after`
 * transitions are the `drop-after` kind's; a sole `onError` transition is `drop-onerror`'s.
 */
export function faultOf(site: TransitionSite): string | undefined {
  if (site.origin === 'after') return undefined
  if (site.origin === 'invoke.onError')
    return site.siblings > 1 ? `onError branch ${site.index + 1} of ${site.siblings}` : undefined
  if (site.event.startsWith('xstate.error.')) return 'handles an error event'
  const last = site.event.split('.').pop() ?? ''
  if (site.origin === 'on' && !site.event.startsWith('xstate.') && FAULT_EVENT.test(last))
    return `handles the failure event ${site.event}`
  if (site.guardText && FAULT_WORD.test(site.guardText))
    return `guard ${site.guard} reads a failure`
  const failing = site.targets.find((t) => FAULT_STATE.test(t.state.key))
  if (failing) return `goes to the failure state ${statePath(failing.state)}`
  const codes = [...(site.actionsText ?? '').matchAll(ERROR_CODE)]
    .map((m) => m[1]!)
    .filter((c) => c !== 'ABORTED')
  if (codes.length > 0) return `reports ${codes.join(', ')}`
  return undefined
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
  const onErrorOf = new Map<string, OnErrorSite>(
    machine.onErrors.map((o) => [`${o.source.id}|${o.event}`, o]),
  )
  const onErrorDone = new Set<OnErrorSite>()
  /** The file a site's edits apply to, and its text. */
  const fileOf = (site: { file?: string }) => site.file ?? file
  const textOf = (site: { file?: string }) =>
    site.file === undefined ? text : (machine.sources[site.file] ?? '')
  for (const site of machine.transitions) {
    // The invoke's `drop-onerror` comes with its first onError transition.
    const onError =
      site.origin === 'invoke.onError'
        ? onErrorOf.get(`${site.source.id}|${site.event}`)
        : undefined
    if (onError && !onErrorDone.has(onError)) {
      onErrorDone.add(onError)
      if (kinds.includes('drop-onerror') && onError.removal)
        mutants.push({
          id: `${name}#${mutants.length + 1}`,
          machine: name,
          machineId: machine.id,
          file: fileOf(onError),
          kind: 'drop-onerror',
          state: statePath(onError.source),
          stateId: onError.source.id,
          event: onError.event,
          eventLabel: eventLabel(onError.event),
          index: 0,
          guard: undefined,
          from: machine.transitions
            .filter((t) => t.source === onError.source && t.event === onError.event)
            .flatMap((t) => t.targets.map((r) => r.text)),
          to: [],
          removes: { stateId: onError.source.id, event: onError.event, index: null },
          fault: `the ${onError.id} failure is no longer handled (${onError.transitions} transition${onError.transitions === 1 ? '' : 's'})`,
          expectedTargets: null,
          line: onError.line,
          useLine: onError.line,
          key: transitionKey(onError.source.id, onError.event, 0),
          source: applySourceEdit(textOf(onError), onError.removal),
        })
    }
    const removal = (kind: 'drop-handler' | 'drop-after', fault: string) => {
      if (!kinds.includes(kind) || !site.removal) return
      mutants.push({
        id: `${name}#${mutants.length + 1}`,
        machine: name,
        machineId: machine.id,
        file: fileOf(site),
        kind,
        state: statePath(site.source),
        stateId: site.source.id,
        event: site.event,
        eventLabel: eventLabel(site.event),
        index: site.index,
        guard: site.guard,
        from: site.targets.map((t) => t.text),
        to: [],
        removes: { stateId: site.source.id, event: site.event, index: site.index },
        fault,
        expectedTargets: null,
        line: site.targets[0]?.line ?? site.line,
        useLine: site.line,
        key: transitionKey(site.source.id, site.event, site.index),
        source: applySourceEdit(textOf(site), site.removal),
      })
    }
    if (site.origin === 'after') removal('drop-after', 'the timeout never fires')
    else {
      const fault = faultOf(site)
      if (fault) removal('drop-handler', fault)
    }
    if (site.targets.length === 0) continue
    const base = {
      machine: name,
      machineId: machine.id,
      file: fileOf(site),
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
        source: applyEdit(textOf(site), site, to),
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
