import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  createActor,
  createMachine,
  type EventObject,
  getStateNodes,
} from 'xstate'
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph'
import { machineEdges, machineStates } from '../../../visualizations/graph'

export interface Variant {
  name: string
  input: unknown
}

export interface Exploration {
  machine: AnyStateMachine
  /** Shortest paths to every distinct (serialized) state, per variant. */
  paths: Array<{ variant: string; path: StatePath<AnyMachineSnapshot, EventObject> }>
  coveredStates: Set<string>
  coveredTransitions: Set<AnyTransitionDefinition>
}

export interface CoverageRow {
  machine: string
  states: string
  transitions: string
  paths: number
  missingStates: string[]
  missingTransitions: string[]
}

/**
 * Traverses `machine` once per input variant with `getShortestPaths`, feeding it `events(snapshot)`
 * (synthetic `xstate.done.actor.*` / `xstate.error.actor.*` / `xstate.after.*` events instead of
 * running actors), then replays every edge of the adjacency map through an instrumented actor
 * scope to learn which transition definitions fired (XState has no coverage helper).
 */
export function explore(
  machine: AnyStateMachine,
  variants: Variant[],
  events: (snapshot: AnyMachineSnapshot) => EventObject[],
  serializeState: (snapshot: AnyMachineSnapshot) => string,
  limit = 5000,
): Exploration {
  const coveredStates = new Set<string>()
  const coveredTransitions = new Set<AnyTransitionDefinition>()
  const paths: Exploration['paths'] = []
  const possible = (snapshot: AnyMachineSnapshot) => possibleEvents(snapshot, events(snapshot))

  for (const variant of variants) {
    const options = { input: variant.input, events: possible, serializeState, limit }
    for (const path of getShortestPaths(machine, options as never)) {
      paths.push({
        variant: variant.name,
        path: path as StatePath<AnyMachineSnapshot, EventObject>,
      })
    }

    // An actor scope whose system reports every microstep's transitions to us. The probe runs an
    // empty machine: the system must be fresh, or a child's `systemId` would be taken twice.
    const probe = createActor(createMachine({}), {
      inspect: (event) => {
        if (event.type !== '@xstate.microstep') return
        for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })
          ._transitions) {
          coveredTransitions.add(t)
        }
      },
    })
    const scope = {
      self: probe,
      logger: () => {},
      id: '',
      sessionId: 'model',
      defer: () => {},
      system: probe.system,
      stopChild: () => {},
      emit: () => {},
      actionExecutor: () => {},
    }
    const initial = machine.getInitialSnapshot(scope as never, variant.input)
    const adjacency = getAdjacencyMap(machine, { ...options, fromState: initial } as never)
    for (const { state, transitions } of Object.values(adjacency)) {
      const snapshot = state as AnyMachineSnapshot
      for (const node of getStateNodes(snapshot.machine.root, snapshot.value)) {
        coveredStates.add(node.id)
      }
      for (const { event } of Object.values(transitions) as { event: EventObject }[]) {
        machine.transition(snapshot, event as EventObject, scope as never)
      }
    }
  }
  // A transition that fired had its source state active (this also counts transient states).
  for (const transition of coveredTransitions) coveredStates.add(transition.source.id)
  return { machine, paths, coveredStates, coveredTransitions }
}

/**
 * Keeps only events the running machine could really receive: none once it is done, actor
 * done/error events only for actors it currently invokes, delayed events only for active states.
 */
export function possibleEvents(snapshot: AnyMachineSnapshot, events: EventObject[]): EventObject[] {
  if (snapshot.status !== 'active') return []
  const children = Object.keys(snapshot.children ?? {})
  const active = new Set(getStateNodes(snapshot.machine.root, snapshot.value).map((n) => n.id))
  return events.filter(({ type }) => {
    const actor = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type)
    if (actor) return children.includes(actor[1]!)
    const after = /^xstate\.after\.[^.]+\.(.+)$/.exec(type)
    if (after) return active.has(after[1]!)
    return true
  })
}

export function coverageRow(name: string, exploration: Exploration): CoverageRow {
  const { machine, coveredStates, coveredTransitions, paths } = exploration
  const states = machineStates(machine).map((s) => s.id)
  const edges = machineEdges(machine)
  const missingStates = states.filter((id) => !coveredStates.has(id))
  const missingTransitions = edges
    .filter((e) => !coveredTransitions.has(e.transition))
    .map(
      (e) =>
        `${e.source.id} --${e.eventType}${e.guard ? ` [${e.guard}]` : ''}--> ${e.target?.id ?? '(self)'}`,
    )
  const pct = (covered: number, total: number) =>
    `${covered}/${total} (${total === 0 ? 100 : Math.round((covered / total) * 1000) / 10} %)`
  return {
    machine: name,
    states: pct(states.length - missingStates.length, states.length),
    transitions: pct(edges.length - missingTransitions.length, edges.length),
    paths: paths.length,
    missingStates,
    missingTransitions,
  }
}

/** Prints the rows as a fixed-width table. */
export function printCoverage(rows: CoverageRow[]): string {
  const header = ['machine', 'states', 'transitions', 'shortest paths']
  const body = rows.map((r) => [r.machine, r.states, r.transitions, String(r.paths)])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [
    'Model-based coverage (states and transitions from toDirectedGraph + eventless transitions)',
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
  ].join('\n')
}

/** Synthetic delayed-transition events for every `after` transition of the machine. */
export function afterEvents(machine: AnyStateMachine): EventObject[] {
  return [...new Set(machineEdges(machine).map((e) => e.eventType))]
    .filter((type) => type.startsWith('xstate.after.'))
    .map((type) => ({ type }))
}
