import {
  type AnyActorLogic,
  type AnyActorRef,
  type AnyEventObject,
  createActor,
  createMachine,
  type EventObject,
  initialTransition,
  transition,
} from 'xstate'
import { getAdjacencyMap } from 'xstate/graph'
import { clientTimekeeping } from '../../../machines/client/client.actors'
import { type ClientMachine, clientMachine } from '../../../machines/client/client.machine'
import { serializeClientSnapshot } from '../../../machines/client/client.traversal'
import {
  type ClientSnapshot,
  type ClientStatus,
  toClientView,
} from '../../../machines/client/client.view'
import { checkArgument } from '../arguments'
import { type ChildAnswer, isChildAnswer, type RuleEvent } from './rules/outcome'
import { pendingTimeouts, type RuleOutcome, STEP_RULES, type StepRule } from './steps'
import type { ClientFlow, ClientPath, ClientPathStep, ClientStep } from './types'
import { type ClientPathWorld, defaultWorld } from './world'

/** Options of `getClientPaths`. */
export interface ClientPathOptions {
  /** The flows to generate, each from a fresh page; default `CLIENT_FLOWS` (all three). */
  flows?: readonly ClientFlow[]
  /** Longest path, in steps; default no limit (the paths then cover every change of the chart). */
  maxSteps?: number
  /** The root machine to generate from; default the real one (a test may pass a changed copy). */
  machine?: ClientMachine
  /** The table of steps; default `STEP_RULES` (extend it with `[...STEP_RULES, myRule]`). */
  rules?: readonly StepRule[]
  /** The wallet the paths use; default `defaultWorld()`. */
  world?: ClientPathWorld
}

/** What the chart allows: the statuses it reaches and the changes between them (`from → to`). */
export interface ClientStatusGraph {
  statuses: ClientStatus[]
  changes: string[]
}

/** What `exploreClient` returns: the paths, and what the chart allows (the coverage's denominator). */
export interface ClientExploration {
  paths: ClientPath[]
  graph: ClientStatusGraph
}

interface Edge {
  id: string
  from: string
  to: string
}

const TIME = 'time:'
/** After a fault, the step a path goes on with: the wallet's answer, else a call that needs the wallet. */
const ONWARD = ['wallet.approve', 'user.signMessage', 'user.disconnect']

/**
 * The `transaction` child in a traversal: its wallet's answer reaches the root as the events the
 * rules raise (`TRANSACTION.CHANGED` with its hash, or its end with none); its receipt stages are its own chart's, so it
 * shows none (the expected view's `transaction` is null, and `sameClientView` does not compare it).
 */
const transactionStandIn = {
  transition: (snapshot: unknown) => snapshot,
  getInitialSnapshot: () => ({ status: 'done', output: undefined, error: undefined }),
  getPersistedSnapshot: (snapshot: unknown) => snapshot,
} as unknown as AnyActorLogic

/**
 * The `universalLink` child in a traversal: it awaits the wallet (the view's `awaitingWallet`);
 * the wallet's answer reaches the root as the events the rules raise (`LINK.CHANGED`, its end).
 */
const linkStandIn = {
  transition: (snapshot: unknown) => snapshot,
  getInitialSnapshot: () => ({
    status: 'active',
    value: 'awaitingWallet',
    context: {},
    output: undefined,
    error: undefined,
    hasTag: (tag: string) => tag === 'awaitingWallet',
  }),
  getPersistedSnapshot: (snapshot: unknown) => snapshot,
} as unknown as AnyActorLogic

/**
 * The child of an answer, standing in for the root's invoked child: it ends (done with the output,
 * or failed with the error) as soon as it starts; a `sign` child that failed stays active in the
 * state the answer names once told to answer, as the sign machine waits in `rejected` / `failed`.
 */
function answeringChild(answer: ChildAnswer): AnyActorLogic {
  type Snapshot = {
    status: string
    output?: unknown
    error?: unknown
    value?: string
    context?: object
  }
  const initial: Snapshot =
    'output' in answer
      ? { status: 'done', output: answer.output }
      : answer.child === 'sign'
        ? { status: 'active', value: 'requesting', context: { error: null } }
        : { status: 'error', error: answer.error }
  return {
    getInitialSnapshot: () => initial,
    transition: (snapshot: Snapshot) =>
      'status' in answer && answer.child === 'sign'
        ? { status: 'active', value: answer.status, context: { error: answer.error } }
        : snapshot,
    getPersistedSnapshot: (snapshot: Snapshot) => snapshot,
  } as unknown as AnyActorLogic
}

/**
 * The event the root's chart receives when its invoked child `answer.child` answers: a stand-in
 * child with that id runs, invoked by a host machine, and the event XState itself sends the host
 * (its done or error event, or for a failed signature its snapshot) is the one the root gets. The
 * root's own children do not run in a traversal; this is how their answer reaches it.
 */
function childEnd(answer: ChildAnswer): EventObject {
  const sent: EventObject[] = []
  const host = createActor(
    createMachine({
      invoke: {
        id: answer.child,
        src: answeringChild(answer),
        onSnapshot: {},
        onDone: {},
        onError: {},
      },
    }),
    {
      inspect: (inspection) => {
        if (
          inspection.type === '@xstate.event' &&
          (inspection.sourceRef as AnyActorRef | undefined)?.id === answer.child
        )
          sent.push(inspection.event)
      },
    },
  ).start()
  host.getSnapshot().children[answer.child]?.send({ type: 'ANSWER' })
  host.stop()
  const event = sent.at(-1)
  if (event === undefined)
    throw new Error(`getClientPaths: the ${answer.child} child did not answer`)
  return event
}

/** The events the children's answers gave, by answer (the same answer gives the same event). */
const childEnds = new Map<string, EventObject>()

/** What reaches the root for `event`: the chart's own event, or a child's answer. */
function toRoot(event: RuleEvent): EventObject {
  if (!isChildAnswer(event)) return event
  const key = JSON.stringify(event)
  let end = childEnds.get(key)
  if (end === undefined) {
    end = childEnd(event)
    childEnds.set(key, end)
  }
  return end
}

/**
 * The delayed events the chart has scheduled in a snapshot (by id), from the actions XState's
 * `transition` returns: a delayed `raise` schedules one, a `cancel` (leaving the state) drops it.
 */
type Scheduled = ReadonlyMap<string, EventObject>
function schedule(before: Scheduled, actions: ReadonlyArray<{ type: string; params?: unknown }>) {
  const after = new Map(before)
  for (const action of actions) {
    const params = (action.params ?? {}) as {
      id?: string
      delay?: unknown
      event?: EventObject
      sendId?: string
    }
    if (action.type === 'xstate.raise' && typeof params.delay === 'number' && params.event)
      after.set(params.id ?? params.event.type, params.event)
    if (action.type === 'xstate.cancel' && params.sendId !== undefined) after.delete(params.sendId)
  }
  return after
}

/** Two snapshots are one state of a path when the chart's state and what the UI shows agree. */
const serialize = (snapshot: ClientSnapshot): string => serializeClientSnapshot(snapshot)

/** What a UI shows of a connection: a step that changes only this is a change too. */
const shown = (snapshot: ClientSnapshot): string => {
  const view = toClientView(snapshot)
  return `${view.address}|${view.chainId}`
}

/** `a → b` for each change of status along `statuses`. */
export function statusChanges(statuses: readonly ClientStatus[]): string[] {
  const changes: string[] = []
  for (let i = 1; i < statuses.length; i++)
    if (statuses[i] !== statuses[i - 1]) changes.push(`${statuses[i - 1]} → ${statuses[i]}`)
  return changes
}

/**
 * Explores the root chart (`xstate/graph`'s adjacency map over the steps of the rules) and returns
 * one path per change the chart allows — every edge of the map, reached by its shortest path —
 * leaving out paths that are the start of a longer one; and the statuses and status changes the
 * chart reaches (the coverage's denominator).
 *
 * @throws AppError `INVALID_CONFIG` when an option is of the wrong type (an unknown flow, a
 * `maxSteps` that is not an integer ≥ 0).
 */
export function exploreClient(options: ClientPathOptions = {}): ClientExploration {
  checkArgument('pathOptions', options, 'exploreClient options')
  const paths: ClientPath[] = []
  const statuses = new Set<ClientStatus>()
  const changes = new Set<string>()
  for (const flow of options.flows ?? CLIENT_FLOWS) {
    const explored = exploreFlow(flow, options)
    paths.push(...explored.paths)
    for (const status of explored.graph.statuses) statuses.add(status)
    for (const change of explored.graph.changes) changes.add(change)
  }
  return { paths, graph: { statuses: [...statuses], changes: [...changes] } }
}

/** The flows `getClientPaths` generates by default. */
export const CLIENT_FLOWS: readonly ClientFlow[] = ['desktop', 'pairing', 'universalLink']

function exploreFlow(flow: ClientFlow, options: ClientPathOptions): ClientExploration {
  const world = options.world ?? defaultWorld()
  const rules = (options.rules ?? STEP_RULES).filter((rule) => rule.flows.includes(flow))
  // The chart with its deadlines on a clock that stands still: a traversal compares no time.
  const machine = (options.machine ?? clientMachine)
    .provide(clientTimekeeping(() => 0))
    .provide({ actors: { transaction: transactionStandIn, universalLink: linkStandIn } })
  // What each snapshot of the traversal has scheduled (its named timeouts' events).
  const scheduled = new WeakMap<ClientSnapshot, Scheduled>()
  const [first, firstActions] = initialTransition(machine, {})
  const initial = first as ClientSnapshot
  scheduled.set(initial, schedule(new Map(), firstActions))
  // XState's `transition` makes an actor of the logic for each call (its scope), which computes
  // the initial snapshot: the chart's own transitions behind the initial snapshot made once.
  const logicOnce = {
    ...machine,
    getInitialSnapshot: () => initial,
    transition: machine.transition.bind(machine),
  } as unknown as typeof machine
  /** The chart's own transition (XState's `transition`), its scheduled events kept. */
  const step = (snapshot: ClientSnapshot, event: EventObject): ClientSnapshot => {
    const [next, actions] = transition(logicOnce, snapshot, event as never)
    scheduled.set(next as ClientSnapshot, schedule(scheduled.get(snapshot) ?? new Map(), actions))
    return next as ClientSnapshot
  }
  /** The named timeouts `snapshot` waits for, with the event XState scheduled for each. */
  const timeouts = (snapshot: ClientSnapshot) =>
    pendingTimeouts(snapshot).flatMap(({ timeout, eventType }) => {
      const event = scheduled.get(snapshot)?.get(eventType)
      return event ? [{ timeout, event }] : []
    })

  /** A step: a rule's outcome, or a named timeout passing (the event XState scheduled for it). */
  type Outcome = RuleOutcome & { timer?: EventObject }
  const outcome = (snapshot: ClientSnapshot, id: string): Outcome | null => {
    if (id.startsWith(TIME)) {
      const found = timeouts(snapshot).find((t) => `${TIME}${t.event.type}` === id)
      if (!found) return null
      const passes: ClientStep = {
        kind: 'time',
        timeout: found.timeout,
        description: `nobody answers: ${found.timeout} passes`,
      }
      return { step: passes, events: [], timer: found.event }
    }
    return rules.find((rule) => rule.id === id)?.at(snapshot, world) ?? null
  }

  /** The snapshots after each root event of the step (a reload: the fresh root). */
  const play = (snapshot: ClientSnapshot, result: Outcome): ClientSnapshot[] => {
    const seen: ClientSnapshot[] = result.restart ? [initial] : []
    let next = result.restart ? initial : snapshot
    const events = [...(result.timer ? [result.timer] : []), ...result.events.map(toRoot)]
    for (const event of events) {
      next = step(next, event)
      seen.push(next)
    }
    return seen
  }

  const logic = {
    ...machine,
    transition: (snapshot: ClientSnapshot, event: AnyEventObject) => {
      const result = outcome(snapshot, event.type)
      return result ? (play(snapshot, result).at(-1) ?? snapshot) : snapshot
    },
    getInitialSnapshot: () => initial,
  }
  const events = (snapshot: ClientSnapshot): AnyEventObject[] => {
    if (snapshot.status !== 'active') return []
    const ids = [
      ...rules.filter((rule) => rule.at(snapshot, world) !== null).map((rule) => rule.id),
      ...timeouts(snapshot).map((t) => `${TIME}${t.event.type}`),
    ]
    return [...new Set(ids)].map((type) => ({ type }))
  }
  const adjacency = getAdjacencyMap(logic as never, {
    events: events as never,
    serializeState: serialize as never,
    limit: 20_000,
  }) as Record<
    string,
    {
      state: ClientSnapshot
      transitions: Record<string, { event: AnyEventObject; state: ClientSnapshot }>
    }
  >

  // Shortest path (edges) to every state, breadth first from the initial one.
  const start = serialize(initial)
  const shortest = new Map<string, Edge[]>([[start, []]])
  const queue = [start]
  const edges: Edge[] = []
  while (queue.length > 0) {
    const from = queue.shift() as string
    for (const { event, state } of Object.values(adjacency[from]?.transitions ?? {})) {
      const to = serialize(state)
      const edge = { id: event.type, from, to }
      // A step back to the same state counts when the UI shows something else (another account),
      // and a reload that `resume()` restores to where it was (a universal-link flow).
      if (
        to !== from ||
        event.type.startsWith('fault.') ||
        event.type.startsWith('reload.') ||
        shown(state) !== shown(adjacency[from]?.state as ClientSnapshot)
      )
        edges.push(edge)
      if (!shortest.has(to)) {
        shortest.set(to, [...(shortest.get(from) ?? []), edge])
        queue.push(to)
      }
    }
  }

  const statuses = new Set<ClientStatus>([toClientView(initial).status])
  const changes = new Set<string>()
  const build = (route: Edge[]): ClientPath => {
    let snapshot = initial
    const steps: ClientPathStep[] = []
    for (const edge of route) {
      const result = outcome(snapshot, edge.id)
      if (!result) throw new Error(`getClientPaths: step ${edge.id} no longer applies`)
      const before = toClientView(snapshot).status
      const seen = play(snapshot, result)
      const through =
        result.shows ??
        seen.map((s) => toClientView(s).status).filter((s, i, all) => s !== all[i - 1])
      snapshot = seen.at(-1) ?? snapshot
      for (const status of through) statuses.add(status)
      // A reload is a new root, not a change the chart makes: its changes start at the fresh root.
      for (const change of statusChanges(result.restart ? through : [before, ...through]))
        changes.add(change)
      steps.push({
        ...result.step,
        expected: toClientView(snapshot),
        through: [...through],
      } as ClientPathStep)
    }
    return {
      description: `${flow}: ${steps.map((s) => s.description).join(' → ')}`,
      flow,
      initial: toClientView(initial),
      steps,
    }
  }

  // A fault changes nothing in the chart: its path goes on with the first step that leaves the
  // state (after the fault, the next call succeeds).
  const FAULT = 'fault.'
  // A reload restored to where it was goes on the same way (the restored flow still ends).
  const onward = (edge: Edge): Edge[] => {
    const restored = edge.id.startsWith('reload.') && edge.to === edge.from
    if (!edge.id.startsWith(FAULT) && !restored) return []
    const out = edges.filter(
      (e) => e.from === edge.to && e.to !== e.from && !e.id.startsWith(FAULT),
    )
    const next = ONWARD.map((id) => out.find((e) => e.id === id)).find(Boolean) ?? out[0]
    return next ? [next] : []
  }
  const routes = edges
    .map((edge) => [...(shortest.get(edge.from) ?? []), edge, ...onward(edge)])
    .filter((route) => options.maxSteps === undefined || route.length <= options.maxSteps)
  const keyOf = (route: Edge[]) => route.map((e) => `${e.from}>${e.id}`).join('\n')
  const keys = routes.map(keyOf)
  const unique = routes.filter((_, i) => keys.indexOf(keys[i] as string) === i)
  const uniqueKeys = unique.map(keyOf)
  // A path that is the start of a longer one adds nothing the longer one does not check.
  const kept = unique.filter((_, i) =>
    uniqueKeys.every((other, j) => j === i || !other.startsWith(`${uniqueKeys[i]}\n`)),
  )
  const paths = kept.map(build)
  // The denominator: every edge of the chart, kept or not.
  for (const route of routes) build(route)
  return { paths, graph: { statuses: [...statuses], changes: [...changes] } }
}

/**
 * Paths through the `Client`'s flows, generated from the real root machine: each path is a series of
 * steps — a user action, a wallet behaviour, a backend or relay fault, a named timeout passing, a
 * reload — with the `ClientView` the UI must show after each. Together they reach every status and
 * every status change the chart allows (for the flows chosen). Replay them with `runClientPath`.
 *
 * @throws AppError `INVALID_CONFIG` when an option is of the wrong type (see `exploreClient`).
 */
export function getClientPaths(options: ClientPathOptions = {}): ClientPath[] {
  checkArgument('pathOptions', options, 'getClientPaths options')
  const { paths } = exploreClient(options)
  // A custom world goes with its paths: `runClientPath` replays them in it.
  const world = options.world
  return world ? paths.map((path) => ({ ...path, world })) : paths
}
